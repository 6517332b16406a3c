package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** LOAD XML rows as StAX reads them, written again for MariaDB's reader; the key as that reader takes it. */
class LoadXmlRecordsTest {

    /** "ancestors|row xml|key" per row, the same whether the file arrives whole or a byte per read. */
    private static List<String> rows(String file, String tag, String key, long ignore) {
        List<String> out = null;
        for (boolean trickle : new boolean[] {false, true}) {
            byte[] bytes = file.getBytes(StandardCharsets.UTF_8);
            InputStream in = trickle ? new ByteArrayInputStream(bytes) {
                @Override
                public synchronized int read(byte[] b, int off, int len) {
                    return super.read(b, off, Math.min(len, 1));
                }
            } : new ByteArrayInputStream(bytes);
            LoadXmlRecords records = new LoadXmlRecords(in, tag, key);
            records.skip(ignore);
            List<String> got = new ArrayList<>();
            while (records.next()) {
                StringBuilder enclosing = new StringBuilder();
                for (LoadXmlRecords.Ancestor a : records.ancestors()) {
                    enclosing.append(new String(a.startTag(), StandardCharsets.ISO_8859_1).trim());
                }
                got.add(enclosing + "|" + new String(records.row(), StandardCharsets.UTF_8).trim() + "|" + records.key());
            }
            if (out != null) {
                assertEquals(out, got, "read one byte at a time");
            }
            out = got;
        }
        return out;
    }

    @Test
    void theThreeRowFormsAndTheirKeys() {
        String file = """
                <?xml version="1.0" encoding="UTF-8"?>
                <resultset xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="outer">
                <row id="1" name="a &amp; &lt;b&gt;"/>
                <row><id>2</id><name>x &apos;y&apos; \u00e9</name></row>
                <row><field name="id">3</field><field name="name" xsi:nil="true" /></row>
                <row><name>no id</name></row>
                <row id="5"><id></id></row>
                <!-- <row id="9"/> -->
                </resultset>
                """;
        String outer = "<resultset xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" id=\"outer\">";
        assertEquals(List.of(
                outer + "|<row id=\"1\" name=\"a &amp; &lt;b&gt;\" />|1",
                outer + "|<row><id>2</id><name>x &apos;y&apos; \u00e9</name></row>|2",
                outer + "|<row><field name=\"id\">3</field><field name=\"name\" xsi:nil=\"true\" /></row>|3",
                outer + "|<row><name>no id</name></row>|outer",
                outer + "|<row id=\"5\"><id /></row>|5"), rows(file, "row", "id", 0));
        assertEquals(2, rows(file, "row", "id", 3).size(), "IGNORE 3 ROWS");
        assertEquals(List.of("<t a=\"1\">|<u id=\"7\" />|7"), rows("<t a=\"1\"><row id=\"6\"/><u id=\"7\"/></t>", "u", "id", 0));
        assertEquals(List.of("<r id=\"0\">|<row><s><id>1</id></s><s id=\"2\">x</s></row>|0", "<r id=\"0\">|<row><id>4<x>9</x></id></row>|4"),
                rows("<r id=\"0\"><row><s><id>1</id></s><s id=\"2\">x</s></row><row><id>4<x>9</x></id></row></r>", "row", "id", 0),
                "MariaDB's reader reads the row's attributes and its children's text, not deeper (checked on MariaDB 11.4)");
        assertEquals(List.of("<r>|<row id=\"1\"><n>a b</n></row>|1"), rows("<r>\r\n<row id=\"1\"><n>a b</n></row>\r\n</r>", "row", "id", 0),
                "a CR LF file whose values have no line break");
    }

    @Test
    void whatMariaDbsReaderReadsOtherwiseIsRefused() {
        for (String[] file : new String[][] {
                {"<r><row id=\"1\"/><row id=\"2\"><x></row></r>", "not well-formed XML at line 1"},
                {"<r><row id=\"1\"/><row id=\"2\">", "not well-formed XML"},
                {"<!DOCTYPE r [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><r><row id=\"1\">&e;</row></r>", "a DTD"},
                {"<r><row id=\"1\" name=\"&#65;\"/></r>", "a character reference"},
                {"<r><row id=\"1\"><n><![CDATA[x]]></n></row></r>", "a CDATA section"},
                {"<r><row id=\"1\">&nbsp;</row></r>", "not well-formed XML"},
                {"<r>\r\n<row id=\"1\"><n>a\r\nb</n></row></r>", "a carriage return"}}) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> rows(file[0], "row", "id", 0), file[0]);
            assertEquals(1235, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains(file[1]), e.getMessage());
        }
    }

    /** XML reads a tab, CR or LF in an attribute value as a space; MariaDB's reader keeps the byte (checked on MariaDB 11.4). */
    @Test
    void whiteSpaceInsideAnAttributeValueIsRefused() {
        for (String file : new String[] {
                "<r><row id=\"1\" name=\"a\tb\"/></r>",
                "<r><row id=\"1\" name=\"a\nb\"/></r>",
                "<r><row id=\"1\" name='a\r\nb'/></r>",
                "<r n=\"x\ny\"><row id=\"1\"/></r>",
                "<r><row id=\"1\"><n a=\">\" b=\"x\ty\">v</n></row></r>",
                "<?xml version=\"1.0\"?><!-- it's \"q --><r><row id=\"1\" name=\"a\tb\"/></r>",
                "<r><?pi x=\"y\"?><row id=\"1\" name=\"a\tb\"/></r>"}) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> rows(file, "row", "id", 0), file);
            assertEquals(1235, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("a tab, carriage return or line break inside an attribute value"), e.getMessage());
        }
        assertEquals(List.of("<r>|<row id=\"1\" name=\"a b\"><n>x\ty\nz</n></row>|1"), rows(
                "<?xml version=\"1.0\"?>\n<!-- \"a\n'b -->\n<r>\n<?pi a=\"\n\"?><row\n\tid=\"1\"\n name=\"a b\"><n>x\ty\nz</n></row>\n</r>",
                "row", "id", 0), "white space in text, between attributes, in a comment or a processing instruction is read alike");
    }

    /** A generated key goes last in the row, where MariaDB's reader takes it over the row's own values of that name. */
    @Test
    void aGeneratedKeyIsTheRowsLastField() {
        LoadXmlRecords records = new LoadXmlRecords(new ByteArrayInputStream(
                "<r><row id=\"9\" k=\"a\"/><row id=\"9\"><id>8</id><k>b</k></row><row><field name=\"id\">7</field></row></r>"
                        .getBytes(StandardCharsets.UTF_8)), "row", null);
        List<String> got = new ArrayList<>();
        while (records.next()) {
            got.add(new String(records.rowWith("id", "42&"), StandardCharsets.ISO_8859_1).trim());
        }
        assertEquals(List.of("<row id=\"9\" k=\"a\" id=\"42&amp;\" />", "<row id=\"9\"><id>8</id><k>b</k><id>42&amp;</id></row>",
                "<row><field name=\"id\">7</field><id>42&amp;</id></row>"), got);
    }
}
