package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * What merging a scatter needs to know of the top-level select: its items (with their aggregate,
 * if an item is exactly one aggregate call), DISTINCT, GROUP BY, HAVING, ORDER BY and LIMIT.
 *
 * @param star whether the list contains {@code *} or {@code t.*} (column count known only at run time)
 * @param having the HAVING condition's text, or null
 * @param havingExpr the HAVING condition as the merger can evaluate it, or null when it has parts
 *     the merger cannot evaluate (or there is no HAVING)
 */
public record SelectShape(List<Item> items, boolean star, boolean distinct, List<Key> groupBy, String having,
                          HavingExpr havingExpr, List<Key> orderBy, ValueRef offset, ValueRef limit) {
    public SelectShape {
        items = List.copyOf(items);
        groupBy = List.copyOf(groupBy);
        orderBy = List.copyOf(orderBy);
    }

    public boolean isAggregate() {
        if (!groupBy.isEmpty()) {
            return true;
        }
        for (Item i : items) { // per execution of a scatter: no streams here
            if (i.aggregate() != null || i.containsAggregate()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A select item: its text (for repeating it in a hidden column) and span without the alias, its
     * alias, and aggregate.
     *
     * @param containsAggregate an aggregate nested in a larger expression ({@code SUM(a)/COUNT(*)}),
     *     which a scatter cannot merge
     */
    public record Item(String text, String alias, Aggregate aggregate, boolean containsAggregate, boolean isStar,
                       int start, int end) {}

    public enum AggregateKind { COUNT, SUM, MIN, MAX, AVG, OTHER }

    /** An aggregate call; {@code argument} is its argument's text ({@code *} for COUNT(*)). */
    public record Aggregate(AggregateKind kind, boolean distinct, String argument) {}

    /**
     * A GROUP BY or ORDER BY key: a select item (by position, as written with an ordinal or an alias,
     * or because the expression equals an item), an ordinal still to be bound ({@code ordinal}), or
     * another expression ({@code text}) that a scatter adds as a hidden column.
     */
    public record Key(int item, ValueRef ordinal, String text, boolean descending) {
        public static Key ofItem(int item, boolean descending) {
            return new Key(item, null, null, descending);
        }
    }
}
