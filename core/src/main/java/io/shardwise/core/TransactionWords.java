package io.shardwise.core;

import java.util.Locale;

/**
 * The plain forms of a transaction's own statements, read without the lexer so that a face's event
 * loop can tell them cheaply from the statements it relays: {@code BEGIN [WORK]}, {@code START
 * TRANSACTION [characteristics]}, {@code COMMIT [WORK]}, {@code ROLLBACK [WORK]}, in any case and
 * spacing; and {@code SET autocommit} to a literal ({@link #AUTOCOMMIT}). Anything else — comments,
 * a {@code ;}, {@code AND CHAIN}, {@code RELEASE} — is null: the session's own path reads it. Savepoint
 * statements are read apart ({@link #savepoint}).
 */
final class TransactionWords {
    enum Kind { BEGIN, COMMIT, ROLLBACK, AUTOCOMMIT_ON, AUTOCOMMIT_OFF, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT }

    /** A savepoint statement ({@link #savepoint}): its kind and the savepoint's name, unquoted. */
    record Savepoint(Kind kind, String name) {}

    /**
     * {@code SAVEPOINT name}, {@code ROLLBACK [WORK] TO [SAVEPOINT] name}, {@code RELEASE SAVEPOINT name}, alone,
     * the name a plain identifier (ASCII letters, digits, {@code _}, {@code $}; not all digits) or back-quoted.
     * Other spellings (comments, {@code ;}, double quotes, other characters) are the session's to read: its
     * reading of these plain ones gives the same name (SessionCommands.savepointName / lastWord).
     */
    private static final java.util.regex.Pattern SAVEPOINT = java.util.regex.Pattern.compile(
            "\\s*(?:(savepoint)|(rollback)(?:\\s+work)?\\s+to(?:\\s+savepoint)?|(release)\\s+savepoint)"
                    + "\\s+(?:`((?:[^`]|``)+)`|([a-z0-9_$]*[a-z_$][a-z0-9_$]*))\\s*",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Longer than any savepoint statement the loop reads: a 64-character name back-quoted, every quote doubled, after the longest verb. */
    private static final int LONGEST_SAVEPOINT = 200;

    /**
     * {@code SET [SESSION | LOCAL | @@ | @@SESSION. | @@LOCAL.]autocommit = 0 | 1 | ON | OFF | TRUE | FALSE},
     * alone: the switch Connector/J's setAutoCommit and ORMs send (a string value, several assignments,
     * {@code GLOBAL}, an expression are left to the session).
     */
    private static final java.util.regex.Pattern AUTOCOMMIT = java.util.regex.Pattern.compile(
            "\\s*set\\s+(?:(?:session|local)\\s+|@@(?:session\\.|local\\.)?)?autocommit\\s*(?::=|=)\\s*(0|1|on|off|true|false)\\s*",
            java.util.regex.Pattern.CASE_INSENSITIVE);

    /** Longer than any plain form ({@code START TRANSACTION READ WRITE, WITH CONSISTENT SNAPSHOT} is 52). */
    private static final int LONGEST = 64;

    private TransactionWords() {}

    static Kind of(String sql) {
        int n = sql.length();
        if (n > LONGEST || n < 5) {
            return null;
        }
        int from = firstNonSpace(sql);
        if (startsWith(sql, from, "set")) {
            return autocommit(sql);
        }
        if (!startsWith(sql, from, "begin") && !startsWith(sql, from, "start") && !startsWith(sql, from, "commit")
                && !startsWith(sql, from, "rollback")) {
            return null; // every statement the relay runs ends here, without allocating
        }
        StringBuilder words = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                if (!words.isEmpty() && words.charAt(words.length() - 1) != ' ') {
                    words.append(' ');
                }
            } else if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == ',') {
                words.append(c);
            } else {
                return null;
            }
        }
        String text = words.toString().strip().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "begin", "begin work" -> Kind.BEGIN;
            case "commit", "commit work" -> Kind.COMMIT;
            case "rollback", "rollback work" -> Kind.ROLLBACK;
            default -> text.equals("start transaction") || text.startsWith("start transaction ") ? Kind.BEGIN : null;
        };
    }

    /** The savepoint statement {@code sql} is, or null ({@link #SAVEPOINT}); allocates nothing for other statements. */
    static Savepoint savepoint(String sql) {
        int n = sql.length();
        if (n > LONGEST_SAVEPOINT || n < 11) {
            return null;
        }
        int from = firstNonSpace(sql);
        if (!startsWith(sql, from, "savepoint") && !startsWith(sql, from, "rollback") && !startsWith(sql, from, "release")) {
            return null;
        }
        java.util.regex.Matcher m = SAVEPOINT.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        Kind kind = m.group(1) != null ? Kind.SAVEPOINT : m.group(2) != null ? Kind.ROLLBACK_TO_SAVEPOINT : Kind.RELEASE_SAVEPOINT;
        String name = m.group(4) != null ? m.group(4).replace("``", "`") : m.group(5);
        return new Savepoint(kind, name);
    }

    private static Kind autocommit(String sql) {
        java.util.regex.Matcher m = AUTOCOMMIT.matcher(sql);
        if (!m.matches()) {
            return null;
        }
        return switch (m.group(1).toLowerCase(Locale.ROOT)) {
            case "1", "on", "true" -> Kind.AUTOCOMMIT_ON;
            default -> Kind.AUTOCOMMIT_OFF;
        };
    }

    private static int firstNonSpace(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean startsWith(String sql, int from, String word) {
        return sql.regionMatches(true, from, word, 0, word.length());
    }
}
