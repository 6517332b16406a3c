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
                    aggregates(g.aggregates(), starItem, extra), g.inputSortedByGroup(), g.having(),
                    keys(g.order(), starItem, extra), tail(g.tail(), extra));
        };
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
                    a.weightColumn() < 0 ? -1 : at(a.weightColumn(), starItem, extra)));
        }
        return out;
    }

    private static MergeSpec.Tail tail(MergeSpec.Tail t, int extra) {
        return t.visibleColumns() < 0 ? t : new MergeSpec.Tail(t.distinct(), t.offset(), t.limit(), t.visibleColumns() + extra);
    }
}
