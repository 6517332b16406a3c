package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class SortedMergeTest {
    private static final MergeSpec.Tail NONE = MergeSpec.Tail.NONE;

    private static MergeSpec.SortedMerge by(SortKey... keys) {
        return new MergeSpec.SortedMerge(List.of(keys), NONE);
    }

    @Test
    void unsignedBigintsMergeNumericallyAboveLongMax() {
        List<Column> cols = List.of(Columns.unsignedBigint("u"));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("1"), row("9223372036854775808"), row("18446744073709551615")),
                of(cols, row("9"), row("9223372036854775807"))), by(SortKey.ascending(0)));
        assertEquals(List.of(row("1"), row("9"), row("9223372036854775807"), row("9223372036854775808"),
                row("18446744073709551615")), Drain.rows(merged));
    }

    @Test
    void negativeAndLongTimesMergeInTimeOrder() {
        List<Column> cols = List.of(Columns.time("t"));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("-838:59:59"), row("-00:00:01"), row("100:00:00")),
                of(cols, row("-01:00:00"), row("00:00:00"), row("23:59:59"))), by(SortKey.ascending(0)));
        assertEquals(List.of(row("-838:59:59"), row("-01:00:00"), row("-00:00:01"), row("00:00:00"), row("23:59:59"),
                row("100:00:00")), Drain.rows(merged));
    }

    @Test
    void nullsComeFirstAscendingAndLastDescending() {
        List<Column> cols = List.of(Columns.decimal("d", 2));
        List<List<String>> asc = Drain.rows(Merger.merge(List.of(
                of(cols, row((String) null), row("-1.50"), row("2.00")),
                of(cols, row((String) null), row("0.00"))), by(SortKey.ascending(0))));
        assertEquals(List.of(row((String) null), row((String) null), row("-1.50"), row("0.00"), row("2.00")), asc);
        List<List<String>> desc = Drain.rows(Merger.merge(List.of(
                of(cols, row("2.00"), row("-1.50"), row((String) null)),
                of(cols, row("10.00"), row((String) null))), by(new SortKey(0, true, -1))));
        assertEquals(List.of(row("10.00"), row("2.00"), row("-1.50"), row((String) null), row((String) null)), desc);
    }

    @Test
    void decimalsOfDifferentScalesMergeByValue() {
        List<Column> cols = List.of(Columns.decimal("d", 3));
        List<List<String>> rows = Drain.rows(Merger.merge(List.of(
                of(cols, row("-10.5"), row("1.25"), row("9.999")),
                of(cols, row("-9.75"), row("1.3"), row("10"))), by(SortKey.ascending(0))));
        assertEquals(List.of(row("-10.5"), row("-9.75"), row("1.25"), row("1.3"), row("9.999"), row("10")), rows);
    }

    @Test
    void doublesMergeNumerically() {
        List<Column> cols = List.of(Columns.dbl("f"));
        List<List<String>> rows = Drain.rows(Merger.merge(List.of(
                of(cols, row("-1e20"), row("0.5"), row("1e15")),
                of(cols, row("-3"), row("2"), row("999999999999999"))), by(SortKey.ascending(0))));
        assertEquals(List.of(row("-1e20"), row("-3"), row("0.5"), row("2"), row("999999999999999"), row("1e15")), rows);
    }

    @Test
    void weightTiesKeepUnitOrderSoTheMergeIsStable() {
        // 'apple' and 'Apple' have one weight under utf8mb4_general_ci; the bytes would put 'Apple' first.
        List<Column> cols = List.of(Columns.varchar("name"), Columns.weight("w"));
        List<List<String>> rows = Drain.rows(Merger.merge(List.of(
                of(cols, row("apple", "APPLE"), row("bob", "BOB")),
                of(cols, row("Apple", "APPLE"), row("Bob", "BOB"))),
                new MergeSpec.SortedMerge(List.of(new SortKey(0, false, 1)), new MergeSpec.Tail(false, 0, -1, 1))));
        assertEquals(List.of(row("apple"), row("Apple"), row("bob"), row("Bob")), rows);
    }

    @Test
    void laterKeysBreakTiesOfEarlierOnesInTheirOwnDirection() {
        List<Column> cols = List.of(Columns.decimal("amount", 2), Columns.bigint("id"));
        List<List<String>> rows = Drain.rows(Merger.merge(List.of(
                of(cols, row("5.00", "1"), row("5.00", "7"), row("1.00", "2")),
                of(cols, row("5.00", "3"), row("1.00", "4"))),
                by(new SortKey(0, true, -1), SortKey.ascending(1))));
        assertEquals(List.of(row("5.00", "1"), row("5.00", "3"), row("5.00", "7"), row("1.00", "2"), row("1.00", "4")), rows);
    }

    @Test
    void noUnitIsReadMoreThanOneRowAheadOfTheOutput() {
        List<Column> cols = List.of(Columns.bigint("k"));
        TestCursor a = of(cols, row("1"), row("2"), row("3"), row("4"));
        TestCursor b = of(cols, row("10"), row("11"), row("12"));
        ResultCursor merged = Merger.merge(List.of(a, b), by(SortKey.ascending(0)));
        for (int emitted = 1; emitted <= 4; emitted++) {
            assertTrue(merged.next());
            assertEquals(emitted, a.rowsRead, "a is read up to the row just handed out, no further");
            assertEquals(1, b.rowsRead, "b only has its head read");
        }
        assertTrue(merged.next());
        assertEquals("10", new String(merged.get(0)));
        assertTrue(a.closed(), "an exhausted unit is released at once");
        assertEquals(1, b.rowsRead);
        merged.close();
    }

    @Test
    void datetimesMergeWithZeroDatesFirst() {
        List<Column> cols = List.of(Columns.datetime("at"));
        List<List<String>> rows = Drain.rows(Merger.merge(List.of(
                of(cols, row("0000-00-00 00:00:00"), row("2025-01-02 03:04:05")),
                of(cols, row("1999-12-31 23:59:59"), row("2025-01-02 03:04:06"))), by(SortKey.ascending(0))));
        assertEquals(List.of(row("0000-00-00 00:00:00"), row("1999-12-31 23:59:59"), row("2025-01-02 03:04:05"),
                row("2025-01-02 03:04:06")), rows);
    }
}
