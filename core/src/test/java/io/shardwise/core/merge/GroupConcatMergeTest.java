package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.AggregateSlot.Kind;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GROUP_CONCAT pieces merged: user_id, GROUP_CONCAT(...) piece, hidden: weight(user_id), the key (qty, a
 * number: no weight), status (a string), weight(status), the separator.
 */
class GroupConcatMergeTest {
    private static final List<Column> COLUMNS = List.of(Columns.bigint("user_id"), Columns.varchar("gc"), Columns.weight("wu"),
            Columns.integer("qty"), Columns.varchar("status"), Columns.weight("ws"), Columns.varchar("sep"));
    private static final MergeSpec.Tail SHOW_2 = new MergeSpec.Tail(false, 0, -1, 2);

    private static List<List<String>> merge(List<ResultCursor> units, AggregateSlot.Concat concat) {
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)),
                List.of(new AggregateSlot(Kind.GROUP_CONCAT, 1, -1, -1, -1, concat)), false, null, List.of(new SortKey(0, false, -1)), SHOW_2);
        return Drain.rows(Merger.merge(units, spec));
    }

    @Test
    void piecesAreSortedByTheirKeysNumericallyAcrossUnitsAndJoinedWithTheUnitsSeparator() {
        // ORDER BY qty DESC: 10 > 9 > 2 as numbers (as text '9' > '10'); a NULL piece (NULL argument) is skipped
        List<ResultCursor> units = List.of(
                of(COLUMNS, row("1", "a;b", "", "2", "x", "X", "; "), row("1", "c", "", "10", "y", "Y", "; "), row("2", null, "", "1", null, null, "; ")),
                of(COLUMNS, row("1", "d", "", "9", "z", "Z", "; ")));
        AggregateSlot.Concat byQtyDesc = new AggregateSlot.Concat(List.of(new SortKey(3, true, -1)), List.of(), false, 6, -1);
        assertEquals(List.of(row("1", "c; d; a;b"), row("2", null)), merge(units, byQtyDesc));
    }

    @Test
    void distinctKeepsOneOfEqualArgumentsUnderTheCollationAndTheDefaultSeparatorIsAComma() {
        // GROUP_CONCAT(DISTINCT status ORDER BY status): 'Paid' and 'paid' weigh the same, the first seen is kept
        java.util.function.Supplier<List<ResultCursor>> units = () -> List.of(
                of(COLUMNS, row("1", "paid", "", "1", "paid", "PAID", null), row("1", "new", "", "1", "new", "NEW", null)),
                of(COLUMNS, row("1", "Paid", "", "1", "Paid", "PAID", null), row("1", "ant", "", "1", "ant", "ANT", null)));
        SortKey status = new SortKey(4, false, 5);
        AggregateSlot.Concat distinct = new AggregateSlot.Concat(List.of(status), List.of(status), true, -1, -1);
        assertEquals(List.of(row("1", "ant,new,paid")), merge(units.get(), distinct));
        AggregateSlot.Concat all = new AggregateSlot.Concat(List.of(status), List.of(), false, -1, -1);
        assertEquals("ant,new,", merge(units.get(), all).get(0).get(1).substring(0, 8));
        assertEquals(4, merge(units.get(), all).get(0).get(1).split(",").length);
    }

    @Test
    void aGlobalGroupConcatOverNoRowsIsNull() {
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.GROUP_CONCAT, 1, -1, -1, -1,
                new AggregateSlot.Concat(List.of(), List.of(), false, -1, -1))), false, null, List.of(), SHOW_2);
        assertEquals(List.of(row(null, null)), Drain.rows(Merger.merge(List.of(of(COLUMNS), of(COLUMNS)), spec)));
    }

    @Test
    void theJoinedValueIsCutAtTheUnitsGroupConcatMaxLenWithWarning1260() {
        List<Column> columns = List.of(Columns.bigint("user_id"), Columns.varchar("gc"), Columns.integer("k"), Columns.bigint("max"));
        // max 8 bytes: "aa,bb,cé" is 9 bytes, é is bytes 7 and 8 (from 0), so the cut drops the whole é
        List<ResultCursor> units = List.of(of(columns, row("1", "aa", "1", "8"), row("1", "cé", "3", "8")),
                of(columns, row("1", "bb", "2", "8")));
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(new AggregateSlot(Kind.GROUP_CONCAT,
                1, -1, -1, -1, new AggregateSlot.Concat(List.of(new SortKey(2, false, -1)), List.of(), false, -1, 3))), false, null,
                List.of(), SHOW_2);
        List<io.shardwise.core.execute.Condition> warnings = new java.util.ArrayList<>();
        assertEquals(List.of(row("1", "aa,bb,c")), Drain.rows(Merger.merge(units, spec, warnings::add)));
        assertEquals(List.of(new io.shardwise.core.execute.Condition(io.shardwise.core.execute.Condition.Level.WARNING, 1260,
                "Row 3 was cut by GROUP_CONCAT()")), warnings);
    }

    @Test
    void jsonArrayaggPiecesJoinInsideOneArrayAsMariadbPrintsItAndCutBeforeTheClosingBracket() {
        List<Column> columns = List.of(Columns.bigint("user_id"), Columns.varchar("j"), Columns.integer("k"), Columns.bigint("max"));
        java.util.function.Supplier<List<ResultCursor>> units = () -> List.of(
                of(columns, row("1", "[1000,1000]", "1000", "1024"), row("1", "[null]", null, "1024")),
                of(columns, row("1", "[\"q\\\"u\"]", "5", "1024"), row("2", "[3]", "3", "1024")));
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(new AggregateSlot(Kind.JSON_ARRAYAGG,
                1, -1, -1, -1, new AggregateSlot.Concat(List.of(new SortKey(2, true, -1)), List.of(), false, -1, 3))), false, null,
                List.of(new SortKey(0, false, -1)), SHOW_2);
        // ORDER BY k DESC: 1000, 5, NULL (last descending); MariaDB: [1000,1000,"q\"u",null]
        assertEquals(List.of(row("1", "[1000,1000,\"q\\\"u\",null]"), row("2", "[3]")), Drain.rows(Merger.merge(units.get(), spec)));
        List<ResultCursor> cut = List.of(of(columns, row("1", "[1000]", "1", "8"), row("1", "[2000]", "2", "8")),
                of(columns, row("1", "[3000]", "3", "8")));
        List<io.shardwise.core.execute.Condition> warnings = new java.util.ArrayList<>();
        MergeSpec ascending = new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(new AggregateSlot(Kind.JSON_ARRAYAGG,
                1, -1, -1, -1, new AggregateSlot.Concat(List.of(new SortKey(2, false, -1)), List.of(), false, -1, 3))), false, null,
                List.of(), SHOW_2);
        // MariaDB, group_concat_max_len = 8: [1000,200] and "Row 2 was cut by JSON_ARRAYAGG()"
        assertEquals(List.of(row("1", "[1000,200]")), Drain.rows(Merger.merge(cut, ascending, warnings::add)));
        assertEquals(List.of(new io.shardwise.core.execute.Condition(io.shardwise.core.execute.Condition.Level.WARNING, 1260,
                "Row 2 was cut by JSON_ARRAYAGG()")), warnings);
    }

    @Test
    void jsonObjectaggMembersJoinWithACommaAndASpaceKeepingDuplicateKeysAndNullOverNoRows() {
        List<Column> columns = List.of(Columns.bigint("user_id"), Columns.varchar("j"));
        List<ResultCursor> units = List.of(of(columns, row("1", "{\"a\":1, \"b\":null}")), of(columns, row("1", "{\"a\":3}")), of(columns));
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(new AggregateSlot(Kind.JSON_OBJECTAGG,
                1, -1, -1, -1, new AggregateSlot.Concat(List.of(), List.of(), false, -1, -1))), false, null, List.of(), SHOW_2);
        assertEquals(List.of(row("1", "{\"a\":1, \"b\":null, \"a\":3}")), Drain.rows(Merger.merge(units, spec)));
        MergeSpec global = new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.JSON_OBJECTAGG, 1, -1, -1, -1,
                new AggregateSlot.Concat(List.of(), List.of(), false, -1, -1))), false, null, List.of(), SHOW_2);
        assertEquals(List.of(row(null, null)), Drain.rows(Merger.merge(List.of(of(columns), of(columns)), global)));
    }
}
