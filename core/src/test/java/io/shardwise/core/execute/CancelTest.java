package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PoolConfig;
import io.shardwise.core.error.ShardwiseException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CancelTest {
    /** A billion-row join count: busy for far longer than any test, and killable (SLEEP would just return 1). */
    private static final String SLOW;
    private static final String MANY = "SELECT a.n + 10 * b.n + 100 * c.n + 1000 * d.n + 10000 * e.n FROM "
            + "(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL"
            + " SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9) a";
    private static Shards shards;

    static {
        String d = "(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL"
                + " SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
        StringBuilder sql = new StringBuilder("SELECT COUNT(*) FROM ");
        for (int i = 0; i < 9; i++) {
            sql.append(i == 0 ? "" : ", ").append(d).append(" t").append(i);
        }
        SLOW = sql.toString();
    }

    @BeforeAll
    static void createBackends() {
        // one connection per backend: whatever a test leaves on it, the next statement meets
        shards = new Shards(2, new PoolConfig(1, 0, Duration.ofSeconds(3), Duration.ofMinutes(1), Duration.ofMinutes(30)));
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
    }

    @AfterEach
    void noConnectionIsLeftCheckedOutAndBackendsStillAnswer() {
        assertEquals(0, shards.pools.activeConnections());
        try (ExecutionSession s = shards.session()) {
            assertEquals(List.of("1", "1"), s.execute(List.of(unit("ds0", "SELECT 1"), unit("ds1", "SELECT 1")))
                    .stream().map(Shards::single).toList());
        }
    }

    private static String many() {
        String digits = MANY.substring(MANY.indexOf("(SELECT 0"), MANY.length() - 2);
        return MANY + ", " + digits + " b, " + digits + " c, " + digits + " d, " + digits + " e";
    }

    @Test
    void cancelInterruptsEveryRunningUnitWith1317() throws Exception {
        try (ExecutionSession s = shards.session()) {
            // the backends send column definitions first: the kill arrives while the cursors wait for rows
            CompletableFuture<List<List<String>>> running = CompletableFuture.supplyAsync(
                    () -> s.execute(List.of(unit("ds0", SLOW), unit("ds1", SLOW))).stream().map(Shards::single)
                            .map(List::of).toList(), Shards.THREADS);
            Thread.sleep(400);
            s.cancel();
            // 1317 is the kill's (SLOW would run for hours otherwise); the bound only stops a hang, it times nothing
            ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(2, TimeUnit.MINUTES));
            assertEquals(1317, ((ShardwiseException) e.getCause()).errno());
        }
    }

    @Test
    void theStatementTimeoutEndsASlowStatementWith3024AsMaxExecutionTime() {
        try (ExecutionSession s = shards.session()) {
            s.setStatementTimeout(Duration.ofMillis(500));
            // SLOW runs for hours: that it ends at all, with 3024, is the timeout's doing (no wall-clock assertion:
            // CI's two cores are shared and a loaded machine stretches any bound)
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> single(s.execute(List.of(unit("ds0", SLOW))).getFirst()));
            assertEquals(3024, e.errno(), "MySQL's ER_QUERY_TIMEOUT, not the 1317 of a KILL QUERY");
            assertEquals("HY000", e.sqlState());
            assertEquals("1", single(s.execute(List.of(unit("ds0", "SELECT 1"))).getFirst()), "fast statements still pass");
        }
    }

    @Test
    void closingACursorEarlyStopsTheBackendAndLeavesTheConnectionUsable() throws Exception {
        long kills = comKill();
        try (ExecutionSession s = shards.session()) {
            String id;
            try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0", many()))).getFirst()).cursor()) {
                assertTrue(c.next());
                id = single(s.execute(List.of(unit("ds1", "SELECT 'other backend'"))).getFirst());
            }
            assertEquals("other backend", id);
            // stopped by a KILL QUERY rather than read to the end of its 100,000 rows (counted, not timed: a
            // wall-clock bound failed on a loaded CI machine)
            assertTrue(comKill() > kills, "the backend's statement was killed");
            List<List<String>> r = rows(s.execute(List.of(unit("ds0", "SELECT 42"))).getFirst());
            assertEquals(List.of(List.of("42")), r);
        }
    }

    @Test
    void closingAShortResultAfterItsLastRowNeedsNoKill() throws Exception {
        long before = comKill();
        try (ExecutionSession s = shards.session()) {
            for (int i = 0; i < 20; i++) {
                try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0", "SELECT " + i))).getFirst()).cursor()) {
                    assertTrue(c.next()); // the one row, then close without asking for the end
                }
            }
        }
        assertEquals(before, comKill(), "a result that ends within a few rows is read to its end, not killed");
    }

    private static long comKill() throws Exception {
        try (java.sql.Connection c = io.shardwise.testkit.TestBackends.shared().connect("");
             java.sql.ResultSet rs = c.createStatement().executeQuery("SHOW GLOBAL STATUS LIKE 'Com_kill'")) {
            assertTrue(rs.next());
            return rs.getLong(2);
        }
    }

    @Test
    void aCursorLeftOpenInATransactionIsClosedByTheNextStatement() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            ResultCursor open = ((UnitResult.Rows) s.execute(List.of(unit("ds0", many()))).getFirst()).cursor();
            assertTrue(open.next());
            assertEquals("7", single(s.execute(List.of(unit("ds0", "SELECT 7"))).getFirst()));
            assertTrue(!open.next(), "the earlier cursor was ended");
            s.commit();
        }
    }
}
