package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoadDataStatementTest {
    private static LoadDataStatement parse(String sql) {
        NormalizedSql n = Normalizer.normalize(sql);
        assertTrue(LoadDataStatement.is(n), sql);
        return LoadDataStatement.parse(n);
    }

    @Test
    void readsEveryClauseAndSplicesTheShardStatement() {
        LoadDataStatement l = parse("LOAD DATA LOCAL INFILE '/tmp/a.csv' REPLACE INTO TABLE shop.users CHARACTER SET utf8mb4"
                + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '\\\\' LINES STARTING BY 'x' TERMINATED BY '\\r\\n'"
                + " IGNORE 2 LINES (user_id, @n, email) SET name = UPPER(@n)");
        assertTrue(l.local());
        assertTrue(l.replace());
        assertEquals("/tmp/a.csv", l.file());
        assertEquals("shop", l.schema());
        assertEquals("users", l.table());
        assertArrayEquals(",".getBytes(StandardCharsets.US_ASCII), l.fieldTerm());
        assertEquals('"', l.enclosed());
        assertEquals('\\', l.escape());
        assertArrayEquals("x".getBytes(StandardCharsets.US_ASCII), l.lineStart());
        assertArrayEquals("\r\n".getBytes(StandardCharsets.US_ASCII), l.lineTerm());
        assertEquals(2, l.ignoreLines());
        assertEquals(List.of("user_id", "@n", "email"), l.targets());
        assertEquals(List.of("name"), l.setColumns());
        assertEquals("LOAD DATA LOCAL INFILE '/tmp/a.csv' REPLACE INTO TABLE `users_1` CHARACTER SET utf8mb4"
                + " FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED BY '\"' ESCAPED BY '\\\\' LINES STARTING BY 'x' TERMINATED BY '\\r\\n'"
                + "  (`order_id`, user_id, @n, email) SET name = UPPER(@n)", l.forShard("users_1", "order_id"));
    }

    @Test
    void serverFilesAreReadAsNotLocalAndOtherStatementsAreNoLoad() {
        assertFalse(parse("LOAD DATA INFILE '/etc/passwd' INTO TABLE users").local());
        assertFalse(LoadDataStatement.is(Normalizer.normalize("SELECT 1")));
        assertFalse(LoadDataStatement.is(Normalizer.normalize("LOADX DATA")));
        assertEquals(1064, assertThrows(ShardwiseException.class,
                () -> parse("LOAD XML LOCAL INFILE 'a' INTO TABLE t FIELDS TERMINATED BY ','")).errno());
        assertEquals(1083, assertThrows(ShardwiseException.class,
                () -> parse("LOAD DATA LOCAL INFILE 'a' INTO TABLE t FIELDS ENCLOSED BY 'ab'")).errno());
        assertEquals(1064, assertThrows(ShardwiseException.class, () -> parse("LOAD DATA LOCAL INFILE 'a' INTO t")).errno());
        assertEquals(1235, assertThrows(ShardwiseException.class,
                () -> parse("LOAD DATA LOCAL INFILE 'a' INTO TABLE t (a, b) SET c = @other")).errno());
    }

    @Test
    void readsLoadXmlsClauses() {
        LoadDataStatement l = parse("LOAD XML LOCAL INFILE '/tmp/a.xml' IGNORE INTO TABLE users CHARACTER SET utf8mb4"
                + " ROWS IDENTIFIED BY '<user>' IGNORE 1 ROWS (user_id, @n) SET name = UPPER(@n)");
        assertTrue(l.xml());
        assertTrue(l.ignore());
        assertEquals("user", l.rowTag());
        assertEquals(1, l.ignoreLines());
        assertEquals(List.of("user_id", "@n"), l.targets());
        assertEquals(List.of("name"), l.setColumns());
        assertEquals("LOAD XML LOCAL INFILE '/tmp/a.xml' IGNORE INTO TABLE `users_0` CHARACTER SET utf8mb4"
                + " ROWS IDENTIFIED BY '<user>'  (user_id, @n) SET name = UPPER(@n)", l.forShard("users_0", null));
        assertEquals("row", parse("LOAD XML LOCAL INFILE 'a' INTO TABLE t").rowTag());
        assertFalse(parse("LOAD XML INFILE 'a' INTO TABLE t").local());
        assertEquals(1235, assertThrows(ShardwiseException.class,
                () -> parse("LOAD XML LOCAL INFILE 'a' INTO TABLE t (a) SET c = @other")).errno());
    }
}
