package io.shardwise.core.merge;

import static io.shardwise.core.merge.Drain.row;
import static io.shardwise.core.merge.TestCursor.of;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.SortKey;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorHandlingTest {
    private static final List<Column> ID = List.of(Columns.bigint("id"));

    private static List<MergeSpec> everyMultiUnitSpec() {
        return List.of(new MergeSpec.Concat(MergeSpec.Tail.NONE),
                new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), MergeSpec.Tail.NONE),
                new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(), true, null, List.of(), MergeSpec.Tail.NONE),
                new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(), false, null, List.of(), MergeSpec.Tail.NONE),
                new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(AggregateSlot.Kind.COUNT, 0)), false, null,
                        List.of(), MergeSpec.Tail.NONE));
    }

    @Test
    void aUnitErrorPropagatesUnchangedAndClosesEveryUnit() {
        for (MergeSpec spec : everyMultiUnitSpec()) {
            ShardwiseException boom = new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
            TestCursor a = of(ID, row("1"), row("3"));
            TestCursor b = of(ID, row("2"), row("4")).failingAt(1, boom);
            TestCursor c = of(ID, row("5"));
            ResultCursor merged = Merger.merge(List.of(a, b, c), spec);
            ShardwiseException thrown = assertThrows(ShardwiseException.class, () -> Drain.rows(merged), spec.explain());
            assertSame(boom, thrown, spec.explain());
            assertTrue(a.closed() && b.closed() && c.closed(), spec.explain());
            assertFalse(merged.next(), "after an error the cursor is finished");
            merged.close();
            assertEquals(1, a.closeCount, "each unit is closed exactly once");
        }
    }

    @Test
    void closeIsIdempotentAndNeverThrowsEvenWhenAUnitsCloseDoes() {
        TestCursor good = of(ID, row("1"));
        ResultCursor bad = new ResultCursor() {
            @Override
            public List<Column> columns() {
                return ID;
            }

            @Override
            public boolean next() {
                return false;
            }

            @Override
            public byte[] get(int index) {
                throw new IllegalStateException();
            }

            @Override
            public void close() {
                throw new IllegalStateException("close failed");
            }
        };
        ResultCursor merged = Merger.merge(List.of(bad, good), new MergeSpec.Concat(MergeSpec.Tail.NONE));
        assertDoesNotThrow(merged::close);
        assertDoesNotThrow(merged::close);
        assertEquals(1, good.closeCount);
    }

    @Test
    void closingEarlyClosesEveryUnit() {
        TestCursor a = of(ID, row("1"), row("2"));
        TestCursor b = of(ID, row("3"));
        ResultCursor merged = Merger.merge(List.of(a, b), new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), MergeSpec.Tail.NONE));
        assertTrue(merged.next());
        merged.close();
        assertTrue(a.closed() && b.closed());
        assertFalse(merged.next());
    }

    @Test
    void backendErrorsKeepTheirOwnErrnoAndSqlState() {
        BackendException backend = new BackendException("ds1", new java.sql.SQLException("Table 'x.y' doesn't exist", "42S02", 1146));
        TestCursor a = of(ID, row("1")).failingAt(0, backend);
        ResultCursor merged = Merger.merge(List.of(of(ID, row("0")), a), new MergeSpec.Concat(MergeSpec.Tail.NONE));
        assertTrue(merged.next());
        BackendException thrown = assertThrows(BackendException.class, merged::next);
        assertSame(backend, thrown);
        assertEquals(1146, thrown.errno());
    }

    @Test
    void theResultsEndReleasesTheUnitsWithoutWaitingForClose() {
        TestCursor a = of(ID, row("1"));
        ResultCursor merged = Merger.merge(List.of(a, of(ID)), new MergeSpec.Concat(MergeSpec.Tail.NONE));
        Drain.rows(merged);
        assertTrue(a.closed());
    }
}
