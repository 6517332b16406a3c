package io.shardwise.core.sql.normalize;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;

/**
 * Turns a literal's span (as {@link SqlLexer} delimited it) into its Java value. The span is
 * already known to be well formed, so decoding cannot fail. Strings decode MySQL's backslash
 * escapes unless the {@link LexicalMode} has NO_BACKSLASH_ESCAPES; {@code \%} and {@code \_} keep
 * their backslash (they stay LIKE escapes). Text sent
 * with the {@code _binary} introducer becomes UTF-8 bytes: the client character set is assumed to
 * be utf8mb4.
 */
final class LiteralDecoder {
    private LiteralDecoder() {}

    static Object decode(LiteralKind kind, String sql, int start, int end, LexicalMode mode) {
        return switch (kind) {
            case INTEGER -> integer(sql, start, end);
            case DECIMAL -> {
                BigDecimal d = new BigDecimal(sql.substring(numberStart(sql, start), end));
                yield sql.charAt(start) == '-' ? d.negate() : d;
            }
            case DOUBLE -> {
                double d = Double.parseDouble(sql.substring(numberStart(sql, start), end));
                yield sql.charAt(start) == '-' ? -d : d;
            }
            case STRING -> string(sql, start, end, mode);
            case HEX, BIT -> binary(kind, sql, start, end);
            case DATE -> typed(kind, sql, start, end, mode);
            case TIME -> typed(kind, sql, start, end, mode);
            case TIMESTAMP -> typed(kind, sql, start, end, mode);
            case PARAMETER -> null;
        };
    }

    private static Object integer(String sql, int start, int end) {
        boolean negative = sql.charAt(start) == '-';
        int digits = numberStart(sql, start);
        if (end - digits <= 18) {
            long v = 0;
            for (int i = digits; i < end; i++) {
                v = v * 10 + (sql.charAt(i) - '0');
            }
            return negative ? -v : v;
        }
        BigInteger big = new BigInteger(sql.substring(digits, end));
        if (negative) {
            big = big.negate();
        }
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    /** Past a folded minus and any whitespace or comment after it. */
    private static int numberStart(String sql, int start) {
        return sql.charAt(start) == '-' ? SqlLexer.skipTrivia(sql, start + 1) : start;
    }

    private static Object string(String sql, int start, int end, LexicalMode mode) {
        int p = start;
        String charset = null;
        if (sql.charAt(p) == '_') {
            int wordEnd = p + 1;
            while (SqlLexer.isIdentChar(sql.charAt(wordEnd))) {
                wordEnd++;
            }
            charset = sql.substring(p + 1, wordEnd);
            p = SqlLexer.skipTrivia(sql, wordEnd);
        } else if (sql.charAt(p) == 'n' || sql.charAt(p) == 'N') {
            p++;
        }
        StringBuilder text = new StringBuilder(end - p);
        while (p < end) {
            p = unquote(sql, p, text, mode.backslashEscapes());
            p = SqlLexer.skipTrivia(sql, p);
        }
        return "binary".equalsIgnoreCase(charset) ? text.toString().getBytes(StandardCharsets.UTF_8) : text.toString();
    }

    /** Appends the decoded content of the quoted string opening at {@code open}; returns its end. */
    static int unquote(String sql, int open, StringBuilder out, boolean backslashEscapes) {
        char quote = sql.charAt(open);
        for (int p = open + 1; ; p++) {
            char c = sql.charAt(p);
            if (c == '\\' && backslashEscapes) {
                char e = sql.charAt(++p);
                switch (e) {
                    case '0' -> out.append('\0');
                    case 'b' -> out.append('\b');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'Z' -> out.append('\u001A');
                    case '%', '_' -> out.append('\\').append(e);
                    default -> out.append(e);
                }
            } else if (c == quote) {
                if (p + 1 < sql.length() && sql.charAt(p + 1) == quote) {
                    out.append(quote);
                    p++;
                } else {
                    return p + 1;
                }
            } else {
                out.append(c);
            }
        }
    }

    private static Object binary(LiteralKind kind, String sql, int start, int end) {
        int p = start;
        String charset = null;
        if (sql.charAt(p) == '_') {
            int wordEnd = p + 1;
            while (SqlLexer.isIdentChar(sql.charAt(wordEnd))) {
                wordEnd++;
            }
            charset = sql.substring(p + 1, wordEnd).toLowerCase(java.util.Locale.ROOT);
            p = SqlLexer.skipTrivia(sql, wordEnd);
        }
        // X'1F' / b'101' or 0x1F / 0b101
        String digits = sql.charAt(p + 1) == '\'' ? sql.substring(p + 2, end - 1) : sql.substring(p + 2, end);
        byte[] bytes = kind == LiteralKind.HEX ? hexBytes(digits) : bitBytes(digits);
        if (charset == null || charset.equals("binary")) {
            return bytes;
        }
        Charset cs = charset.startsWith("utf8") || charset.equals("ascii") ? StandardCharsets.UTF_8
                : charset.equals("latin1") ? Charset.forName("windows-1252") : null;
        return cs == null ? bytes : new String(bytes, cs);
    }

    /** 0xF is 0x0F: MySQL pads an odd count of 0x digits on the left. */
    private static byte[] hexBytes(String digits) {
        String even = digits.length() % 2 == 0 ? digits : "0" + digits;
        byte[] bytes = new byte[even.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) Integer.parseInt(even, 2 * i, 2 * i + 2, 16);
        }
        return bytes;
    }

    private static byte[] bitBytes(String digits) {
        byte[] bytes = new byte[(digits.length() + 7) / 8];
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(digits.length() - 1 - i) == '1') {
                bytes[bytes.length - 1 - i / 8] |= (byte) (1 << (i % 8));
            }
        }
        return bytes;
    }

    private static Object typed(LiteralKind kind, String sql, int start, int end, LexicalMode mode) {
        int p = start;
        while (SqlLexer.isIdentChar(sql.charAt(p))) {
            p++;
        }
        StringBuilder out = new StringBuilder(end - p);
        unquote(sql, SqlLexer.skipTrivia(sql, p), out, mode.backslashEscapes());
        String text = out.toString();
        try {
            return switch (kind) {
                case DATE -> LocalDate.parse(text);
                case TIME -> LocalTime.parse(text);
                case TIMESTAMP -> LocalDateTime.parse(text.indexOf('T') < 0 ? text.replace(' ', 'T') : text);
                default -> text;
            };
        } catch (DateTimeParseException e) {
            // MySQL accepts more spellings ('2024-1-5', '838:59:59'); the backend interprets those
            return text;
        }
    }
}
