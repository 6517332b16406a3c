package io.shardwise.core.merge;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Turns the units' cursors of one statement into its result, as the plan's {@link MergeSpec} says:
 * pass-through, concatenation, a k-way sorted merge, or a grouped aggregate (streaming over sorted
 * units, else hashed), then HAVING and ORDER BY of groups, then the tail (DISTINCT, OFFSET/LIMIT,
 * hidden helper columns cut off).
 *
 * <p>Invariant: the returned cursor owns the inputs. It closes all of them on close, on the first
 * error (which propagates from {@code next()} unchanged), at the end of the result and once a LIMIT
 * is reached. Streaming shapes (concat, sorted merge, sorted grouping without an ORDER BY of groups)
 * hold O(units) rows; hashed grouping, ORDER BY over groups and DISTINCT hold one row per group or
 * distinct row.
 *
 * <p>Hazard: cell values are compared by the MySQL type of the units' columns; string order comes
 * only from WEIGHT_STRING columns the plan names. Without one, strings compare as bytes.
 */
public final class Merger {
    private Merger() {}

    public static ResultCursor merge(List<ResultCursor> inputs, MergeSpec spec) {
        return merge(inputs, spec, MergeWarnings.NONE);
    }

    /** As {@link #merge(List, MergeSpec)}, raising the merge's own conditions (x / 0) to {@code warnings}. */
    public static ResultCursor merge(List<ResultCursor> inputs, MergeSpec spec, MergeWarnings warnings) {
        if (inputs.isEmpty()) {
            throw new ShardwiseException(ErrorCode.BUG, "merge of no units (" + spec.explain() + ")");
        }
        Inputs owned = new Inputs(inputs);
        try {
            return build(owned, spec, warnings);
        } catch (RuntimeException | Error e) {
            owned.closeAll();
            throw e;
        }
    }

    /**
     * The columns {@link #merge} of {@code units} cursors with {@code unitColumns} returns, found by
     * merging that many empty cursors: the very code that shapes a result's columns, so a description
     * made before running (a prepare reply) cannot drift from what the execution then sends.
     */
    public static List<Column> columns(List<Column> unitColumns, int units, MergeSpec spec) {
        List<ResultCursor> empty = new ArrayList<>(units);
        for (int i = 0; i < units; i++) {
            empty.add(new Empty(unitColumns));
        }
        try (ResultCursor merged = merge(empty, spec)) {
            return merged.columns();
        }
    }

    private record Empty(List<Column> columns) implements ResultCursor {
        @Override
        public boolean next() {
            return false;
        }

        @Override
        public byte[] get(int index) {
            throw new IllegalStateException("no row");
        }

        @Override
        public void close() {}
    }

    private static ResultCursor build(Inputs inputs, MergeSpec requested, MergeWarnings warnings) {
        List<Column> columns = inputs.cursors().getFirst().columns();
        MergeSpec spec = Weights.applicable(requested, columns);
        ResultCursor body = switch (spec) {
            case MergeSpec.PassThrough p -> {
                if (inputs.cursors().size() != 1) {
                    throw new ShardwiseException(ErrorCode.BUG, "pass-through of " + inputs.cursors().size() + " units");
                }
                yield null;
            }
            case MergeSpec.Concat c -> new ConcatCursor(inputs);
            case MergeSpec.SortedMerge s -> new SortedMergeCursor(inputs, new RowOrder(s.keys(), columns));
            case MergeSpec.GroupedAggregate g -> grouped(inputs, g, columns, warnings);
        };
        if (body == null) {
            return inputs.cursors().getFirst(); // the unit's rows are the result, untouched
        }
        return tail(body, inputs, spec);
    }

    /**
     * The columns of a ROLLUP's result: MariaDB describes a GROUP BY expression or constant as nullable (its
     * super-aggregate rows hold NULL there), while the units, which group plainly, describe a constant as NOT NULL; a
     * bare table column (one with an origin column) keeps its own flags, NOT NULL included, as MariaDB keeps them.
     */
    private static List<Column> rollupColumns(List<Column> columns, List<SortKey> groupKeys) {
        List<Column> out = new ArrayList<>(columns);
        for (SortKey key : groupKeys) {
            Column c = out.get(key.column());
            if (!c.orgName().isEmpty()) {
                continue;
            }
            out.set(key.column(), new Column(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(), c.length(),
                    c.mysqlType(), c.flags() & ~Column.FLAG_NOT_NULL, c.decimals()));
        }
        return List.copyOf(out);
    }

    private static ResultCursor grouped(Inputs inputs, MergeSpec.GroupedAggregate g, List<Column> columns, MergeWarnings warnings) {
        List<Column> outColumns = AggregateColumns.of(columns, g.aggregates());
        ExprEvaluator evaluator = new ExprEvaluator(outColumns, warnings);
        Aggregator aggregator = new Aggregator(g.aggregates(), g.computed(), evaluator, columns, warnings, inputs.keepCells());
        RowOrder groupOrder = new RowOrder(g.groupKeys(), columns);
        boolean global = g.groupKeys().isEmpty();
        ExprEvaluator having = g.having() == null ? null : evaluator;
        // groups sort by the merged columns' types: a DISTINCT aggregate's unit column held its argument
        // (a string with a weight), the merged one is a number, which orders by value
        List<SortKey> order = Weights.keys(g.order(), outColumns);
        if (g.rollup()) {
            List<Column> rolled = rollupColumns(outColumns, g.groupKeys());
            return new DeferredCursor(rolled, () -> {
                List<byte[][]> rows = RollupGrouping.groups(new ConcatCursor(inputs), g.groupKeys(), aggregator, outColumns);
                if (having != null) {
                    rows.removeIf(r -> !having.accepts(g.having(), Row.of(r)));
                }
                return new BufferedCursor(rolled, rows, inputs);
            }, inputs);
        }
        if (g.inputSortedByGroup() || global) {
            ResultCursor source = global ? new ConcatCursor(inputs) : new SortedMergeCursor(inputs, groupOrder);
            ResultCursor groups = new SortedGroupCursor(source, groupOrder, aggregator, global, outColumns);
            if (having != null) {
                groups = new FilterCursor(groups, row -> having.accepts(g.having(), row));
            }
            if (g.order().isEmpty()) {
                return groups; // streaming: groups leave in group-key order as they complete
            }
            ResultCursor streamed = groups;
            return new DeferredCursor(outColumns, () -> sorted(drain(streamed, outColumns.size()), order, outColumns, inputs),
                    inputs);
        }
        return new DeferredCursor(outColumns, () -> {
            List<byte[][]> rows = HashGrouping.groups(new ConcatCursor(inputs), g.groupKeys(), aggregator);
            if (having != null) {
                rows.removeIf(r -> !having.accepts(g.having(), Row.of(r)));
            }
            rows.sort(comparator(new RowOrder(g.groupKeys(), outColumns)));
            // ORDER BY the group keys themselves (DISTINCT c ORDER BY c): the same comparator again would change nothing
            return sorted(rows, order.equals(g.groupKeys()) ? List.of() : order, outColumns, inputs);
        }, inputs);
    }

    /** Groups sorted by ORDER BY; the sort is stable, so ties keep group-key order. */
    private static ResultCursor sorted(List<byte[][]> rows, List<SortKey> order, List<Column> columns, Inputs inputs) {
        if (!order.isEmpty()) {
            rows.sort(comparator(new RowOrder(order, columns)));
        }
        return new BufferedCursor(columns, rows, inputs);
    }

    private static Comparator<byte[][]> comparator(RowOrder order) {
        return order::compare;
    }

    private static List<byte[][]> drain(ResultCursor cursor, int width) {
        List<byte[][]> rows = new ArrayList<>();
        Row row = cursor::get;
        while (cursor.next()) {
            rows.add(Row.copy(row, width));
        }
        return rows;
    }

    private static ResultCursor tail(ResultCursor body, Inputs inputs, MergeSpec spec) {
        MergeSpec.Tail tail = spec.tail();
        int width = body.columns().size();
        int visible = tail.visibleColumns() < 0 ? width : Math.min(tail.visibleColumns(), width);
        ResultCursor cursor = body;
        if (tail.distinct()) {
            cursor = new DistinctCursor(cursor, weightColumns(spec, visible));
        }
        if (tail.offset() > 0 || tail.limit() >= 0) {
            cursor = new LimitCursor(cursor, inputs, tail.offset(), tail.limit());
        }
        return new MergedCursor(cursor, inputs, visible);
    }

    /** For each visible column, the WEIGHT_STRING column some key or slot of the plan names for it, else -1. */
    private static int[] weightColumns(MergeSpec spec, int visible) {
        int[] weights = new int[visible];
        Arrays.fill(weights, -1);
        List<SortKey> keys = new ArrayList<>();
        switch (spec) {
            case MergeSpec.SortedMerge s -> keys.addAll(s.keys());
            case MergeSpec.GroupedAggregate g -> {
                keys.addAll(g.groupKeys());
                keys.addAll(g.order());
                for (AggregateSlot slot : g.aggregates()) {
                    if ((slot.kind() == AggregateSlot.Kind.MIN || slot.kind() == AggregateSlot.Kind.MAX) && slot.weightColumn() >= 0) {
                        keys.add(new SortKey(slot.column(), false, slot.weightColumn()));
                    }
                }
                if (g.having() != null) {
                    collectWeights(g.having(), keys);
                }
            }
            case MergeSpec.Concat c -> { }
            case MergeSpec.PassThrough p -> { }
        }
        for (SortKey k : keys) {
            if (k.column() < visible && k.weightColumn() >= 0) {
                weights[k.column()] = k.weightColumn();
            }
        }
        return weights;
    }

    private static void collectWeights(RowExpr e, List<SortKey> into) {
        switch (e) {
            case RowExpr.ColumnRef c -> {
                if (c.weightColumn() >= 0) {
                    into.add(new SortKey(c.column(), false, c.weightColumn()));
                }
            }
            case RowExpr.Compare c -> {
                collectWeights(c.left(), into);
                collectWeights(c.right(), into);
            }
            case RowExpr.Arithmetic a -> {
                collectWeights(a.left(), into);
                collectWeights(a.right(), into);
            }
            case RowExpr.Negate n -> collectWeights(n.operand(), into);
            case RowExpr.Average a -> {
                collectWeights(a.sum(), into);
                collectWeights(a.count(), into);
            }
            case RowExpr.Coalesce c -> c.operands().forEach(x -> collectWeights(x, into));
            case RowExpr.If i -> {
                collectWeights(i.condition(), into);
                collectWeights(i.then(), into);
                collectWeights(i.otherwise(), into);
            }
            case RowExpr.And a -> a.operands().forEach(o -> collectWeights(o, into));
            case RowExpr.Or o -> o.operands().forEach(x -> collectWeights(x, into));
            case RowExpr.Not n -> collectWeights(n.operand(), into);
            case RowExpr.IsNull i -> collectWeights(i.operand(), into);
            case RowExpr.Constant k -> { }
        }
    }
}
