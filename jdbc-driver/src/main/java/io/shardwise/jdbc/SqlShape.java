package io.shardwise.jdbc;

import java.util.Locale;

/**
 * The first keyword of a statement, found the way Connector/J finds it (after whitespace, comments
 * and opening parentheses), for the checks Connector/J makes before it sends anything:
 * {@code executeQuery} refuses data manipulation and {@code executeUpdate} refuses SELECT.
 */
final class SqlShape {
    private SqlShape() {}

    static String firstKeyword(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '#' || (c == '-' && sql.startsWith("-- ", i))) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }

    /** Statements that answer with rows (Connector/J checks this before executeQuery and executeUpdate). */
    static boolean producesRows(String sql) {
        return switch (firstKeyword(sql)) {
            case "SELECT", "SHOW", "WITH", "EXPLAIN", "DESCRIBE", "DESC", "VALUES", "TABLE", "PREVIEW" -> true;
            default -> false;
        };
    }
}
