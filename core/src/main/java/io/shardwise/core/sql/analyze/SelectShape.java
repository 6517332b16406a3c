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
        for (Key k : orderBy) { // SELECT a FROM t ORDER BY SUM(b): one group of all rows, as in MySQL
            if (k.aggregate() != null || k.containsAggregate()) {
                return true;
            }
        }
        return false;
    }

    /**
     * A select item: its text (for repeating it in a hidden column) and span without the alias, its
     * alias, and aggregate.
     *
     * @param containsAggregate an aggregate nested in a larger expression ({@code SUM(a)/COUNT(*)})
     * @param expression that larger expression as the merger evaluates it over merged aggregates, or
     *     null when it is not one or holds parts the merger cannot evaluate
     * @param divisors the spans of the divisors in {@code expression}, in text order
     */
    public record Item(String text, String alias, Aggregate aggregate, boolean containsAggregate, HavingExpr expression,
                       List<Span> divisors, boolean isStar, int start, int end) {
        public Item {
            divisors = List.copyOf(divisors);
        }
    }

    /** [start, end) of the statement's text. */
    public record Span(int start, int end) {}

    /**
     * The aggregates a scatter can merge, and OTHER for the rest. STD and STDDEV are STDDEV_POP,
     * VARIANCE is VAR_POP (MySQL's synonyms). A GROUP_CONCAT, JSON_ARRAYAGG or JSON_OBJECTAGG carries its
     * parts in {@link Aggregate#concat} (the JSON ones: arguments and, for JSON_ARRAYAGG, ORDER BY keys).
     */
    public enum AggregateKind { COUNT, SUM, MIN, MAX, AVG, BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP,
        GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG, OTHER;

        /** Merged by joining the units' pieces (Concat): GROUP_CONCAT and the JSON aggregates. */
        public boolean isConcat() {
            return this == GROUP_CONCAT || this == JSON_ARRAYAGG || this == JSON_OBJECTAGG;
        }
    }

    /**
     * The parts of {@code GROUP_CONCAT([DISTINCT] a, b ORDER BY k DESC SEPARATOR 's')}: the arguments' spans,
     * the ORDER BY keys' spans with their directions, and the separator literal's span (null: the default ',').
     */
    public record GroupConcat(List<Span> arguments, List<ConcatKey> order, Span separator) {
        public GroupConcat {
            arguments = List.copyOf(arguments);
            order = List.copyOf(order);
        }
    }

    /** One ORDER BY key of a GROUP_CONCAT. */
    public record ConcatKey(Span span, boolean descending) {}

    /**
     * An aggregate call; {@code argument} is its argument's text ({@code *} for COUNT(*); {@code a, b}
     * for COUNT(DISTINCT a, b)) and [{@code argumentStart}, {@code argumentEnd}) its span in the
     * statement's text (-1 when unknown), which a scatter copies into a node's SQL when the argument
     * holds a literal or parameter.
     */
    public record Aggregate(AggregateKind kind, boolean distinct, String argument, int argumentStart, int argumentEnd,
                            List<Span> arguments, GroupConcat concat) {
        public Aggregate {
            arguments = List.copyOf(arguments);
            if (kind.isConcat() != (concat != null)) {
                throw new IllegalArgumentException("GROUP_CONCAT parts with " + kind);
            }
        }

        public Aggregate(AggregateKind kind, boolean distinct, String argument, int argumentStart, int argumentEnd,
                         List<Span> arguments) {
            this(kind, distinct, argument, argumentStart, argumentEnd, arguments, null);
        }

        public Aggregate(AggregateKind kind, boolean distinct, String argument, int argumentStart, int argumentEnd) {
            this(kind, distinct, argument, argumentStart, argumentEnd, List.of());
        }

        public Aggregate(AggregateKind kind, boolean distinct, String argument) {
            this(kind, distinct, argument, -1, -1);
        }

        /** COUNT(DISTINCT a, b): several arguments, whose spans {@code arguments} holds (empty otherwise). */
        public boolean isTuple() {
            return !arguments.isEmpty();
        }

        /**
         * Whether {@code other} is the same call as written (argument text equal but for case). Where
         * the argument holds a {@code ?}, equal texts may still differ by the values bound to them;
         * the router compares those.
         */
        public boolean sameText(Aggregate other) {
            return other != null && kind == other.kind && distinct == other.distinct && argument.equalsIgnoreCase(other.argument);
        }
    }

    /**
     * A GROUP BY or ORDER BY key: a select item (by position, as written with an ordinal or an alias,
     * or because the expression equals an item), an ordinal still to be bound ({@code ordinal}), or
     * another expression ({@code text}, spanning [{@code start}, {@code end}) of the statement) that a
     * scatter adds as a hidden column. An expression with a literal or parameter is never matched to an
     * item by its text at analysis (its {@code ?} may hold other values there); the router does it,
     * comparing the values of an execution. {@code aggregate} is set when an ORDER BY expression is
     * exactly one aggregate call that is not selected; {@code expression} when it is a larger expression
     * over aggregates ({@code SUM(a) / COUNT(*)}) the merger can evaluate, {@code containsAggregate}
     * when it holds an aggregate at all.
     */
    public record Key(int item, ValueRef ordinal, String text, boolean descending, int start, int end, Aggregate aggregate,
                      boolean containsAggregate, HavingExpr expression, List<Span> divisors) {
        public Key {
            divisors = List.copyOf(divisors);
        }

        public Key(int item, ValueRef ordinal, String text, boolean descending) {
            this(item, ordinal, text, descending, -1, -1, null, false, null, List.of());
        }

        public static Key ofItem(int item, boolean descending) {
            return new Key(item, null, null, descending);
        }
    }
}
