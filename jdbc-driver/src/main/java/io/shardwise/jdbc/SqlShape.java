package io.shardwise.jdbc;

/**
 * The first keyword of a statement, found the way Connector/J finds it (after whitespace, comments
 * and opening parentheses), for the checks Connector/J makes before it sends anything:
 * {@code executeQuery} refuses data manipulation and {@code executeUpdate} refuses SELECT.
 */
final class SqlShape {
    private SqlShape() {}

    /** Where the first keyword starts: after whitespace, comments and opening parentheses. */
    private static int keywordStart(String sql) {
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
        return i;
    }

    private static int keywordEnd(String sql, int start) {
        int i = start;
        while (i < sql.length() && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Statements that answer with rows (Connector/J checks this before executeQuery and executeUpdate). */
    static boolean producesRows(String sql) {
        // compared in place: this runs on every execution, and the keyword need not become a string
        int start = keywordStart(sql);
        int length = keywordEnd(sql, start) - start;
        for (String keyword : ROW_KEYWORDS) {
            if (keyword.length() == length && sql.regionMatches(true, start, keyword, 0, length)) {
                return true;
            }
        }
        return false;
    }

    private static final String[] ROW_KEYWORDS = {"SELECT", "SHOW", "WITH", "EXPLAIN", "DESCRIBE", "DESC", "VALUES", "TABLE", "PREVIEW"};
}
