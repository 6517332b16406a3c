package io.shardwise.core.sql.normalize;

import java.util.Locale;

/**
 * Rewrites the string literals of a client's statement whose bytes would not survive the trip to
 * a backend as text into hex literals that carry those bytes exactly: {@code _binary'<00 FF 80>'}
 * becomes {@code _binary X'00FF80'}. The JDBC executor hands SQL to Connector/J as a Java string,
 * which it encodes in UTF-8, so a literal survives only when the client's bytes for it are its
 * UTF-8 bytes. Two kinds do not: a literal holding bytes the client's character set cannot decode
 * ({@link ClientCharset} escaped them), and one whose introducer names another character set than
 * UTF-8 while the client does not speak UTF-8 ({@code _binary'é'} from a latin1 client is the byte
 * E9, not C3 A9). A plain literal of a latin1 client needs nothing: its characters are its meaning,
 * and the backend reads them in utf8mb4 alike.
 *
 * <p>The rewritten literal keeps its introducer ({@code _latin1 X'E9'} is still latin1 text). A
 * plain one becomes a plain {@code X'61FF'}: bytes that are no text in the client's character set
 * are stored as they came into a binary column, as MySQL stores such a literal, where
 * {@code _utf8mb4 X'61FF'} would fail with 1300 (one difference remains: the result column of
 * such a literal is binary rather than the connection's character set). Costs one scan of the
 * text when nothing needs rewriting.
 */
public final class ExplicitBytes {
    private ExplicitBytes() {}

    /** {@code sql} with each such literal in hex; {@code sql} itself when none needs it. */
    public static String of(String sql, LexicalMode mode, ClientCharset charset) {
        if (!mayNeed(sql, charset)) {
            return sql;
        }
        SqlLexer lexer = new SqlLexer(sql, mode);
        StringBuilder out = null;
        int copied = 0;
        try {
            for (TokenKind kind = lexer.next(); kind != TokenKind.EOF; kind = lexer.next()) {
                if (kind != TokenKind.STRING) {
                    continue;
                }
                String hex = hex(sql, lexer.start(), lexer.end(), mode, charset);
                if (hex != null) {
                    if (out == null) {
                        out = new StringBuilder(sql.length() + 32);
                    }
                    out.append(sql, copied, lexer.start());
                    if (lexer.start() > 0 && SqlLexer.isIdentChar(sql.charAt(lexer.start() - 1))) {
                        out.append(' '); // SELECT'x' must not become SELECTX'78'
                    }
                    out.append(hex);
                    copied = lexer.end();
                }
            }
        } catch (RuntimeException unlexable) {
            return sql; // the engine reports the syntax error on the text as sent
        }
        return out == null ? sql : out.append(sql, copied, sql.length()).toString();
    }

    private static boolean mayNeed(String sql, ClientCharset charset) {
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (ClientCharset.isEscapedByte(c) || (c >= 0x80 && !charset.isUtf8())) {
                return true;
            }
        }
        return false;
    }

    /** The hex form of the string token at {@code [start, end)}, or null when it survives as it is. */
    private static String hex(String sql, int start, int end, LexicalMode mode, ClientCharset charset) {
        int p = start;
        String introducer = null;
        if (sql.charAt(p) == '_') {
            int wordEnd = p + 1;
            while (SqlLexer.isIdentChar(sql.charAt(wordEnd))) {
                wordEnd++;
            }
            introducer = sql.substring(p + 1, wordEnd).toLowerCase(Locale.ROOT);
            p = SqlLexer.skipTrivia(sql, wordEnd);
        } else if (sql.charAt(p) == 'n' || sql.charAt(p) == 'N') {
            introducer = "utf8mb3"; // the national character set
            p++;
        }
        StringBuilder text = new StringBuilder(end - p);
        while (p < end) {
            p = LiteralDecoder.unquote(sql, p, text, mode.backslashEscapes());
            p = SqlLexer.skipTrivia(sql, p);
        }
        boolean escaped = false;
        boolean nonAscii = false;
        for (int i = 0; i < text.length(); i++) {
            escaped |= ClientCharset.isEscapedByte(text.charAt(i));
            nonAscii |= text.charAt(i) >= 0x80;
        }
        boolean differs = escaped || (introducer != null && nonAscii && !charset.isUtf8());
        if (!differs) {
            return null;
        }
        byte[] bytes = charset.encode(text);
        StringBuilder out = new StringBuilder(2 * bytes.length + 20);
        if (introducer != null) {
            out.append('_').append(introducer).append(' ');
        }
        out.append("X'");
        for (byte b : bytes) {
            out.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return out.append('\'').toString();
    }
}
