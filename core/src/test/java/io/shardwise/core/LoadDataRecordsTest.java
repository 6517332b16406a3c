package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.shardwise.core.sql.normalize.Normalizer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rows as MySQL's READ_INFO reads them: each row's raw bytes and its key field, fed whole and one byte per read. */
class LoadDataRecordsTest {
    private static final String CSV = "LOAD DATA LOCAL INFILE 'f' INTO TABLE t FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' (a, b, c)";

    /** "raw|key" per row. */
    private static List<String> rows(String statement, String file, int fields, int keyField, long ignore) {
        List<String> out = null;
        for (boolean trickle : new boolean[] {false, true}) {
            LoadDataStatement load = LoadDataStatement.parse(Normalizer.normalize(statement));
            byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
            InputStream in = trickle ? new ByteArrayInputStream(bytes) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1));
                }
            } : new ByteArrayInputStream(bytes);
            LoadDataRecords records = new LoadDataRecords(in, load, fields, keyField);
            records.skipLines(ignore);
            List<String> got = new ArrayList<>();
            while (records.next()) {
                byte[] key = records.key();
                got.add(new String(records.buffer(), records.rowStart(), records.rowEnd() - records.rowStart(), StandardCharsets.UTF_8)
                        + "|" + (key == null ? "NULL" : new String(key, StandardCharsets.UTF_8)));
            }
            if (out != null) {
                assertEquals(out, got, "read one byte at a time");
            }
            out = got;
        }
        return out;
    }

    @Test
    void enclosedFieldsHoldTerminatorsAndDoubledQuotes() {
        assertEquals(List.of("\"k,1\",\"x\ny\",z\n|k,1", "\"a\"\"b\",2,3\n|a\"b", "last,1,2|last"),
                rows(CSV, "\"k,1\",\"x\ny\",z\na\"b\"\"b,2,3\nlast,1,2".replace("a\"b\"\"b", "\"a\"\"b\""), 3, 0, 0));
    }

    @Test
    void extraFieldsAreSkippedToTheLineEndIgnoringEnclosuresAndShortRowsEndEarly() {
        assertEquals(List.of("1,2,3,\"4\n|1", "5\"\n|5\"", "6\n|6"), rows(CSV, "1,2,3,\"4\n5\"\n6\n", 3, 0, 0));
    }

    @Test
    void escapesDecodeTheKeyAndBackslashNIsNull() {
        List<String> r = rows(CSV, "\\N,1\nNULL,2\n\"NULL\",3\na\\,b,4\n", 2, 0, 0);
        assertEquals(List.of("\\N,1\n|NULL", "NULL,2\n|NULL", "\"NULL\",3\n|NULL", "a\\,b,4\n|a,b"), r);
    }

    @Test
    void ignoredLinesHonourEscapesButNotEnclosures() {
        assertEquals(List.of("b\",2\n|b\""), rows(CSV, "h\\\nh\n\"a\nb\",2\n", 2, 0, 2));
    }

    @Test
    void startingByKeepsTheJunkBeforeThePrefixInTheRow() {
        String statement = "LOAD DATA LOCAL INFILE 'f' INTO TABLE t FIELDS TERMINATED BY '||' LINES STARTING BY 'xxx' TERMINATED BY '\\r\\n'";
        assertEquals(List.of("junk\r\nxxx1||a\r\n|1", "abcxxx2||b\r\n|2"), rows(statement, "junk\r\nxxx1||a\r\nabcxxx2||b\r\nnoprefix", 2, 0, 0));
    }

    @Test
    void anEmptyLineIsARowAndAnEmptyFileNone() {
        assertEquals(List.of("1,2\n|1", "\n|"), rows(CSV, "1,2\n\n", 2, 0, 0));
        assertEquals(List.of(), rows(CSV, "", 2, 0, 0));
        assertNull(null);
    }

    @Test
    void aTextKeyRoutesAsMySqlStoresItInANumber() {
        assertEquals("12", LoadDataRunner.leadingNumber("  12abc"));
        assertEquals("-1.5e3", LoadDataRunner.leadingNumber("-1.5e3x"));
        assertEquals("0", LoadDataRunner.leadingNumber("line\""));
    }
}
