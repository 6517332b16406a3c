package io.shardwise.core.route;

import io.shardwise.core.sql.analyze.SelectShape;

/**
 * The slots of the aggregates a scatter merges from the units' own values other than COUNT, SUM, MIN,
 * MAX and AVG, planned in one place for select items, HAVING and ORDER BY alike: BIT_AND, BIT_OR and
 * BIT_XOR combine exactly. The variance family is refused, with its reason.
 */
final class PartialAggregates {
    private PartialAggregates() {}

    /** The slot merging the aggregate of {@code kind} whose per-unit value is in {@code column}. */
    static AggregateSlot slot(SelectShape.AggregateKind kind, int column, String text) {
        return switch (kind) {
            case BIT_AND -> AggregateSlot.of(AggregateSlot.Kind.BIT_AND, column);
            case BIT_OR -> AggregateSlot.of(AggregateSlot.Kind.BIT_OR, column);
            case BIT_XOR -> AggregateSlot.of(AggregateSlot.Kind.BIT_XOR, column);
            // Per-shard COUNT, SUM and VAR_POP combine (Chan et al.) to the variance, and its text at
            // MySQL's scale (argument's + 4) matches; but MySQL sends the unrounded DOUBLE in the binary
            // protocol, whose last bits come from Welford's recurrence in the backend's scan order (two
            // orders of the same rows differ: MergeDifferentialTest), and merged rows are text here.
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> throw MergePlanner.unsupported(text
                    + " across shards (a DOUBLE whose last bits depend on the order MySQL reads the rows)");
            case COUNT, SUM, MIN, MAX, AVG, GROUP_CONCAT, OTHER -> throw new IllegalArgumentException("not planned here: " + kind);
        };
    }
}
