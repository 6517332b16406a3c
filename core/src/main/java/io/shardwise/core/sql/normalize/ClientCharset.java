package io.shardwise.core.sql.normalize;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The character set a client's statement text arrives in ({@code character_set_client}), with a
 * <em>lossless</em> decoding: a statement is bytes, and a {@code _binary'…'} literal or a raw byte
 * inside a string must reach the backend exactly as sent. Bytes the character set cannot decode
 * become the lone surrogates U+DC80..U+DCFF (one per byte, as Python's surrogateescape does), which
 * valid text never contains, so {@link #encode} gives back the very bytes {@link #decode} read.
 *
 * <p>Covers the character sets clients connect with: utf8mb4, utf8mb3 (utf8), latin1 and binary;
 * for another, callers keep utf8mb4, which is still lossless but reads non-UTF-8 characters as
 * escaped bytes.
 */
public enum ClientCharset {
    UTF8MB4("utf8mb4"),
    UTF8MB3("utf8mb3"),
    /** MySQL's latin1 is cp1252 whose five undefined bytes stand for the C1 controls of the same value. */
    LATIN1("latin1"),
    /** Every byte is itself: ASCII reads as text, the rest as escaped bytes. */
    BINARY("binary");

    private static final char ESCAPE_BASE = 0xDC00;
    private static final char[] CP1252 = cp1252();

    private final String sqlName;

    ClientCharset(String sqlName) {
        this.sqlName = sqlName;
    }

    /** The name MySQL gives it, as an introducer takes it ({@code _utf8mb4}). */
    public String sqlName() {
        return sqlName;
    }

    public boolean isUtf8() {
        return this == UTF8MB4 || this == UTF8MB3;
    }

    /** The character set of a {@code SET NAMES} or {@code character_set_client} name, or null when not one of these. */
    public static ClientCharset forName(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "utf8mb4" -> UTF8MB4;
            case "utf8", "utf8mb3" -> UTF8MB3;
            case "latin1" -> LATIN1;
            case "binary" -> BINARY;
            default -> null;
        };
    }

    /** The character set of a handshake collation id, or null when not one of these. */
    public static ClientCharset forCollation(int id) {
        if (id == 45 || id == 46 || (id >= 224 && id <= 247) || (id >= 255 && id <= 323)) {
            return UTF8MB4;
        }
        if (id == 33 || id == 83 || (id >= 192 && id <= 215) || id == 223) {
            return UTF8MB3;
        }
        return switch (id) {
            case 5, 8, 15, 31, 47, 48, 49, 94 -> LATIN1;
            case 63 -> BINARY;
            default -> null;
        };
    }

    /** Whether {@code c} stands for one undecodable byte. */
    public static boolean isEscapedByte(char c) {
        return c >= 0xDC80 && c <= 0xDCFF;
    }

    public String decode(byte[] bytes) {
        return decode(bytes, 0, bytes.length);
    }

    public String decode(byte[] bytes, int offset, int length) {
        int end = offset + length;
        if (ascii(bytes, offset, end)) {
            // every character set here reads ASCII as itself: one copy into the String, no builder
            return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
        }
        StringBuilder out = new StringBuilder(length);
        switch (this) {
            case UTF8MB4, UTF8MB3 -> {
                for (int i = offset; i < end; ) {
                    i = utf8(bytes, i, end, out);
                }
            }
            case LATIN1 -> {
                for (int i = offset; i < end; i++) {
                    out.append(CP1252[bytes[i] & 0xFF]);
                }
            }
            case BINARY -> {
                for (int i = offset; i < end; i++) {
                    int b = bytes[i] & 0xFF;
                    out.append(b < 0x80 ? (char) b : (char) (ESCAPE_BASE | b));
                }
            }
        }
        return out.toString();
    }

    private static boolean ascii(byte[] bytes, int offset, int end) {
        for (int i = offset; i < end; i++) {
            if (bytes[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** The bytes {@link #decode} read; a character this set cannot hold becomes {@code ?}, as MySQL converts it. */
    public byte[] encode(CharSequence text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (isEscapedByte(c)) { // a pair's low surrogate never gets here: its high one consumed it
                out.write(c & 0xFF);
            } else if (this == LATIN1) {
                out.write(latin1(c));
            } else if (this == BINARY || c < 0x80) {
                out.write(c < 0x80 ? c : '?');
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                writeUtf8(out, Character.toCodePoint(c, text.charAt(++i)));
            } else {
                writeUtf8(out, Character.isSurrogate(c) ? '?' : c);
            }
        }
        return out.toByteArray();
    }

    /**
     * A prepared statement's text parameter: its String when the bytes are text in this character
     * set, else the bytes themselves (bound as bytes, so they reach the backend exactly).
     */
    public Object parameter(byte[] bytes) {
        String text = decode(bytes);
        for (int i = 0; i < text.length(); i++) {
            if (isEscapedByte(text.charAt(i))) {
                return bytes;
            }
        }
        return text;
    }

    /** UTF-8 of {@code text}, escaped bytes written as themselves (what a backend on utf8mb4 must receive). */
    public static byte[] utf8(CharSequence text) {
        return UTF8MB4.encode(text);
    }

    /** Decodes one well-formed UTF-8 sequence at {@code i} (no overlong forms, no surrogates) or escapes one byte. */
    private static int utf8(byte[] b, int i, int end, StringBuilder out) {
        int b0 = b[i] & 0xFF;
        if (b0 < 0x80) {
            out.append((char) b0);
            return i + 1;
        }
        int n = b0 >= 0xC2 && b0 <= 0xDF ? 1 : b0 >= 0xE0 && b0 <= 0xEF ? 2 : b0 >= 0xF0 && b0 <= 0xF4 ? 3 : -1;
        if (n > 0 && i + n < end) {
            int cp = b0 & (0x3F >> n);
            boolean ok = true;
            for (int k = 1; k <= n && ok; k++) {
                int bk = b[i + k] & 0xFF;
                ok = (bk & 0xC0) == 0x80;
                cp = cp << 6 | (bk & 0x3F);
            }
            boolean shortest = n == 1 || (n == 2 ? cp >= 0x800 : cp >= 0x10000);
            if (ok && shortest && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF)) {
                out.appendCodePoint(cp);
                return i + n + 1;
            }
        }
        out.append((char) (ESCAPE_BASE | b0));
        return i + 1;
    }

    private static void writeUtf8(ByteArrayOutputStream out, int cp) {
        if (cp < 0x80) {
            out.write(cp);
        } else if (cp < 0x800) {
            out.write(0xC0 | cp >> 6);
            out.write(0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            out.write(0xE0 | cp >> 12);
            out.write(0x80 | cp >> 6 & 0x3F);
            out.write(0x80 | cp & 0x3F);
        } else {
            out.write(0xF0 | cp >> 18);
            out.write(0x80 | cp >> 12 & 0x3F);
            out.write(0x80 | cp >> 6 & 0x3F);
            out.write(0x80 | cp & 0x3F);
        }
    }

    private static int latin1(char c) {
        if (c < 0x80 || (c >= 0xA0 && c <= 0xFF)) {
            return c;
        }
        for (int b = 0x80; b < 0xA0; b++) {
            if (CP1252[b] == c) {
                return b;
            }
        }
        return '?';
    }

    private static char[] cp1252() {
        char[] table = new char[256];
        Charset cp = Charset.forName("windows-1252");
        for (int b = 0; b < 256; b++) {
            String s = cp.decode(ByteBuffer.wrap(new byte[] {(byte) b})).toString();
            table[b] = s.length() == 1 && s.charAt(0) != '\uFFFD' ? s.charAt(0) : (char) b;
        }
        return table;
    }
}
