package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.route.SortKey;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * MySQL orders ENUM and SET values by their member index (a SET by its bit mask), not by their text,
 * in ORDER BY, in a grouped or DISTINCT result's order; MIN and MAX compare their text. The router
 * cannot see column types, so it asks every node for the WEIGHT_STRING of each ordering key, which is
 * the text's weight; this finds the keys the units' column types show to be ENUM or SET, whose weight
 * columns the router then computes as the member index instead ({@code Router.route(..., byIndex)}).
 */
public final class EnumKeys {
    private static final int ENUM_FLAG = 256;
    private static final int SET_FLAG = 2048;
    private static final int MYSQL_TYPE_ENUM = 247;
    private static final int MYSQL_TYPE_SET = 248;

    private EnumKeys() {}

    /** Whether a plan's merge orders by a key with a weight column at all (the cheap test first). */
    public static boolean mayNeed(RoutePlan route) {
        return route.units().size() > 1 && switch (route.merge()) {
            case MergeSpec.SortedMerge s -> weighted(s.keys());
            case MergeSpec.GroupedAggregate g -> weighted(g.groupKeys()) || weighted(g.order());
            case MergeSpec.Concat c -> false;
            case MergeSpec.PassThrough p -> false;
        };
    }

    /**
     * The weight columns, numbered as {@code route.merge()} numbers them, of the ordering keys whose
     * column is ENUM or SET in {@code unit}, a unit's columns (a {@code *} expanded).
     */
    public static Set<Integer> weightColumns(RoutePlan route, List<Column> unit) {
        MergeSpec spec = route.mergeFor(unit.size());
        // hidden columns follow the items: a * wider than assumed shifts them all alike
        int shift = route.starItem() >= 0 && route.assumedWidth() >= 0 ? unit.size() - route.assumedWidth() : 0;
        Set<Integer> out = new HashSet<>();
        switch (spec) {
            case MergeSpec.SortedMerge s -> collect(s.keys(), unit, shift, out);
            case MergeSpec.GroupedAggregate g -> {
                collect(g.groupKeys(), unit, shift, out);
                List<SortKey> groupOrder = new java.util.ArrayList<>(g.order());
                // an aggregate's merged value is left to its slot: MIN/MAX of an ENUM merge by text (as MySQL
                // computes them), and their weight column serves that; ORDER BY MAX(e) still sorts by text here
                groupOrder.removeIf(k -> g.aggregates().stream().anyMatch(a -> a.column() == k.column()));
                collect(groupOrder, unit, shift, out);
            }
            case MergeSpec.Concat c -> { }
            case MergeSpec.PassThrough p -> { }
        }
        return out;
    }

    /**
     * Whether {@link #weightColumns} of {@code unit} would name any column: {@link #mayNeed} first, then the
     * same keys looked at without collecting them (a merge's per-execute test, allocation-free).
     */
    public static boolean needed(RoutePlan route, List<Column> unit) {
        if (!mayNeed(route)) {
            return false;
        }
        return switch (route.mergeFor(unit.size())) {
            case MergeSpec.SortedMerge s -> any(s.keys(), unit, null);
            case MergeSpec.GroupedAggregate g -> any(g.groupKeys(), unit, null) || any(g.order(), unit, g.aggregates());
            case MergeSpec.Concat c -> false;
            case MergeSpec.PassThrough p -> false;
        };
    }

    /** Whether a key of {@code keys} (other than one on an aggregate's column of {@code skip}) is ENUM or SET in {@code unit}. */
    private static boolean any(List<SortKey> keys, List<Column> unit, List<AggregateSlot> skip) {
        for (int i = 0; i < keys.size(); i++) {
            SortKey k = keys.get(i);
            if (k.weightColumn() >= 0 && k.column() < unit.size() && isEnumOrSet(unit.get(k.column())) && !aggregated(k.column(), skip)) {
                return true;
            }
        }
        return false;
    }

    private static boolean aggregated(int column, List<AggregateSlot> slots) {
        if (slots != null) {
            for (int i = 0; i < slots.size(); i++) {
                if (slots.get(i).column() == column) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean weighted(List<SortKey> keys) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i).weightColumn() >= 0) {
                return true;
            }
        }
        return false;
    }

    private static void collect(List<SortKey> keys, List<Column> unit, int shift, Set<Integer> out) {
        for (SortKey k : keys) {
            if (k.weightColumn() >= 0 && k.column() < unit.size() && isEnumOrSet(unit.get(k.column()))) {
                out.add(k.weightColumn() - shift);
            }
        }
    }

    static boolean isEnumOrSet(Column c) {
        return (c.flags() & (ENUM_FLAG | SET_FLAG)) != 0 || c.mysqlType() == MYSQL_TYPE_ENUM || c.mysqlType() == MYSQL_TYPE_SET;
    }
}
