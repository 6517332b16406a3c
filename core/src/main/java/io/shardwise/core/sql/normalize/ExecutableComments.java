package io.shardwise.core.sql.normalize;

/**
 * Executes executable comments as the announced server does: the text of an applicable
 * {@code /*! … *}{@code /}, {@code /*!40101 … *}{@code /} or MariaDB's {@code /*M!100101 … *}{@code /}
 * becomes statement text, and one the server would skip becomes an ordinary comment. The result has
 * the very length of the input, the markers blanked to spaces ({@code /*!40101 SET NAMES utf8mb4 *}{@code /}
 * reads {@code          SET NAMES utf8mb4   }), so every offset stays where it was; and what a backend
 * receives carries no executable comment, so a backend of another version cannot decide differently.
 * A skipped comment keeps its text with its {@code !} (and {@code M}) blanked, as MariaDB itself
 * patches it ({@code sql_lex.cc}: "to avoid it being propagated").
 *
 * <p>The version rule ({@link Gate}): after the marker, 5 digits, or 6 when a sixth digit follows, are
 * the version; none means "any version". A skipped comment may hold one nested {@code /* *}{@code /}
 * (MariaDB's {@code consume_comment(lip, 1)}); inside an executed one, comments are ordinary. Strings,
 * quoted identifiers and line comments are read in the session's {@link LexicalMode}, so a
 * {@code '/*!'} inside a string is data. Text without {@code /*} costs one {@code indexOf}.
 */
public final class ExecutableComments {
    /** Whether the announced server executes a comment of this version. */
    @FunctionalInterface
    public interface Gate {
        /**
         * @param version the comment's version number, 0 when it names none
         * @param mariaDbMarker the comment is MariaDB's {@code /*M!} form
         */
        boolean executes(int version, boolean mariaDbMarker);
    }

    private final String sql;
    private final LexicalMode mode;
    private final Gate gate;
    private char[] out;

    private ExecutableComments(String sql, LexicalMode mode, Gate gate) {
        this.sql = sql;
        this.mode = mode;
        this.gate = gate;
    }

    /** {@code sql} with its executable comments executed or skipped; {@code sql} itself when it has none. */
    public static String expand(String sql, LexicalMode mode, Gate gate) {
        int first = sql.indexOf("/*");
        if (first < 0 || !hasMarker(sql, first)) {
            return sql;
        }
        return new ExecutableComments(sql, mode, gate).run();
    }

    private static boolean hasMarker(String sql, int from) {
        for (int p = from; p >= 0; p = sql.indexOf("/*", p + 2)) {
            if (isMarker(sql, p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean isMarker(String sql, int p) {
        return at(sql, p + 2) == '!' || (at(sql, p + 2) == 'M' && at(sql, p + 3) == '!');
    }

    private String run() {
        int n = sql.length();
        boolean inside = false; // within an executed comment, whose "*/" ends it
        int p = 0;
        while (p < n) {
            char c = sql.charAt(p);
            char c1 = at(sql, p + 1);
            if (c == '\'' || c == '`' || c == '"') {
                p = endOfQuoted(p, c);
            } else if (c == '#' || (c == '-' && c1 == '-' && at(sql, p + 2) <= ' ')) {
                int eol = sql.indexOf('\n', p);
                p = eol < 0 ? n : eol + 1;
            } else if (inside && c == '*' && c1 == '/') {
                blank(p, p + 2);
                inside = false;
                p += 2;
            } else if (c == '/' && c1 == '*') {
                if (!inside && isMarker(sql, p)) {
                    boolean maria = sql.charAt(p + 2) == 'M';
                    int digits = maria ? p + 4 : p + 3;
                    int length = versionLength(digits);
                    int version = length == 0 ? 0 : Integer.parseInt(sql, digits, digits + length, 10);
                    if (gate.executes(version, maria)) {
                        blank(p, digits + length);
                        inside = true;
                        p = digits + length;
                        continue;
                    }
                    blank(p + 2, digits); // "/*!" → "/* ": an ordinary comment from here on
                    p = endOfComment(p, 1);
                } else {
                    if (isMarker(sql, p)) {
                        blank(p + 2, sql.charAt(p + 2) == 'M' ? p + 4 : p + 3); // nested: MariaDB would not run it either
                    }
                    p = endOfComment(p, 0);
                }
            } else {
                p++;
            }
            if (p < 0) {
                return sql; // unterminated: the lexer reports it on the text as sent
            }
        }
        return out == null ? sql : new String(out);
    }

    /** 5 digits, or 6 when a sixth follows (MariaDB's 100101 = 10.1.1); 0 when fewer than 5. */
    private int versionLength(int from) {
        for (int i = 0; i < 5; i++) {
            if (!SqlLexer.isDigit(at(sql, from + i))) {
                return 0;
            }
        }
        return SqlLexer.isDigit(at(sql, from + 5)) ? 6 : 5;
    }

    /** After the {@code *}{@code /} closing the comment opened at {@code open}, {@code nesting} inner comments allowed; -1 if none. */
    private int endOfComment(int open, int nesting) {
        int depth = 0;
        for (int p = open + 2; p + 1 < sql.length(); p++) {
            char c = sql.charAt(p);
            if (c == '*' && sql.charAt(p + 1) == '/') {
                if (depth == 0) {
                    return p + 2;
                }
                depth--;
                p++;
            } else if (c == '/' && sql.charAt(p + 1) == '*' && depth < nesting) {
                depth++;
                p++;
            }
        }
        return -1;
    }

    /** After the closing quote of the run opened at {@code open}; -1 if unterminated. */
    private int endOfQuoted(int open, char quote) {
        boolean escapes = mode.backslashEscapes() && quote != '`' && !(quote == '"' && mode.ansiQuotes());
        for (int p = open + 1; p < sql.length(); p++) {
            char c = sql.charAt(p);
            if (c == '\\' && escapes) {
                p++;
            } else if (c == quote) {
                return p + 1; // a doubled quote reads as a closed run and a new one: the same end
            }
        }
        return -1;
    }

    private void blank(int from, int to) {
        if (out == null) {
            out = sql.toCharArray();
        }
        for (int i = from; i < to; i++) {
            out[i] = ' ';
        }
    }

    private static char at(String s, int p) {
        return p < s.length() ? s.charAt(p) : '\0';
    }
}
