package io.shardwise.it.oracle;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One statement of the oracle corpus.
 *
 * @param category the feature it exercises, for the per-category counts
 * @param sql the statement; with {@code ?} markers when {@code params} is not null
 * @param params values of a prepared statement (null elements are SQL NULL), or null for a text statement
 * @param mustFail the direct side must fail (an error case): success there is a corpus bug
 * @param collationEquivalent cells compare under a general_ci-like folding: for DISTINCT, GROUP BY and
 *     MIN/MAX over strings, where MySQL returns any one of several values equal under the collation
 *     ({@code 'paid'} or {@code 'Paid'}) and the choice depends on row order
 * @param otherMessage null when an error's message must read exactly as the unsharded database's;
 *     else why the wording may differ (errno and SQLSTATE are still compared)
 */
record OracleCase(String category, String sql, List<Object> params, boolean mustFail, boolean collationEquivalent,
                  String otherMessage) {
    OracleCase {
        Objects.requireNonNull(category, "category");
        Objects.requireNonNull(sql, "sql");
        params = params == null ? null : Collections.unmodifiableList(new ArrayList<>(params));
    }

    OracleCase(String category, String sql, List<Object> params, boolean mustFail, boolean collationEquivalent) {
        this(category, sql, params, mustFail, collationEquivalent, null);
    }

    boolean prepared() {
        return params != null;
    }

    /** Rows compare in order only when the outermost statement sorts them. */
    boolean ordered() {
        return hasTopLevelOrderBy(sql);
    }

    @Override
    public String toString() {
        return prepared() ? sql + "  -- params " + params : sql;
    }

    /**
     * Whether {@code ORDER BY} occurs outside parentheses, quotes and comments. A sort inside a
     * subquery or an aggregate does not order the result.
     */
    static boolean hasTopLevelOrderBy(String sql) {
        String s = sql.toLowerCase(Locale.ROOT);
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'', '"', '`' -> i = skipQuoted(s, i, c);
                case '(' -> depth++;
                case ')' -> depth--;
                default -> {
                    if (depth == 0 && s.startsWith("order", i) && (i == 0 || !Character.isLetterOrDigit(s.charAt(i - 1)))) {
                        int j = i + 5;
                        while (j < s.length() && Character.isWhitespace(s.charAt(j))) {
                            j++;
                        }
                        if (j > i + 5 && s.startsWith("by", j)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    private static int skipQuoted(String s, int open, char quote) {
        for (int i = open + 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && quote != '`') {
                i++;
            } else if (c == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    i++;
                } else {
                    return i;
                }
            }
        }
        return s.length();
    }
}
