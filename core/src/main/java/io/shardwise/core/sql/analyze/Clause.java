package io.shardwise.core.sql.analyze;

/**
 * A span of the top-level query a scatter route may replace (LIMIT, HAVING, ORDER BY), or a point
 * where it may insert (hidden columns after the select list, an ORDER BY before LIMIT). Clauses may
 * contain slots; a replaced clause drops the slots inside it.
 */
public record Clause(Kind kind, int start, int end) {
    public enum Kind {
        /** Insertion point: the end of the top-level select list. */
        SELECT_LIST_END,
        /** The top-level {@code limit ...}. */
        LIMIT,
        /** The top-level GROUP BY list (after the keywords, without WITH ROLLUP). */
        GROUP_BY,
        /** Insertion point for a GROUP BY: after WHERE, before HAVING, ORDER BY, LIMIT and locking clauses. */
        GROUP_BY_POINT,
        /** The top-level {@code having ...}. */
        HAVING,
        /** The top-level {@code order by ...}. */
        ORDER_BY,
        /** Insertion point for an ORDER BY: after GROUP BY/HAVING, before LIMIT and locking clauses. */
        ORDER_BY_POINT,
        /** The top-level {@code with rollup} after the GROUP BY list. */
        ROLLUP
    }

    public Clause {
        if (start < 0 || end < start) {
            throw new IllegalArgumentException(kind + " " + start + ".." + end);
        }
    }
}
