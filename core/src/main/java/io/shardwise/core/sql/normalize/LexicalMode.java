package io.shardwise.core.sql.normalize;

import java.util.Locale;

/**
 * The sql_mode flags that change how MySQL reads the text of a statement, and so how
 * {@link SqlLexer} must read it: with {@code NO_BACKSLASH_ESCAPES} a backslash is an ordinary
 * character inside strings ({@code 'a\'} is the string {@code a\}); with {@code ANSI_QUOTES} a
 * double-quoted run is an identifier, not a string. Reading a statement in the wrong mode moves
 * token boundaries, which turns data into SQL: the very injection a client's escaping prevents.
 *
 * <p>{@code semantic} holds the flags that keep the tokens but change what they mean, and so what
 * the analyzer must read (routing, merging, the federated tier): {@link #PIPES_AS_CONCAT},
 * {@link #HIGH_NOT_PRECEDENCE}, {@link #IGNORE_SPACE}, and the MariaDB modes Shardwise refuses
 * ({@link #ORACLE}, {@link #EMPTY_STRING_IS_NULL}). All are part of the plan cache's key. Modes that
 * change neither reading nor a plan (REAL_AS_FLOAT, NO_UNSIGNED_SUBTRACTION, ONLY_FULL_GROUP_BY,
 * strictness ...) are the backends' business and not kept here, so they share plans.
 *
 * <p>Invariant: {@link #DEFAULT} is MySQL's and MariaDB's default (no flag), and {@link #of} returns
 * that very instance whenever no flag is set (the hot path compares by identity).
 */
public record LexicalMode(boolean noBackslashEscapes, boolean ansiQuotes, int semantic) {
    /** {@code ||} is string concatenation (CONCAT), binding tighter than {@code ^}, not OR. */
    public static final int PIPES_AS_CONCAT = 1;
    /** {@code NOT} binds as {@code !} does: {@code NOT a BETWEEN b AND c} is {@code (NOT a) BETWEEN b AND c}. */
    public static final int HIGH_NOT_PRECEDENCE = 2;
    /** Spaces between a built-in function's name and its {@code (} are allowed. */
    public static final int IGNORE_SPACE = 4;
    /** MariaDB's sql_mode=ORACLE: another grammar (PL/SQL), which Shardwise does not read. */
    public static final int ORACLE = 8;
    /** MariaDB's EMPTY_STRING_IS_NULL: the literal {@code ''} is NULL. */
    public static final int EMPTY_STRING_IS_NULL = 16;

    public static final LexicalMode DEFAULT = new LexicalMode(false, false, 0);

    public LexicalMode(boolean noBackslashEscapes, boolean ansiQuotes) {
        this(noBackslashEscapes, ansiQuotes, 0);
    }

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
        int semantic = 0;
        for (String mode : sqlMode.toUpperCase(Locale.ROOT).split(",")) {
            switch (mode.strip()) {
                case "NO_BACKSLASH_ESCAPES" -> noBackslash = true;
                case "ANSI_QUOTES" -> ansi = true;
                case "PIPES_AS_CONCAT" -> semantic |= PIPES_AS_CONCAT;
                case "HIGH_NOT_PRECEDENCE" -> semantic |= HIGH_NOT_PRECEDENCE;
                case "IGNORE_SPACE" -> semantic |= IGNORE_SPACE;
                case "EMPTY_STRING_IS_NULL" -> semantic |= EMPTY_STRING_IS_NULL;
                // the combinations, for a value set by name (MySQL reports them expanded; MariaDB keeps the name too)
                case "ANSI", "DB2", "MAXDB", "MSSQL", "POSTGRESQL" -> {
                    ansi = true;
                    semantic |= PIPES_AS_CONCAT | IGNORE_SPACE;
                }
                case "ORACLE" -> {
                    ansi = true;
                    semantic |= PIPES_AS_CONCAT | IGNORE_SPACE | ORACLE;
                }
                default -> { }
            }
        }
        return noBackslash || ansi || semantic != 0 ? new LexicalMode(noBackslash, ansi, semantic) : DEFAULT;
    }

    /** Whether {@code flag} (one of the semantic flags above) is set. */
    public boolean has(int flag) {
        return (semantic & flag) != 0;
    }

    /** The names of the set semantic flags, for messages. */
    public static String name(int flag) {
        return switch (flag) {
            case PIPES_AS_CONCAT -> "PIPES_AS_CONCAT";
            case HIGH_NOT_PRECEDENCE -> "HIGH_NOT_PRECEDENCE";
            case IGNORE_SPACE -> "IGNORE_SPACE";
            case ORACLE -> "ORACLE";
            case EMPTY_STRING_IS_NULL -> "EMPTY_STRING_IS_NULL";
            default -> throw new IllegalArgumentException("flag " + flag);
        };
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
        return (noBackslashEscapes ? 1 : 0) | (ansiQuotes ? 2 : 0) | semantic << 2;
    }
}
