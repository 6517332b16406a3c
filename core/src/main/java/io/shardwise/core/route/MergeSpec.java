package io.shardwise.core.route;

import java.util.List;
import java.util.Objects;

/**
 * How the merger turns the units' cursors into the statement's result. Column indexes refer to the
 * units' select lists, which are the user's select items followed by hidden helper columns (sort
 * keys not selected, WEIGHT_STRING() of string keys, SUM/COUNT behind an AVG); the tail hides them.
 * Every unit of a plan returns the same columns in the same order.
 */
public sealed interface MergeSpec
        permits MergeSpec.PassThrough, MergeSpec.Concat, MergeSpec.SortedMerge, MergeSpec.GroupedAggregate {

    Tail tail();

    /** Stable one-line form for PREVIEW and golden plan tests. */
    String explain();

    /** Requires: exactly one unit. Its rows are the result, untouched. */
    record PassThrough() implements MergeSpec {
        @Override
        public Tail tail() {
            return Tail.NONE;
        }

        @Override
        public String explain() {
            return "pass-through";
        }
    }

    /** Requires: no order asked for. The units' rows one after another, then the tail. */
    record Concat(Tail tail) implements MergeSpec {
        public Concat {
            Objects.requireNonNull(tail, "tail");
        }

        @Override
        public String explain() {
            return "concat" + tail.explain();
        }
    }

    /** Requires: every unit sorted by {@code keys}. A k-way merge, streaming, then the tail. */
    record SortedMerge(List<SortKey> keys, Tail tail) implements MergeSpec {
        public SortedMerge {
            keys = List.copyOf(keys);
            if (keys.isEmpty()) {
                throw new IllegalArgumentException("a sorted merge needs keys");
            }
            Objects.requireNonNull(tail, "tail");
        }

        @Override
        public String explain() {
            return "sorted-merge by " + keys + tail.explain();
        }
    }

    /**
     * Rows with equal {@code groupKeys} (all of them for a global aggregate such as COUNT(*) without
     * GROUP BY, where {@code groupKeys} is empty and the result is exactly one row) become one row:
     * group columns from the first row, aggregate columns merged. Requires: when
     * {@code inputSortedByGroup}, every unit is sorted by {@code groupKeys} (streaming merge);
     * otherwise groups are hashed in memory. Then each of {@code computed} (expressions over the
     * merged aggregates, in order) overwrites its column, {@code having} filters groups, {@code order}
     * sorts them (empty: group-key order), and the tail applies.
     * With {@code rollup} (GROUP BY ... WITH ROLLUP; requires: no {@code order}, not {@code inputSortedByGroup})
     * each prefix of the group keys also gets its super-aggregate row, the keys after the prefix NULL,
     * placed after its groups as MySQL places them, the grand total last; {@code having} filters those too.
     */
    record GroupedAggregate(List<SortKey> groupKeys, List<AggregateSlot> aggregates, List<ComputedColumn> computed,
                            boolean inputSortedByGroup, RowExpr having, List<SortKey> order, Tail tail, boolean rollup) implements MergeSpec {
        public GroupedAggregate {
            groupKeys = List.copyOf(groupKeys);
            aggregates = List.copyOf(aggregates);
            computed = List.copyOf(computed);
            order = List.copyOf(order);
            Objects.requireNonNull(tail, "tail");
            if (rollup && (inputSortedByGroup || !order.isEmpty() || groupKeys.isEmpty())) {
                throw new IllegalArgumentException("WITH ROLLUP needs group keys, hashed grouping and no ORDER BY");
            }
        }

        public GroupedAggregate(List<SortKey> groupKeys, List<AggregateSlot> aggregates, List<ComputedColumn> computed,
                                boolean inputSortedByGroup, RowExpr having, List<SortKey> order, Tail tail) {
            this(groupKeys, aggregates, computed, inputSortedByGroup, having, order, tail, false);
        }

        public GroupedAggregate(List<SortKey> groupKeys, List<AggregateSlot> aggregates, boolean inputSortedByGroup,
                                RowExpr having, List<SortKey> order, Tail tail) {
            this(groupKeys, aggregates, List.of(), inputSortedByGroup, having, order, tail);
        }

        @Override
        public String explain() {
            return "group by " + groupKeys + " aggregate " + aggregates + (computed.isEmpty() ? "" : " compute " + computed)
                    + (rollup ? " with rollup" : "") + (inputSortedByGroup ? " (streaming)" : " (hashed)")
                    + (having == null ? "" : " having " + having) + (order.isEmpty() ? "" : " order by " + order) + tail.explain();
        }
    }

    /**
     * A column of a grouped merge whose value is {@code expression} over the group's merged columns
     * ({@code SUM(a) / COUNT(*)}). The units compute the same expression over their partial groups: its
     * value is replaced, but its column definition (type, length, scale, label) is MySQL's own.
     */
    record ComputedColumn(int column, RowExpr expression) {
        public ComputedColumn {
            if (column < 0) {
                throw new IllegalArgumentException("computed column " + column);
            }
            Objects.requireNonNull(expression, "expression");
        }

        @Override
        public String toString() {
            return "#" + column + "=" + expression;
        }
    }

    /**
     * What applies last: DISTINCT over the visible columns, then OFFSET and LIMIT ({@code limit} -1
     * for none), then only the first {@code visibleColumns} columns are returned (-1: all).
     */
    record Tail(boolean distinct, long offset, long limit, int visibleColumns) {
        public static final Tail NONE = new Tail(false, 0, -1, -1);

        public Tail {
            if (offset < 0 || limit < -1 || visibleColumns < -1) {
                throw new IllegalArgumentException("tail " + offset + ", " + limit + ", " + visibleColumns);
            }
        }

        String explain() {
            return (distinct ? " distinct" : "") + (offset > 0 ? " offset " + offset : "") + (limit >= 0 ? " limit " + limit : "")
                    + (visibleColumns >= 0 ? " show " + visibleColumns : "");
        }
    }
}
