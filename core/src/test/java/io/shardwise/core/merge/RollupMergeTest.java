package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.AggregateSlot.Kind;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** GROUP BY a, b WITH ROLLUP merged: a, b, COUNT(*), AVG(x) with its hidden SUM and COUNT. */
class RollupMergeTest {
    private static final List<Column> COLUMNS = List.of(Columns.bigint("a"), Columns.bigint("b"), Columns.bigint("n"),
            Columns.decimal("avg", 4), Columns.decimal("sum", 0), Columns.bigint("count"));

    private static MergeSpec spec(RowExpr having) {
        return new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1), new SortKey(1, false, -1)),
                List.of(AggregateSlot.of(Kind.COUNT, 2), new AggregateSlot(Kind.AVG, 3, 4, 5, -1)), List.of(), false, having, List.of(),
                new MergeSpec.Tail(false, 0, -1, 4), true);
    }

    private static List<ResultCursor> units() {
        // the units' plain groups, partly the same groups on both: (1,1) (1,2) (2,1) and a real NULL a
        return List.of(of(COLUMNS, row("2", "1", "1", "4", "4", "1"), row("1", "1", "2", "3", "6", "2"), row(null, "5", "1", "1", "1", "1")),
                of(COLUMNS, row("1", "2", "1", "10", "10", "1"), row("1", "1", "1", "9", "9", "1")));
    }

    @Test
    void superAggregatesMergeTheUnitsPartialsAndFollowTheirGroupsAsMysqlOrdersThem() {
        assertEquals(List.of(
                row(null, "5", "1", "1.0000"), row(null, null, "1", "1.0000"),
                row("1", "1", "3", "5.0000"), row("1", "2", "1", "10.0000"), row("1", null, "4", "6.2500"),
                row("2", "1", "1", "4.0000"), row("2", null, "1", "4.0000"),
                row(null, null, "6", "5.0000")), Drain.rows(Merger.merge(units(), spec(null))));
    }

    @Test
    void havingFiltersTheSuperAggregateRowsToo() {
        RowExpr moreThanOne = new RowExpr.Compare(RowExpr.CompareOp.GT, new RowExpr.ColumnRef(2, -1), new RowExpr.Constant(1L));
        assertEquals(List.of(row("1", "1", "3"), row("1", null, "4"), row(null, null, "6")),
                Drain.rows(Merger.merge(units(), spec(moreThanOne))).stream().map(r -> r.subList(0, 3)).toList());
    }

    @Test
    void aRollupsGroupExpressionsAreDescribedNullableAsMariadbDescribesThemWhereTheUnitsSayNotNull() {
        Column notNull = new Column("", "", "", "a", "", Column.BINARY_COLLATION, 20, 8, Column.FLAG_NOT_NULL | Column.FLAG_BINARY, 0);
        Column count = new Column("", "", "", "n", "", Column.BINARY_COLLATION, 21, 8, Column.FLAG_NOT_NULL | Column.FLAG_BINARY, 0);
        Column tableColumn = new Column("", "t", "t", "b", "b", Column.BINARY_COLLATION, 11, 3, Column.FLAG_NOT_NULL, 0);
        List<Column> columns = List.of(notNull, tableColumn, count, Columns.decimal("avg", 4), Columns.decimal("sum", 0), Columns.bigint("count"));
        List<Column> merged = Merger.merge(List.of(of(columns, row("1", "1", "1", "1", "1", "1"))), spec(null)).columns();
        assertFalse(merged.get(0).isNotNull(), "a GROUP BY constant or expression holds the super-aggregate rows' NULL");
        assertTrue(merged.get(1).isNotNull(), "a bare table column keeps its flags, as MariaDB describes it");
        assertTrue(merged.get(2).isNotNull(), "COUNT(*) stays NOT NULL");
        assertEquals(Column.FLAG_BINARY, merged.get(0).flags(), "the other flags stay");
    }
}
