package io.shardwise.core;

import java.util.Locale;

/**
 * The plain forms of a transaction's own statements, read without the lexer so that a face's event
 * loop can tell them cheaply from the statements it relays: {@code BEGIN [WORK]}, {@code START
 * TRANSACTION [characteristics]}, {@code COMMIT [WORK]}, {@code ROLLBACK [WORK]}, in any case and
 * spacing. Anything else — comments, a {@code ;}, {@code AND CHAIN}, {@code RELEASE}, savepoints — is
 * null: the session's own path reads it.
 */
final class TransactionWords {
    enum Kind { BEGIN, COMMIT, ROLLBACK }

    /** Longer than any plain form ({@code START TRANSACTION READ WRITE, WITH CONSISTENT SNAPSHOT} is 52). */
    private static final int LONGEST = 64;

    private TransactionWords() {}

    static Kind of(String sql) {
        int n = sql.length();
        if (n > LONGEST || n < 5) {
            return null;
        }
        int from = firstNonSpace(sql);
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
