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

    /** {@code spec} with the weights that do not apply dropped; {@code spec} itself when all apply (copy on change). */
    static MergeSpec applicable(MergeSpec spec, List<Column> columns) {
        return switch (spec) {
            case MergeSpec.PassThrough p -> p;
            case MergeSpec.Concat c -> c;
            case MergeSpec.SortedMerge s -> {
                List<SortKey> keys = keys(s.keys(), columns);
                yield keys == s.keys() ? s : new MergeSpec.SortedMerge(keys, s.tail());
            }
            case MergeSpec.GroupedAggregate g -> {
                List<SortKey> groupKeys = keys(g.groupKeys(), columns);
                List<AggregateSlot> slots = slots(g.aggregates(), columns);
                List<MergeSpec.ComputedColumn> computed = computed(g.computed(), columns);
                RowExpr having = expr(g.having(), columns);
                List<SortKey> order = keys(g.order(), columns);
                yield groupKeys == g.groupKeys() && slots == g.aggregates() && computed == g.computed() && having == g.having()
                        && order == g.order() ? g
                        : new MergeSpec.GroupedAggregate(groupKeys, slots, computed, g.inputSortedByGroup(), having, order, g.tail(), g.rollup());
            }
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

    /** {@code keys} with the weights that do not apply dropped; {@code keys} itself when all apply. */
    static List<SortKey> keys(List<SortKey> keys, List<Column> columns) {
        List<SortKey> out = null;
        for (int i = 0; i < keys.size(); i++) {
            SortKey k = keys.get(i);
            int weight = weight(k.column(), k.weightColumn(), columns);
            if (weight != k.weightColumn() && out == null) {
                out = new ArrayList<>(keys.subList(0, i));
            }
            if (out != null) {
                out.add(weight == k.weightColumn() ? k : new SortKey(k.column(), k.descending(), weight));
            }
        }
        return out == null ? keys : out;
    }

    private static List<AggregateSlot> slots(List<AggregateSlot> slots, List<Column> columns) {
        List<AggregateSlot> out = null;
        for (int i = 0; i < slots.size(); i++) {
            AggregateSlot s = slots.get(i);
            AggregateSlot applied = slot(s, columns);
            if (applied != s && out == null) {
                out = new ArrayList<>(slots.subList(0, i));
            }
            if (out != null) {
                out.add(applied);
            }
        }
        return out == null ? slots : out;
    }

    private static AggregateSlot slot(AggregateSlot s, List<Column> columns) {
        int weight = weight(s.column(), s.weightColumn(), columns);
        AggregateSlot.Concat c = s.concat();
        AggregateSlot.Concat concat = c == null ? null : concat(c, columns);
        return weight == s.weightColumn() && concat == c ? s
                : new AggregateSlot(s.kind(), s.column(), s.sumColumn(), s.countColumn(), weight, concat, s.varianceColumn());
    }

    private static AggregateSlot.Concat concat(AggregateSlot.Concat c, List<Column> columns) {
        List<SortKey> order = keys(c.order(), columns);
        List<SortKey> identity = keys(c.identity(), columns);
        return order == c.order() && identity == c.identity() ? c
                : new AggregateSlot.Concat(order, identity, c.distinct(), c.separatorColumn(), c.lengthColumn());
    }

    private static List<MergeSpec.ComputedColumn> computed(List<MergeSpec.ComputedColumn> computed, List<Column> columns) {
        List<MergeSpec.ComputedColumn> out = null;
        for (int i = 0; i < computed.size(); i++) {
            MergeSpec.ComputedColumn c = computed.get(i);
            RowExpr e = expr(c.expression(), columns);
            if (e != c.expression() && out == null) {
                out = new ArrayList<>(computed.subList(0, i));
            }
            if (out != null) {
                out.add(e == c.expression() ? c : new MergeSpec.ComputedColumn(c.column(), e));
            }
        }
        return out == null ? computed : out;
    }

    /** {@code e} with the weights that do not apply dropped; {@code e} itself when all apply. */
    private static RowExpr expr(RowExpr e, List<Column> columns) {
        if (e == null) {
            return null;
        }
        return switch (e) {
            case RowExpr.ColumnRef c -> {
                int weight = weight(c.column(), c.weightColumn(), columns);
                yield weight == c.weightColumn() ? c : new RowExpr.ColumnRef(c.column(), weight);
            }
            case RowExpr.Constant c -> c;
            case RowExpr.Compare c -> {
                RowExpr l = expr(c.left(), columns);
                RowExpr r = expr(c.right(), columns);
                yield l == c.left() && r == c.right() ? c : new RowExpr.Compare(c.op(), l, r);
            }
            case RowExpr.Arithmetic a -> {
                RowExpr l = expr(a.left(), columns);
                RowExpr r = expr(a.right(), columns);
                yield l == a.left() && r == a.right() ? a : new RowExpr.Arithmetic(a.op(), l, r);
            }
            case RowExpr.Negate n -> {
                RowExpr o = expr(n.operand(), columns);
                yield o == n.operand() ? n : new RowExpr.Negate(o);
            }
            case RowExpr.Average a -> {
                RowExpr sum = expr(a.sum(), columns);
                RowExpr count = expr(a.count(), columns);
                yield sum == a.sum() && count == a.count() ? a : new RowExpr.Average(sum, count);
            }
            case RowExpr.Coalesce c -> {
                List<RowExpr> operands = exprs(c.operands(), columns);
                yield operands == c.operands() ? c : new RowExpr.Coalesce(operands);
            }
            case RowExpr.If i -> {
                RowExpr condition = expr(i.condition(), columns);
                RowExpr then = expr(i.then(), columns);
                RowExpr otherwise = expr(i.otherwise(), columns);
                yield condition == i.condition() && then == i.then() && otherwise == i.otherwise() ? i
                        : new RowExpr.If(condition, then, otherwise);
            }
            case RowExpr.And a -> {
                List<RowExpr> operands = exprs(a.operands(), columns);
                yield operands == a.operands() ? a : new RowExpr.And(operands);
            }
            case RowExpr.Or o -> {
                List<RowExpr> operands = exprs(o.operands(), columns);
                yield operands == o.operands() ? o : new RowExpr.Or(operands);
            }
            case RowExpr.Not n -> {
                RowExpr o = expr(n.operand(), columns);
                yield o == n.operand() ? n : new RowExpr.Not(o);
            }
            case RowExpr.IsNull n -> {
                RowExpr o = expr(n.operand(), columns);
                yield o == n.operand() ? n : new RowExpr.IsNull(o, n.negated());
            }
        };
    }

    private static List<RowExpr> exprs(List<RowExpr> exprs, List<Column> columns) {
        List<RowExpr> out = null;
        for (int i = 0; i < exprs.size(); i++) {
            RowExpr e = expr(exprs.get(i), columns);
            if (e != exprs.get(i) && out == null) {
                out = new ArrayList<>(exprs.subList(0, i));
            }
            if (out != null) {
                out.add(e);
            }
        }
        return out == null ? exprs : out;
    }
}
