package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import java.util.List;

/**
 * Builds merged group rows: the first row of a group supplies the non-aggregate columns, each
 * aggregate slot merges its column over all the group's rows, then each computed column is
 * evaluated over the merged ones, in order; last, a variance is rounded to the scale it shows at.
 */
final class Aggregator {
    private final List<AggregateSlot> slots;
    private final MergeSpec.ComputedColumn[] computed;
    private final ExprEvaluator evaluator;
    private final List<Column> inputColumns;
    private final int width;
    private final MergeWarnings warnings;
    private final boolean settles;
    private final boolean sharesCells;

    Aggregator(List<AggregateSlot> slots, List<Column> inputColumns) {
        this(slots, List.of(), null, inputColumns, MergeWarnings.NONE, false);
    }

    /**
     * @param sharesCells whether a group may keep its first row's cells themselves, not copies: the rows come
     *     from cursors that {@linkplain io.shardwise.core.execute.ResultCursor#keepsCells keep them} (a group
     *     only ever replaces a cell of its row, never writes into one)
     */
    Aggregator(List<AggregateSlot> slots, List<MergeSpec.ComputedColumn> computed, ExprEvaluator evaluator,
               List<Column> inputColumns, MergeWarnings warnings, boolean sharesCells) {
        this.warnings = warnings;
        this.sharesCells = sharesCells;
        this.slots = slots;
        this.computed = computed.toArray(MergeSpec.ComputedColumn[]::new);
        this.evaluator = evaluator;
        this.inputColumns = inputColumns;
        this.width = inputColumns.size();
        boolean variance = false;
        for (AggregateSlot slot : slots) {
            variance |= slot.kind().isVariance();
        }
        this.settles = variance;
    }

    /** A group opened by {@code first}, which is already added. */
    Group open(Row first) {
        Group g = new Group(Row.copy(first, width, sharesCells), accumulators(), this);
        g.add(first);
        return g;
    }

    /** The single row of a global aggregate over no rows: aggregates over nothing, other columns NULL. */
    byte[][] emptyGlobalRow() {
        return new Group(new byte[width][], accumulators(), this).finish();
    }

    private Accumulator[] accumulators() {
        Accumulator[] accs = new Accumulator[slots.size()];
        for (int i = 0; i < accs.length; i++) {
            accs[i] = Accumulator.create(slots.get(i), inputColumns, warnings);
        }
        return accs;
    }

    static final class Group {
        private final byte[][] cells;
        private final Accumulator[] accumulators;
        private final Aggregator aggregator;

        private Group(byte[][] cells, Accumulator[] accumulators, Aggregator aggregator) {
            this.cells = cells;
            this.accumulators = accumulators;
            this.aggregator = aggregator;
        }

        /** The group's first row, as copied; its key columns identify the group. */
        Row first() {
            return Row.of(cells);
        }

        /** The cells of {@link #first}, unchanged until {@link #finish}. */
        byte[][] cells() {
            return cells;
        }

        void add(Row row) {
            for (Accumulator a : accumulators) {
                a.add(row);
            }
        }

        /** The merged row; call once, after the last {@link #add}. */
        byte[][] finish() {
            for (Accumulator a : accumulators) {
                a.writeTo(cells);
            }
            for (MergeSpec.ComputedColumn c : aggregator.computed) {
                aggregator.evaluator.compute(c, cells);
            }
            if (aggregator.settles) {
                // a variance enters the expressions over it unrounded, as MySQL's DOUBLE does, and shows at its scale
                for (Accumulator a : accumulators) {
                    if (a instanceof VarianceAccumulator v) {
                        v.settle(cells);
                    }
                }
            }
            return cells;
        }
    }
}
