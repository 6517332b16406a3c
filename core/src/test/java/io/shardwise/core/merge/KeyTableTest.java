package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTableTest {
    private static final int[] VALUE = {0};
    private static final int[] WEIGHT = {1};

    @Test
    void aNullValueIsItsOwnKeyApartFromAnEmptyOneEvenWithANullWeight() {
        KeyTable table = new KeyTable(VALUE, WEIGHT, VALUE, WEIGHT, 4);
        byte[][] nullValue = {null, null};
        byte[][] emptyValue = {bytes(""), null};
        byte[][] emptyWeight = {bytes("x"), bytes("")};
        assertEquals(0, keep(table, nullValue));
        assertEquals(1, keep(table, emptyValue));
        assertEquals(0, table.find(Row.of(new byte[][] {null, bytes("w")})));
        // a NULL weight of a non-NULL value counts as an empty weight
        assertEquals(1, table.find(Row.of(emptyWeight)));
        assertEquals(2, table.size());
    }

    @Test
    void valuesWithEqualWeightsAreOneKeyAndTheKeptRowIsNotCopied() {
        KeyTable table = new KeyTable(VALUE, WEIGHT, VALUE, WEIGHT, 4);
        byte[][] apple = {bytes("apple"), bytes("APPLE")};
        keep(table, apple);
        assertEquals(0, table.find(Row.of(new byte[][] {bytes("Apple"), bytes("APPLE")})));
        assertEquals(-1, table.find(Row.of(new byte[][] {bytes("apple"), bytes("APPLF")})));
    }

    @Test
    void entriesKeepTheirNumbersInOrderOfFirstAppearanceAcrossGrowth() {
        KeyTable table = new KeyTable(new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}, new int[] {0, 1}, 1);
        List<byte[][]> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(new byte[][] {bytes(Integer.toString(i % 37)), bytes(Integer.toString(i))});
            assertEquals(i, keep(table, rows.get(i)));
        }
        for (int i = 999; i >= 0; i--) {
            assertEquals(i, table.find(Row.of(new byte[][] {bytes(Integer.toString(i % 37)), bytes(Integer.toString(i))})));
        }
    }

    @Test
    void aCompactKeyRowMatchesTheRowItWasTakenFrom() {
        int[] values = {0, 2};
        int[] identities = {1, 2};
        int[] compact = {0, 1};
        KeyTable table = new KeyTable(values, identities, compact, compact, 4);
        byte[][] row = {bytes("a"), bytes("A"), null};
        table.find(Row.of(row));
        byte[][] key = table.keyOf(Row.of(row));
        assertEquals(0, table.add(key));
        row[1][0] = 'B'; // the kept key is a copy
        assertEquals(0, table.find(Row.of(new byte[][] {bytes("b"), bytes("A"), null})));
        assertEquals(-1, table.find(Row.of(new byte[][] {bytes("b"), bytes("A"), bytes("")})));
    }

    @Test
    void weightsThatAllApplyLeaveTheSpecItself() {
        List<Column> columns = List.of(Columns.varchar("c"), Columns.weight("w"), Columns.bigint("n"));
        List<SortKey> byWeight = List.of(new SortKey(0, false, 1));
        MergeSpec.GroupedAggregate grouped = new MergeSpec.GroupedAggregate(byWeight, List.of(AggregateSlot.of(AggregateSlot.Kind.COUNT, 2)),
                false, new RowExpr.Compare(RowExpr.CompareOp.GT, new RowExpr.ColumnRef(0, 1), new RowExpr.Constant(1L)), byWeight,
                MergeSpec.Tail.NONE);
        assertSame(grouped, Weights.applicable(grouped, columns));
        MergeSpec.SortedMerge sorted = new MergeSpec.SortedMerge(byWeight, MergeSpec.Tail.NONE);
        assertSame(sorted, Weights.applicable(sorted, columns));
        // a number's weight is dropped, the rest kept as they were
        MergeSpec.SortedMerge numberToo = new MergeSpec.SortedMerge(List.of(new SortKey(0, false, 1), new SortKey(2, true, 1)),
                MergeSpec.Tail.NONE);
        assertEquals(List.of(new SortKey(0, false, 1), new SortKey(2, true, -1)),
                ((MergeSpec.SortedMerge) Weights.applicable(numberToo, columns)).keys());
    }

    private static int keep(KeyTable table, byte[][] row) {
        assertEquals(-1, table.find(Row.of(row)));
        return table.add(row);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
