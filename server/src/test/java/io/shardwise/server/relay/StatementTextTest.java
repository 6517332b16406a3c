package io.shardwise.server.relay;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardwise.core.sql.normalize.ClientCharset;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Differential: the text written in place is byte for byte what {@link ClientCharset#utf8} makes of it. */
class StatementTextTest {
    private static void assertSameBytes(String text) {
        byte[] expected = ClientCharset.utf8(text);
        ByteBuf out = Unpooled.buffer();
        try {
            StatementText.write(out, text);
            assertEquals(expected.length, StatementText.length(text), text);
            assertArrayEquals(expected, ByteBufUtil.getBytes(out), text);
        } finally {
            out.release();
        }
    }

    @Test
    void writesWhatClientCharsetEncodes() {
        for (String text : List.of("", "SELECT c FROM sbtest1 WHERE id=42", "SELECT 'é€😀' AS x",
                "SELECT _binary'\udcff\udc80\udc00' /* escaped bytes go back as they came */",
                "lone \ud800 high, lone \udc00 low, reversed \udc00\ud800, pair at the end \ud83d\ude00",
                "\u007f\u0080\u07ff\u0800\uffff", "ends with a high surrogate \ud83d")) {
            assertSameBytes(text);
        }
    }

    @Test
    void randomTextsAndBytesDecodedInEveryCharsetWriteAlike() {
        Random random = new Random(15);
        for (int n = 0; n < 5000; n++) {
            char[] chars = new char[random.nextInt(10)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = switch (random.nextInt(4)) {
                    case 0 -> (char) random.nextInt(0x80);
                    case 1 -> (char) (0xD800 + random.nextInt(0x800)); // surrogates, escaped bytes among them
                    default -> (char) random.nextInt(0x10000);
                };
            }
            assertSameBytes(new String(chars));
            byte[] bytes = new byte[random.nextInt(10)];
            random.nextBytes(bytes);
            for (ClientCharset charset : ClientCharset.values()) {
                assertSameBytes(charset.decode(bytes));
            }
        }
    }
}
