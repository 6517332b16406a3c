package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PoolConfig;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.testkit.Await;
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
            // both backends run it (a fixed sleep here raced the start on a loaded machine: a cancel before it ran nothing)
            Await.until("both units run", () -> running("SELECT COUNT(*) FROM (SELECT 0 n%") >= 2);
            s.cancel();
            // without the kill the count runs for minutes and answers a number; the deadline only bounds a hang
            ExecutionException e = assertThrows(ExecutionException.class, () -> running.get(60, TimeUnit.SECONDS));
            assertEquals(1317, ((ShardwiseException) e.getCause()).errno());
        }
    }

    @Test
    void theStatementTimeoutEndsASlowStatementWith3024AsMaxExecutionTime() {
        try (ExecutionSession s = shards.session()) {
            s.setStatementTimeout(Duration.ofMillis(500));
            // SLOW runs for minutes: only the timeout's kill ends it with an error (no wall-clock bound, STYLE 25)
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
            // stopped, not read to its end: the close sent KILL QUERY (was a 3 s wall-clock bound, which a loaded CI
            // machine exceeded once; the count of kills tells the two apart on any machine)
            assertTrue(comKill() > kills, "closing the cursor early stopped the backend with KILL QUERY");
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

    /** Backend statements running whose text starts as {@code like} (a LIKE pattern). */
    private static long running(String like) {
        try (java.sql.Connection c = io.shardwise.testkit.TestBackends.shared().connect("");
             java.sql.PreparedStatement ps = c.prepareStatement(
                     "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE ?")) {
            ps.setString(1, like);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
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
