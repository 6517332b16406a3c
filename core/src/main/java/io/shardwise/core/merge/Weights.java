package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a weight column only where it means something. The router asks for WEIGHT_STRING() of
 * every key because it cannot see column types; for numbers, dates and binary strings the value's
 * own order is right (and a weight string of a number orders as text, which is wrong), so those
 * keys drop their weight once the units' column types are known.
 */
final class Weights {
    private Weights() {}

    static MergeSpec applicable(MergeSpec spec, List<Column> columns) {
        return switch (spec) {
            case MergeSpec.PassThrough p -> p;
            case MergeSpec.Concat c -> c;
            case MergeSpec.SortedMerge s -> new MergeSpec.SortedMerge(keys(s.keys(), columns), s.tail());
            case MergeSpec.GroupedAggregate g -> new MergeSpec.GroupedAggregate(keys(g.groupKeys(), columns),
                    slots(g.aggregates(), columns), computed(g.computed(), columns), g.inputSortedByGroup(), expr(g.having(), columns),
                    keys(g.order(), columns), g.tail(), g.rollup());
        };
    }

    /** Whether values of the column compare by a collation other than their bytes. */
    static boolean collated(Column column) {
        boolean text = switch (column.mysqlType()) {
            case 15, 247, 248, 249, 250, 251, 252, 253, 254 -> true; // VARCHAR, ENUM, SET, TEXT/BLOB, VAR_STRING, STRING
            default -> false;
        };
        return text && !column.hasBinaryCollation();
    }

    private static int weight(int column, int weightColumn, List<Column> columns) {
        return weightColumn >= 0 && column < columns.size() && collated(columns.get(column)) ? weightColumn : -1;
    }

    static List<SortKey> keys(List<SortKey> keys, List<Column> columns) {
        List<SortKey> out = new ArrayList<>(keys.size());
        for (SortKey k : keys) {
            out.add(new SortKey(k.column(), k.descending(), weight(k.column(), k.weightColumn(), columns)));
        }
        return out;
    }

    private static List<AggregateSlot> slots(List<AggregateSlot> slots, List<Column> columns) {
        List<AggregateSlot> out = new ArrayList<>(slots.size());
        for (AggregateSlot s : slots) {
            AggregateSlot.Concat c = s.concat();
            out.add(new AggregateSlot(s.kind(), s.column(), s.sumColumn(), s.countColumn(), weight(s.column(), s.weightColumn(), columns),
                    c == null ? null : new AggregateSlot.Concat(keys(c.order(), columns), keys(c.identity(), columns), c.distinct(),
                            c.separatorColumn(), c.lengthColumn()), s.varianceColumn()));
        }
        return out;
    }

    private static List<MergeSpec.ComputedColumn> computed(List<MergeSpec.ComputedColumn> computed, List<Column> columns) {
        List<MergeSpec.ComputedColumn> out = new ArrayList<>(computed.size());
        for (MergeSpec.ComputedColumn c : computed) {
            out.add(new MergeSpec.ComputedColumn(c.column(), expr(c.expression(), columns)));
        }
        return out;
    }

    private static RowExpr expr(RowExpr e, List<Column> columns) {
        if (e == null) {
            return null;
        }
        return switch (e) {
            case RowExpr.ColumnRef c -> new RowExpr.ColumnRef(c.column(), weight(c.column(), c.weightColumn(), columns));
            case RowExpr.Constant c -> c;
            case RowExpr.Compare c -> new RowExpr.Compare(c.op(), expr(c.left(), columns), expr(c.right(), columns));
            case RowExpr.Arithmetic a -> new RowExpr.Arithmetic(a.op(), expr(a.left(), columns), expr(a.right(), columns));
            case RowExpr.Negate n -> new RowExpr.Negate(expr(n.operand(), columns));
            case RowExpr.Average a -> new RowExpr.Average(expr(a.sum(), columns), expr(a.count(), columns));
            case RowExpr.Coalesce c -> new RowExpr.Coalesce(c.operands().stream().map(x -> expr(x, columns)).toList());
            case RowExpr.If i -> new RowExpr.If(expr(i.condition(), columns), expr(i.then(), columns), expr(i.otherwise(), columns));
            case RowExpr.And a -> new RowExpr.And(a.operands().stream().map(x -> expr(x, columns)).toList());
            case RowExpr.Or o -> new RowExpr.Or(o.operands().stream().map(x -> expr(x, columns)).toList());
            case RowExpr.Not n -> new RowExpr.Not(expr(n.operand(), columns));
            case RowExpr.IsNull n -> new RowExpr.IsNull(expr(n.operand(), columns), n.negated());
        };
    }
}
