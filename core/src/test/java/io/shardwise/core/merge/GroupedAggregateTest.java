package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.AggregateSlot.Kind;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class GroupedAggregateTest {
    /** status, COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(name), hidden: SUM, COUNT, WEIGHT_STRING(status), WEIGHT_STRING(name). */
    private static final List<Column> SHOP = List.of(Columns.varchar("status"), Columns.bigint("COUNT(*)"),
            Columns.decimal("SUM(amount)", 2), Columns.decimal("AVG(amount)", 6), Columns.decimal("MIN(amount)", 2),
            Columns.varchar("MAX(name)"), Columns.decimal("s", 2), Columns.bigint("c"), Columns.weight("ws"),
            Columns.weight("wn"));
    private static final List<AggregateSlot> SHOP_SLOTS = List.of(AggregateSlot.of(Kind.COUNT, 1), AggregateSlot.of(Kind.SUM, 2),
            new AggregateSlot(Kind.AVG, 3, 6, 7, -1), AggregateSlot.of(Kind.MIN, 4), new AggregateSlot(Kind.MAX, 5, -1, -1, 9));
    private static final MergeSpec.Tail SHOW_6 = new MergeSpec.Tail(false, 0, -1, 6);

    private static List<ResultCursor> shopUnits() {
        return List.of(
                of(SHOP, row("new", "1", "3.00", "3.000000", "3.00", "zed", "3.00", "1", "NEW", "ZED"),
                        row("paid", "2", "10.00", "5.000000", "4.00", "apple", "10.00", "2", "PAID", "APPLE")),
                of(SHOP, row("Paid", "1", "1.00", "1.000000", "1.00", "Apple", "1.00", "1", "PAID", "APPLE"),
                        row("shipped", "2", null, null, null, "bob", null, "0", "SHIPPED", "BOB")));
    }

    private static MergeSpec.GroupedAggregate shop(boolean sorted, List<SortKey> order, RowExpr having) {
        return new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 8)), SHOP_SLOTS, sorted, having, order, SHOW_6);
    }

    private static final List<List<String>> SHOP_RESULT = List.of(
            row("new", "1", "3.00", "3.000000", "3.00", "zed"),
            // 11.00 / 3 = 3.666666.. rounds half up at the AVG column's scale; 'apple' came first among equal weights
            row("paid", "3", "11.00", "3.666667", "1.00", "apple"),
            row("shipped", "2", null, null, null, "bob"));

    @Test
    void sortedUnitsMergeGroupsStreamingWithCaseInsensitiveKeys() {
        assertEquals(SHOP_RESULT, Drain.rows(Merger.merge(shopUnits(), shop(true, List.of(), null))));
    }

    @Test
    void groupsShareTheCellsOfUnitsThatKeepThemAndLeaveThemUnchanged() {
        List<ResultCursor> units = shopUnits();
        List<List<List<String>>> before = new java.util.ArrayList<>();
        for (ResultCursor u : units) {
            before.add(((TestCursor) u).keepingCells().snapshot());
        }
        for (boolean sorted : new boolean[] {true, false}) {
            List<ResultCursor> again = sorted ? shopUnits() : units;
            if (sorted) {
                again.forEach(u -> ((TestCursor) u).keepingCells());
            }
            assertEquals(SHOP_RESULT, Drain.rows(Merger.merge(again, shop(sorted, List.of(new SortKey(0, false, 8)), null))));
        }
        for (int i = 0; i < units.size(); i++) {
            assertEquals(before.get(i), ((TestCursor) units.get(i)).snapshot());
        }
    }

    @Test
    void hashedGroupingGivesTheSameGroupsInGroupKeyOrder() {
        List<ResultCursor> units = shopUnits();
        List<ResultCursor> reversed = List.of(units.get(1), units.get(0));
        List<List<String>> rows = Drain.rows(Merger.merge(reversed, shop(false, List.of(), null)));
        // same groups; from reversed units the first 'paid' row is 'Paid', and MAX's first equal weight is 'Apple'
        assertEquals(List.of(SHOP_RESULT.get(0), row("Paid", "3", "11.00", "3.666667", "1.00", "Apple"), SHOP_RESULT.get(2)), rows);
    }

    @Test
    void groupsAreOrderedByAnAggregateWhenAsked() {
        List<List<String>> rows = Drain.rows(Merger.merge(shopUnits(), shop(true, List.of(new SortKey(1, true, -1)), null)));
        assertEquals(List.of(SHOP_RESULT.get(1), SHOP_RESULT.get(2), SHOP_RESULT.get(0)), rows);
    }

    @Test
    void havingFiltersMergedGroupsNotUnitGroups() {
        // HAVING COUNT(*) > 1: no unit group of 'paid' has 2 rows... one does, but the merged count is what counts
        RowExpr countAbove2 = new RowExpr.Compare(RowExpr.CompareOp.GT, new RowExpr.ColumnRef(1, -1), new RowExpr.Constant(2L));
        assertEquals(List.of(SHOP_RESULT.get(1)), Drain.rows(Merger.merge(shopUnits(), shop(true, List.of(), countAbove2))));
        assertEquals(List.of(SHOP_RESULT.get(1)), Drain.rows(Merger.merge(shopUnits(), shop(false, List.of(), countAbove2))));
    }

    @Test
    void havingOnANullSumDropsTheGroup() {
        RowExpr sumBelow5 = new RowExpr.Compare(RowExpr.CompareOp.LT, new RowExpr.ColumnRef(2, -1), new RowExpr.Constant(5L));
        assertEquals(List.of(SHOP_RESULT.get(0)), Drain.rows(Merger.merge(shopUnits(), shop(true, List.of(), sumBelow5))));
    }

    @Test
    void globalAggregateOverOnlyEmptyUnitsIsOneRowWithCountZeroAndNulls() {
        List<Column> cols = List.of(Columns.varchar("name"), Columns.bigint("COUNT(*)"), Columns.decimal("SUM(x)", 0),
                Columns.decimal("AVG(x)", 4), Columns.integer("MIN(x)"), Columns.bigint("COUNT(DISTINCT x)"),
                Columns.decimal("s", 0), Columns.bigint("c"));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.COUNT, 1), AggregateSlot.of(Kind.SUM, 2),
                new AggregateSlot(Kind.AVG, 3, 6, 7, -1), AggregateSlot.of(Kind.MIN, 4), AggregateSlot.of(Kind.COUNT_DISTINCT, 5));
        for (boolean sorted : new boolean[] {true, false}) {
            ResultCursor merged = Merger.merge(List.of(of(cols), of(cols)),
                    new MergeSpec.GroupedAggregate(List.of(), slots, sorted, null, List.of(), new MergeSpec.Tail(false, 0, -1, 6)));
            assertEquals(List.of(row(null, "0", null, null, null, "0")), Drain.rows(merged));
        }
    }

    @Test
    void globalAggregateAddsTheUnitsPartialResults() {
        List<Column> cols = List.of(Columns.bigint("COUNT(*)"), Columns.decimal("SUM(x)", 0), Columns.decimal("AVG(x)", 4),
                Columns.decimal("s", 0), Columns.bigint("c"));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.COUNT, 0), AggregateSlot.of(Kind.SUM, 1),
                new AggregateSlot(Kind.AVG, 2, 3, 4, -1));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("2", "-3", "-1.5000", "-3", "2")),
                of(cols, row("0", null, null, null, "0")),
                of(cols, row("1", "-2", "-2.0000", "-2", "1"))),
                new MergeSpec.GroupedAggregate(List.of(), slots, false, null, List.of(), new MergeSpec.Tail(false, 0, -1, 3)));
        // AVG = -5 / 3 = -1.66666.. -> -1.6667 (half up away from zero)
        assertEquals(List.of(row("3", "-5", "-1.6667")), Drain.rows(merged));
    }

    @Test
    void sumAndAverageOfDoublesAreRefusedForTheFederatedTier() {
        // MySQL adds a DOUBLE sum in its row order and prints 17 digits: a merge cannot promise the last ones
        List<Column> cols = List.of(Columns.bigint("g"), Columns.dbl("SUM(f)"), Columns.dbl("AVG(f)"), Columns.dbl("s"), Columns.bigint("c"));
        for (AggregateSlot slot : List.of(AggregateSlot.of(Kind.SUM, 1), new AggregateSlot(Kind.AVG, 2, 3, 4, -1),
                AggregateSlot.of(Kind.SUM_DISTINCT, 1), AggregateSlot.of(Kind.AVG_DISTINCT, 1))) {
            ShardwiseException refused = assertThrows(ShardwiseException.class, () -> Merger.merge(
                    List.of(of(cols, row("1", "0.1", "0.1", "0.1", "1")), of(cols, row("1", "0.2", "0.2", "0.2", "1"))),
                    new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(slot), true, null, List.of(),
                            new MergeSpec.Tail(false, 0, -1, 3))), slot.toString());
            assertEquals(ErrorCode.UNSUPPORTED, refused.code());
        }
    }

    @Test
    void unsignedBigintGroupKeysAndSumsStayExact() {
        List<Column> cols = List.of(Columns.unsignedBigint("k"), Columns.decimal("SUM(v)", 0));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.SUM, 1));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("9223372036854775808", "18446744073709551615"), row("18446744073709551615", "1")),
                of(cols, row("9223372036854775808", "18446744073709551615"))),
                new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), slots, true, null, List.of(), MergeSpec.Tail.NONE));
        assertEquals(List.of(row("9223372036854775808", "36893488147419103230"), row("18446744073709551615", "1")),
                Drain.rows(merged));
    }

    @Test
    void minAndMaxCompareByTypeNotByText() {
        List<Column> cols = List.of(Columns.time("MIN(t)"), Columns.time("MAX(t)"), Columns.decimal("MIN(d)", 3));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.MIN, 0), AggregateSlot.of(Kind.MAX, 1), AggregateSlot.of(Kind.MIN, 2));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("-01:00:00", "99:00:00", "-9.5")),
                of(cols, row("-838:59:59", "100:00:00", "-10.25")),
                of(cols, row(null, null, null))),
                new MergeSpec.GroupedAggregate(List.of(), slots, false, null, List.of(), MergeSpec.Tail.NONE));
        assertEquals(List.of(row("-838:59:59", "100:00:00", "-10.25")), Drain.rows(merged));
    }

    @Test
    void distinctAggregatesCountEachValueOnceAcrossUnitsByWeight() {
        // units group by (g, x): one row per distinct x; COUNT(*) of the unit groups is summed as usual
        List<Column> cols = List.of(Columns.bigint("g"), Columns.varchar("COUNT(DISTINCT x)"), Columns.bigint("COUNT(*)"),
                Columns.weight("wx"));
        List<AggregateSlot> slots = List.of(new AggregateSlot(Kind.COUNT_DISTINCT, 1, -1, -1, 3), AggregateSlot.of(Kind.COUNT, 2));
        Supplier<List<ResultCursor>> units = () -> List.of(
                of(cols, row("1", "apple", "2", "APPLE"), row("1", "bob", "1", "BOB"), row("2", "x", "1", "X")),
                of(cols, row("1", "Apple", "4", "APPLE"), row("1", "carol", "1", "CAROL"), row("1", null, "3", null)));
        for (boolean sorted : new boolean[] {true, false}) {
            ResultCursor merged = Merger.merge(units.get(), new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), slots,
                    sorted, null, List.of(), new MergeSpec.Tail(false, 0, -1, 3)));
            assertEquals(8, merged.columns().get(1).mysqlType(), "COUNT(DISTINCT) is a BIGINT whatever x is");
            assertEquals(List.of(row("1", "3", "11"), row("2", "1", "1")), Drain.rows(merged));
        }
    }

    @Test
    void groupsOrderByTheMergedDistinctCountNotByAWeightOfTheUnitsArgument() {
        // issue 12: ORDER BY COUNT(DISTINCT x) DESC, where a key's weight column held WEIGHT_STRING of one
        // unit row (x's, since the units return x in that column): groups came back in that order instead
        List<Column> cols = List.of(Columns.bigint("g"), Columns.varchar("COUNT(DISTINCT x)"), Columns.weight("wx"),
                Columns.weight("stale"));
        List<AggregateSlot> slots = List.of(new AggregateSlot(Kind.COUNT_DISTINCT, 1, -1, -1, 2));
        Supplier<List<ResultCursor>> units = () -> List.of(
                of(cols, row("1", "a", "A", "A"), row("2", "b", "B", "B"), row("2", "c", "C", "C")),
                of(cols, row("3", "z", "Z", "Z"), row("3", "y", "Y", "Y"), row("3", "x", "X", "X")));
        for (boolean sorted : new boolean[] {true, false}) {
            ResultCursor merged = Merger.merge(units.get(), new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), slots,
                    sorted, null, List.of(new SortKey(1, true, 3)), new MergeSpec.Tail(false, 0, -1, 2)));
            assertEquals(List.of(row("3", "3"), row("2", "2"), row("1", "1")), Drain.rows(merged));
        }
    }

    @Test
    void sumAndAvgDistinctAddEachValueOnce() {
        List<Column> cols = List.of(Columns.decimal("SUM(DISTINCT d)", 2), Columns.decimal("AVG(DISTINCT d)", 2));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.SUM_DISTINCT, 0), AggregateSlot.of(Kind.AVG_DISTINCT, 1));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("1.00", "1.00"), row("2.50", "2.50")),
                of(cols, row("2.50", "2.50"), row("-1.00", "-1.00"))),
                new MergeSpec.GroupedAggregate(List.of(), slots, false, null, List.of(), MergeSpec.Tail.NONE));
        assertEquals(246, merged.columns().get(1).mysqlType());
        assertEquals(6, merged.columns().get(1).decimals(), "AVG scale is the argument's + 4");
        // 1.00 + 2.50 - 1.00 = 2.50 over 3 values = 0.833333..
        assertEquals(List.of(row("2.50", "0.833333")), Drain.rows(merged));
    }

    @Test
    void groupsOfNullKeysFormOneGroup() {
        List<Column> cols = List.of(Columns.varchar("k"), Columns.bigint("n"));
        List<AggregateSlot> slots = List.of(AggregateSlot.of(Kind.COUNT, 1));
        for (boolean sorted : new boolean[] {true, false}) {
            ResultCursor merged = Merger.merge(List.of(of(cols, row(null, "2"), row("", "1")), of(cols, row(null, "5"), row("", "1"))),
                    new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), slots, sorted, null, List.of(), MergeSpec.Tail.NONE));
            assertEquals(List.of(row(null, "7"), row("", "2")), Drain.rows(merged));
        }
    }

    @Test
    void groupedTailAppliesLimitAfterHavingAndOrder() {
        List<List<String>> rows = Drain.rows(Merger.merge(shopUnits(), new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 8)),
                SHOP_SLOTS, true, null, List.of(new SortKey(1, true, -1)), new MergeSpec.Tail(false, 1, 1, 2))));
        assertEquals(List.of(row("shipped", "2")), rows);
    }
}
