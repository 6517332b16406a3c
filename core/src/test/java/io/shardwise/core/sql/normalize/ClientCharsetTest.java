package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ClientCharsetTest {
    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h);
    }

    @Test
    void everyByteSequenceRoundTripsInEveryCharset() {
        Random random = new Random(14);
        for (ClientCharset charset : ClientCharset.values()) {
            for (int n = 0; n < 2000; n++) {
                byte[] bytes = new byte[random.nextInt(12)];
                random.nextBytes(bytes);
                assertArrayEquals(bytes, charset.encode(charset.decode(bytes)), charset + " " + HexFormat.of().formatHex(bytes));
            }
        }
    }

    /** ASCII takes a shorter road (no builder); it must read as every set reads it, offsets included. */
    @Test
    void asciiTextReadsAsItselfInEveryCharsetAndAtAnyOffset() {
        byte[] bytes = "xxSELECT c FROM t WHERE id=1 /* \u007f */yy".getBytes(StandardCharsets.US_ASCII);
        for (ClientCharset charset : ClientCharset.values()) {
            assertEquals("SELECT c FROM t WHERE id=1 /* \u007f */", charset.decode(bytes, 2, bytes.length - 4), charset.name());
            assertEquals("", charset.decode(bytes, 3, 0), charset.name());
        }
        byte[] mixed = hex("41e942");
        assertEquals("A\udce9B", ClientCharset.UTF8MB4.decode(mixed));
        assertEquals("AéB", ClientCharset.LATIN1.decode(mixed));
        assertEquals("A\udce9B", ClientCharset.BINARY.decode(mixed));
        assertEquals("\udce9B", ClientCharset.BINARY.decode(mixed, 1, 2));
    }

    @Test
    void validUtf8DecodesAsTextAndInvalidBytesAsEscapes() {
        String text = "é😀x";
        assertEquals(text, ClientCharset.UTF8MB4.decode(text.getBytes(StandardCharsets.UTF_8)));
        String s = ClientCharset.UTF8MB4.decode(hex("00ff80c3a9eda080c0af"));
        assertEquals("\u0000\udcff\udc80é\udced\udca0\udc80\udcc0\udcaf", s);
        assertArrayEquals(hex("00ff80"), ClientCharset.utf8("\u0000\udcff\udc80"));
    }

    @Test
    void latin1IsCp1252WithItsHolesAsControls() {
        assertEquals("é€\u0081", ClientCharset.LATIN1.decode(hex("e98081")));
        assertArrayEquals(hex("e98081"), ClientCharset.LATIN1.encode("é€\u0081"));
    }

    @Test
    void namesAndCollationIdsFindTheCharset() {
        assertSame(ClientCharset.UTF8MB4, ClientCharset.forCollation(45));
        assertSame(ClientCharset.UTF8MB4, ClientCharset.forCollation(255));
        assertSame(ClientCharset.UTF8MB3, ClientCharset.forCollation(33));
        assertSame(ClientCharset.LATIN1, ClientCharset.forCollation(8));
        assertSame(ClientCharset.BINARY, ClientCharset.forCollation(63));
        assertSame(ClientCharset.UTF8MB3, ClientCharset.forName("UTF8"));
        assertEquals(null, ClientCharset.forName("gbk"));
    }

    @Test
    void literalsWhoseBytesWouldNotSurviveAsTextBecomeHexWithTheirIntroducer() {
        String raw = utf8("INSERT INTO t VALUES (_binary'", hex("00ff80"), "'), ('é'), (_latin1'é')");
        assertEquals("INSERT INTO t VALUES (_binary X'00ff80'), ('é'), (_latin1'é')",
                ExplicitBytes.of(raw, LexicalMode.DEFAULT, ClientCharset.UTF8MB4));
        String plain = utf8("SELECT'a\\'", hex("ff"), "'");
        assertEquals("SELECT X'6127ff'", ExplicitBytes.of(plain, LexicalMode.DEFAULT, ClientCharset.UTF8MB4));
        String noEscapes = utf8("SELECT 'a\\", hex("ff"), "'");
        assertEquals("SELECT X'615cff'", ExplicitBytes.of(noEscapes, new LexicalMode(true, false), ClientCharset.UTF8MB4));
        String latin = ClientCharset.LATIN1.decode(hex("53454c454354205f62696e61727927e9272c2027e927"));
        assertEquals("SELECT _binary X'e9', 'é'", ExplicitBytes.of(latin, LexicalMode.DEFAULT, ClientCharset.LATIN1));
        String untouched = "SELECT 'é', _binary'abc'";
        assertSame(untouched, ExplicitBytes.of(untouched, LexicalMode.DEFAULT, ClientCharset.UTF8MB4));
    }

    /** Text parts in UTF-8 and raw byte parts, decoded as a utf8mb4 client's statement. */
    private static String utf8(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof byte[] b ? b : ((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return ClientCharset.UTF8MB4.decode(out.toByteArray());
    }
}
