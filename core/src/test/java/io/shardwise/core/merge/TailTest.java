package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class TailTest {
    private static final List<Column> ID = List.of(Columns.bigint("id"));

    @Test
    void passThroughReturnsTheSingleUnitItself() {
        TestCursor only = of(ID, row("1"));
        assertSame(only, Merger.merge(List.of(only), new MergeSpec.PassThrough()));
    }

    @Test
    void concatReturnsEveryUnitsRowsInUnitOrder() {
        ResultCursor merged = Merger.merge(List.of(of(ID, row("3"), row("1")), of(ID), of(ID, row("2"))),
                new MergeSpec.Concat(MergeSpec.Tail.NONE));
        assertEquals(List.of(row("3"), row("1"), row("2")), Drain.rows(merged));
    }

    @Test
    void offsetAndLimitApplyAfterTheMergeAndCloseTheUnitsAtTheLimit() {
        TestCursor a = of(ID, row("1"), row("3"), row("5"), row("7"), row("9"));
        TestCursor b = of(ID, row("2"), row("4"), row("6"), row("8"), row("10"));
        ResultCursor merged = Merger.merge(List.of(a, b),
                new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), new MergeSpec.Tail(false, 2, 3, -1)));
        assertEquals(List.of(row("3"), row("4"), row("5")), Drain.rows(merged));
        assertTrue(a.closed() && b.closed());
        assertTrue(a.rowsRead + b.rowsRead <= 6, "read " + (a.rowsRead + b.rowsRead) + " rows for offset 2 limit 3");
    }

    @Test
    void limitZeroReadsNothing() {
        TestCursor a = of(ID, row("1"));
        ResultCursor merged = Merger.merge(List.of(a), new MergeSpec.Concat(new MergeSpec.Tail(false, 0, 0, -1)));
        assertFalse(merged.next());
        assertEquals(0, a.rowsRead);
        assertTrue(a.closed());
    }

    @Test
    void visibleColumnsHideTrailingHelpers() {
        List<Column> cols = List.of(Columns.varchar("name"), Columns.weight("w"));
        ResultCursor merged = Merger.merge(List.of(of(cols, row("a", "A"))),
                new MergeSpec.Concat(new MergeSpec.Tail(false, 0, -1, 1)));
        assertEquals(List.of("name"), merged.columns().stream().map(Column::name).toList());
        assertTrue(merged.next());
        assertThrows(IndexOutOfBoundsException.class, () -> merged.get(1));
    }

    @Test
    void distinctUsesTheWeightColumnWhenThePlanHasOne() {
        List<Column> cols = List.of(Columns.varchar("name"), Columns.weight("w"));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("apple", "APPLE"), row("bob", "BOB")),
                of(cols, row("Apple", "APPLE"), row("Bob", "BOB"), row("carol", "CAROL"))),
                new MergeSpec.SortedMerge(List.of(new SortKey(0, false, 1)), new MergeSpec.Tail(true, 0, -1, 1)));
        assertEquals(List.of(row("apple"), row("bob"), row("carol")), Drain.rows(merged));
    }

    @Test
    void distinctWithoutWeightComparesBytesAndTreatsNullsAsEqual() {
        List<Column> cols = List.of(Columns.varchar("name"), Columns.bigint("n"));
        ResultCursor merged = Merger.merge(List.of(
                of(cols, row("apple", "1"), row(null, null), row("Apple", "1")),
                of(cols, row("apple", "1"), row(null, null), row("apple", "2"))),
                new MergeSpec.Concat(new MergeSpec.Tail(true, 0, -1, -1)));
        assertEquals(List.of(row("apple", "1"), row(null, null), row("Apple", "1"), row("apple", "2")), Drain.rows(merged));
    }

    @Test
    void distinctComesBeforeOffsetAndLimit() {
        ResultCursor merged = Merger.merge(List.of(of(ID, row("1"), row("1"), row("2")), of(ID, row("1"), row("2"), row("3"))),
                new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), new MergeSpec.Tail(true, 1, 1, -1)));
        assertEquals(List.of(row("2")), Drain.rows(merged));
    }
}
