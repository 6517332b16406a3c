package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class EnumKeysTest {
    private static final List<ExecutionUnit> TWO = List.of(new ExecutionUnit("ds0", "q"), new ExecutionUnit("ds1", "q"));
    private static final Column ENUM = Columns.of("e", 254, 256, 0);

    @Test
    void neededAgreesWithTheWeightColumnsItWouldCollect() {
        List<Column> enumFirst = List.of(ENUM, Columns.weight("w"), Columns.bigint("n"));
        List<Column> textFirst = List.of(Columns.varchar("c"), Columns.weight("w"), Columns.bigint("n"));
        List<SortKey> byWeight = List.of(new SortKey(0, false, 1));
        List<MergeSpec> specs = List.of(
                new MergeSpec.SortedMerge(byWeight, MergeSpec.Tail.NONE),
                new MergeSpec.GroupedAggregate(byWeight, List.of(), false, null, List.of(), MergeSpec.Tail.NONE),
                // ORDER BY MAX(e): the aggregate's column merges by text, not by member index
                new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(2)), List.of(new AggregateSlot(AggregateSlot.Kind.MAX, 0, -1, -1, 1)),
                        false, null, byWeight, MergeSpec.Tail.NONE),
                new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(2)), List.of(AggregateSlot.of(AggregateSlot.Kind.COUNT, 0)),
                        false, null, List.of(new SortKey(0, true, 1)), MergeSpec.Tail.NONE),
                new MergeSpec.Concat(MergeSpec.Tail.NONE));
        int needed = 0;
        for (MergeSpec spec : specs) {
            RoutePlan route = new RoutePlan(RouteKind.SCATTER, TWO, spec);
            for (List<Column> unit : List.of(enumFirst, textFirst)) {
                boolean expected = EnumKeys.mayNeed(route) && !EnumKeys.weightColumns(route, unit).isEmpty();
                assertEquals(expected, EnumKeys.needed(route, unit), spec.explain() + " over " + unit.get(0).name());
                needed += expected ? 1 : 0;
            }
        }
        assertEquals(2, needed);
    }
}
