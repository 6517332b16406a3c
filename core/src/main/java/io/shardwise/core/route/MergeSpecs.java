package io.shardwise.core.route;

import java.util.ArrayList;
import java.util.List;

/** Adjusts a merge spec built before the width of a {@code *} was known. */
public final class MergeSpecs {
    private MergeSpecs() {}

    /**
     * The spec with every column index after {@code starItem} moved by {@code extra} (the star's
     * real column count minus one) and the visible width widened alike.
     */
    public static MergeSpec expandStar(MergeSpec spec, int starItem, int extra) {
        if (starItem < 0 || extra == 0) {
            return spec;
        }
        return switch (spec) {
            case MergeSpec.PassThrough p -> p;
            case MergeSpec.Concat c -> new MergeSpec.Concat(tail(c.tail(), extra));
            case MergeSpec.SortedMerge s -> new MergeSpec.SortedMerge(keys(s.keys(), starItem, extra), tail(s.tail(), extra));
            case MergeSpec.GroupedAggregate g -> new MergeSpec.GroupedAggregate(keys(g.groupKeys(), starItem, extra),
                    aggregates(g.aggregates(), starItem, extra), computed(g.computed(), starItem, extra), g.inputSortedByGroup(),
                    expr(g.having(), starItem, extra), keys(g.order(), starItem, extra), tail(g.tail(), extra), g.rollup());
        };
    }

    private static List<MergeSpec.ComputedColumn> computed(List<MergeSpec.ComputedColumn> computed, int starItem, int extra) {
        List<MergeSpec.ComputedColumn> out = new ArrayList<>();
        for (MergeSpec.ComputedColumn c : computed) {
            out.add(new MergeSpec.ComputedColumn(at(c.column(), starItem, extra), expr(c.expression(), starItem, extra)));
        }
        return out;
    }

    private static RowExpr expr(RowExpr e, int starItem, int extra) {
        if (e == null) {
            return null;
        }
        return switch (e) {
            case RowExpr.ColumnRef c -> new RowExpr.ColumnRef(at(c.column(), starItem, extra),
                    c.weightColumn() < 0 ? -1 : at(c.weightColumn(), starItem, extra));
            case RowExpr.Constant c -> c;
            case RowExpr.Compare c -> new RowExpr.Compare(c.op(), expr(c.left(), starItem, extra), expr(c.right(), starItem, extra));
            case RowExpr.Arithmetic a -> new RowExpr.Arithmetic(a.op(), expr(a.left(), starItem, extra), expr(a.right(), starItem, extra));
            case RowExpr.Negate n -> new RowExpr.Negate(expr(n.operand(), starItem, extra));
            case RowExpr.Average a -> new RowExpr.Average(expr(a.sum(), starItem, extra), expr(a.count(), starItem, extra));
            case RowExpr.Coalesce c -> new RowExpr.Coalesce(exprs(c.operands(), starItem, extra));
            case RowExpr.If i -> new RowExpr.If(expr(i.condition(), starItem, extra), expr(i.then(), starItem, extra), expr(i.otherwise(), starItem, extra));
            case RowExpr.And a -> new RowExpr.And(exprs(a.operands(), starItem, extra));
            case RowExpr.Or o -> new RowExpr.Or(exprs(o.operands(), starItem, extra));
            case RowExpr.Not n -> new RowExpr.Not(expr(n.operand(), starItem, extra));
            case RowExpr.IsNull n -> new RowExpr.IsNull(expr(n.operand(), starItem, extra), n.negated());
        };
    }

    private static List<RowExpr> exprs(List<RowExpr> operands, int starItem, int extra) {
        List<RowExpr> out = new ArrayList<>(operands.size());
        for (RowExpr o : operands) {
            out.add(expr(o, starItem, extra));
        }
        return out;
    }

    private static int at(int index, int starItem, int extra) {
        return index > starItem ? index + extra : index;
    }

    private static List<SortKey> keys(List<SortKey> keys, int starItem, int extra) {
        List<SortKey> out = new ArrayList<>();
        for (SortKey k : keys) {
            out.add(new SortKey(at(k.column(), starItem, extra), k.descending(),
                    k.weightColumn() < 0 ? -1 : at(k.weightColumn(), starItem, extra)));
        }
        return out;
    }

    private static List<AggregateSlot> aggregates(List<AggregateSlot> slots, int starItem, int extra) {
        List<AggregateSlot> out = new ArrayList<>();
        for (AggregateSlot a : slots) {
            out.add(new AggregateSlot(a.kind(), at(a.column(), starItem, extra),
                    a.sumColumn() < 0 ? -1 : at(a.sumColumn(), starItem, extra),
                    a.countColumn() < 0 ? -1 : at(a.countColumn(), starItem, extra),
                    a.weightColumn() < 0 ? -1 : at(a.weightColumn(), starItem, extra),
                    a.concat() == null ? null : new AggregateSlot.Concat(keys(a.concat().order(), starItem, extra),
                            keys(a.concat().identity(), starItem, extra), a.concat().distinct(),
                            a.concat().separatorColumn() < 0 ? -1 : at(a.concat().separatorColumn(), starItem, extra),
                            a.concat().lengthColumn() < 0 ? -1 : at(a.concat().lengthColumn(), starItem, extra)),
                    a.varianceColumn() < 0 ? -1 : at(a.varianceColumn(), starItem, extra)));
        }
        return out;
    }

    private static MergeSpec.Tail tail(MergeSpec.Tail t, int extra) {
        return t.visibleColumns() < 0 ? t : new MergeSpec.Tail(t.distinct(), t.offset(), t.limit(), t.visibleColumns() + extra);
    }
}
