package io.shardwise.core.route;

import io.shardwise.core.route.HiddenColumns.Expr;
import io.shardwise.core.sql.analyze.SelectShape;

/**
 * The slots of the aggregates a scatter merges from the units' partials other than COUNT, SUM, MIN,
 * MAX and AVG, planned in one place for select items, HAVING and ORDER BY alike: BIT_AND, BIT_OR and
 * BIT_XOR combine the units' own values; the variance family asks each unit for COUNT, SUM and
 * VAR_POP of the argument as hidden columns (the moments Chan's formula combines).
 */
final class PartialAggregates {
    private PartialAggregates() {}

    /** The slot merging the aggregate of {@code kind} over {@code argument} whose per-unit value is in {@code column}. */
    static AggregateSlot slot(SelectShape.AggregateKind kind, int column, Expr argument, HiddenColumns hidden) {
        return switch (kind) {
            case BIT_AND -> AggregateSlot.of(AggregateSlot.Kind.BIT_AND, column);
            case BIT_OR -> AggregateSlot.of(AggregateSlot.Kind.BIT_OR, column);
            case BIT_XOR -> AggregateSlot.of(AggregateSlot.Kind.BIT_XOR, column);
            case VAR_POP -> variance(AggregateSlot.Kind.VAR_POP, column, argument, hidden);
            case VAR_SAMP -> variance(AggregateSlot.Kind.VAR_SAMP, column, argument, hidden);
            case STDDEV_POP -> variance(AggregateSlot.Kind.STDDEV_POP, column, argument, hidden);
            case STDDEV_SAMP -> variance(AggregateSlot.Kind.STDDEV_SAMP, column, argument, hidden);
            case COUNT, SUM, MIN, MAX, AVG, GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG, OTHER -> throw new IllegalArgumentException("not planned here: " + kind);
        };
    }

    private static AggregateSlot variance(AggregateSlot.Kind kind, int column, Expr argument, HiddenColumns hidden) {
        int sum = hidden.add("sum(", argument, ")");
        int count = hidden.add("count(", argument, ")");
        // as a DOUBLE without fixed decimals: VAR_POP of a DECIMAL or an integer prints rounded to the
        // argument's scale + 4, which would lose the digits the combination needs
        int variance = hidden.add("cast(var_pop(", argument, ") as double)");
        return new AggregateSlot(kind, column, sum, count, -1, null, variance);
    }
}
