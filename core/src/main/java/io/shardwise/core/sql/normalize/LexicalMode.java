package io.shardwise.core.sql.normalize;

import java.util.Locale;

/**
 * The two sql_mode flags that change how MySQL reads the text of a statement, and so how
 * {@link SqlLexer} must read it: with {@code NO_BACKSLASH_ESCAPES} a backslash is an ordinary
 * character inside strings ({@code 'a\'} is the string {@code a\}); with {@code ANSI_QUOTES} a
 * double-quoted run is an identifier, not a string. Reading a statement in the wrong mode moves
 * token boundaries, which turns data into SQL: the very injection a client's escaping prevents.
 *
 * <p>Invariant: {@link #DEFAULT} is MySQL's and MariaDB's default (neither flag).
 */
public record LexicalMode(boolean noBackslashEscapes, boolean ansiQuotes) {
    public static final LexicalMode DEFAULT = new LexicalMode(false, false);

    /**
     * The mode of a sql_mode value as MySQL reports it ({@code @@sql_mode}, combination modes
     * expanded); the combination names that include ANSI_QUOTES count too, for a value set by name.
     */
    public static LexicalMode of(String sqlMode) {
        if (sqlMode == null || sqlMode.isEmpty()) {
            return DEFAULT;
        }
        boolean noBackslash = false;
        boolean ansi = false;
        for (String mode : sqlMode.toUpperCase(Locale.ROOT).split(",")) {
            switch (mode.strip()) {
                case "NO_BACKSLASH_ESCAPES" -> noBackslash = true;
                case "ANSI_QUOTES", "ANSI", "DB2", "MAXDB", "MSSQL", "ORACLE", "POSTGRESQL" -> ansi = true;
                default -> { }
            }
        }
        return noBackslash || ansi ? new LexicalMode(noBackslash, ansi) : DEFAULT;
    }

    public boolean backslashEscapes() {
        return !noBackslashEscapes;
    }

    /** {@code text} as a single-quoted string literal that reads back as {@code text} in this mode. */
    public String quote(String text) {
        String doubled = text.replace("'", "''");
        return "'" + (noBackslashEscapes ? doubled : doubled.replace("\\", "\\\\")) + "'";
    }

    /** A small number for keys (plan cache): distinct per mode. */
    int ordinal() {
        return (noBackslashEscapes ? 1 : 0) | (ansiQuotes ? 2 : 0);
    }
}
