package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.insert;
import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ShardwiseException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import io.shardwise.core.config.TransactionConfig;
import io.shardwise.testkit.TestBackends;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/** Every case in both transaction modes: xa must behave exactly as local, but for atomicity (XaTransactionTest). */
@ParameterizedClass
@EnumSource(TransactionConfig.Mode.class)
class TransactionTest {
    private static Shards shards;
    @org.junit.jupiter.api.io.TempDir
    static Path dir;

    TransactionTest(TransactionConfig.Mode mode) {
        // the mode reaches the fixture through createBackends
    }

    @BeforeParameterizedClassInvocation
    static void createBackends(TransactionConfig.Mode mode) {
        TransactionConfig transaction = switch (mode) {
            case LOCAL -> TransactionConfig.DEFAULT;
            case XA -> TransactionConfig.xa(dir.resolve("decisions.log"), "transactiontest");
        };
        shards = new Shards(Shards.SMALL_POOL, transaction, TestBackends.shared(), TestBackends.shared());
        for (int i = 0; i < 2; i++) {
            shards.sql(i, "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10), b VARCHAR(10)) ENGINE=InnoDB");
        }
    }

    @AfterParameterizedClassInvocation
    static void dropBackends() {
        shards.close();
    }

    @BeforeEach
    void emptyTables() {
        shards.sql(0, "DELETE FROM t");
        shards.sql(1, "DELETE FROM t");
    }

    @AfterEach
    void noConnectionIsLeftCheckedOut() {
        assertEquals(0, shards.pools.activeConnections());
    }

    private static String ids(int backend) {
        return shards.query(backend, "SELECT COALESCE(GROUP_CONCAT(id ORDER BY id), '') FROM t");
    }

    @Test
    void commitMakesWritesOnTwoBackendsVisibleAndOnlyThen() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            s.execute(List.of(unit("ds0", "INSERT INTO t (id) VALUES (1)"), unit("ds1", "INSERT INTO t (id) VALUES (2)")));
            assertEquals("", ids(0), "uncommitted work is invisible to others");
            assertEquals("1", single(s.execute(List.of(unit("ds0", "SELECT COUNT(*) FROM t"))).getFirst()),
                    "but visible to the transaction itself");
            s.commit();
            assertFalse(s.inTransaction());
        }
        assertEquals("1", ids(0));
        assertEquals("2", ids(1));
    }

    @Test
    void rollbackUndoesWritesOnTwoBackends() {
        shards.assertRollbackUndoesBothBackends(TransactionTest::ids);
    }

    @Test
    void aTransactionHoldsOneConnectionPerTouchedBackendUntilItEnds() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            assertEquals(0, shards.pools.activeConnections(), "nothing is borrowed before a backend is touched");
            insert(s, 0, 1);
            insert(s, 0, 2);
            assertEquals(1, shards.pools.activeConnections());
            insert(s, 1, 3);
            assertEquals(2, shards.pools.activeConnections());
            s.commit();
        }
    }

    @Test
    void turningAutocommitOffStartsATransactionAndTurningItOnCommits() {
        try (ExecutionSession s = shards.session()) {
            s.setAutocommit(false);
            insert(s, 0, 1);
            assertTrue(s.inTransaction());
            assertEquals("", ids(0));
            s.setAutocommit(true);
            assertFalse(s.inTransaction());
        }
        assertEquals("1", ids(0));
    }

    @Test
    void severalUnitsOnOneBackendRunInTurnAndAllReturnTheirRows() {
        shards.sql(0, "INSERT INTO t (id) VALUES (1), (2), (3)");
        try (ExecutionSession s = shards.session()) {
            s.begin();
            List<UnitResult> r = s.execute(List.of(unit("ds0", "SELECT id FROM t WHERE id < 3 ORDER BY id"),
                    unit("ds1", "SELECT 'other backend'"), unit("ds0", "SELECT id FROM t WHERE id = 3")));
            assertEquals(List.of(List.of("3")), rows(r.get(2)), "the last unit on ds0 streams");
            assertEquals(List.of(List.of("1"), List.of("2")), rows(r.get(0)), "the earlier one was buffered");
            assertEquals("other backend", single(r.get(1)));
            s.commit();
        }
    }

    @Test
    void aMarkedStatementThatFailsOnItsSecondBackendLeavesNothingOfItsFirstAndTheTransactionGoesOn() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            insert(s, 1, 2);
            s.savepoint("s1"); // the client's own savepoint outlives the statement's
            assertTrue(s.markStatement());
            ShardwiseException failure = assertThrows(ShardwiseException.class, () -> s.execute(List.of(
                    unit("ds0", "INSERT INTO t (id) VALUES (3)"), unit("ds1", "INSERT INTO t (id) VALUES (4), (2)"))));
            s.statementEnded(failure);
            assertEquals(1062, ((BackendException) failure).errno());
            assertEquals("1", single(s.execute(List.of(unit("ds0", "SELECT GROUP_CONCAT(id) FROM t"))).getFirst()),
                    "ds0's row of the failed statement is gone inside the transaction already");
            insert(s, 0, 5);
            s.rollbackToSavepoint("s1");
            insert(s, 0, 6);
            s.commit();
        }
        assertEquals("1,6", ids(0));
        assertEquals("2", ids(1));
    }

    @Test
    void aBackendFirstJoinedByAFailedMarkedStatementKeepsNothingOfIt() {
        try (ExecutionSession s = shards.session()) {
            s.setAutocommit(false); // the statement opens the transaction, and both backends join in it
            assertTrue(s.markStatement());
            ShardwiseException failure = assertThrows(ShardwiseException.class, () -> s.execute(List.of(
                    unit("ds0", "INSERT INTO t (id) VALUES (1)"), unit("ds1", "INSERT INTO t (id) VALUES (2), (2)"))));
            s.statementEnded(failure);
            assertTrue(s.inTransaction());
            assertTrue(s.markStatement());
            s.execute(List.of(unit("ds0", "INSERT INTO t (id) VALUES (3)"), unit("ds1", "INSERT INTO t (id) VALUES (4)")));
            s.statementEnded(null);
            s.commit();
            s.setAutocommit(true);
        }
        assertEquals("3", ids(0));
        assertEquals("4", ids(1));
    }

    @Test
    void aMarkedStatementThatTimesOutOnALockedRowOfItsSecondBackendLeavesNothingOfItsFirst() {
        shards.sql(1, "INSERT INTO t (id) VALUES (2)");
        ExecutorOptions oneSecond = ExecutorOptions.DEFAULT.withLockWaitTimeout(java.time.Duration.ofSeconds(1));
        try (ExecutionSession holder = shards.session(oneSecond); ExecutionSession s = shards.session(oneSecond)) {
            holder.begin();
            holder.execute(List.of(unit("ds1", "UPDATE t SET a = 'held' WHERE id = 2")));
            s.begin();
            insert(s, 0, 1);
            assertTrue(s.markStatement());
            BackendException failure = assertThrows(BackendException.class, () -> s.execute(List.of(
                    unit("ds0", "UPDATE t SET b = 'half'"), unit("ds1", "UPDATE t SET b = 'half'"))));
            s.statementEnded(failure);
            assertEquals(1205, failure.errno());
            holder.rollback();
            s.commit();
        }
        assertEquals("1", ids(0));
        assertEquals("", shards.query(0, "SELECT COALESCE(GROUP_CONCAT(b), '') FROM t"), "the statement's ds0 part is rolled back");
        assertEquals("", shards.query(1, "SELECT COALESCE(GROUP_CONCAT(b), '') FROM t"));
    }

    @Test
    void outsideATransactionNothingIsMarked() {
        try (ExecutionSession s = shards.session()) {
            assertFalse(s.markStatement(), "the caller runs the statement in a transaction of its own");
            assertEquals(0, shards.pools.activeConnections());
        }
    }

    @Test
    void aSavepointSetBeforeABackendJoinedAlsoUndoesThatBackendsWork() {
        shards.assertSavepointSetBeforeABackendJoinedUndoesItsWork(TransactionTest::ids);
    }

    @Test
    void rollbackToASavepointKeepsItAndDropsLaterOnes() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            s.savepoint("s1");
            insert(s, 1, 2);
            s.savepoint("s2");
            insert(s, 0, 3);
            s.rollbackToSavepoint("S1"); // savepoint names ignore case, as in MySQL
            ShardwiseException gone = assertThrows(ShardwiseException.class, () -> s.rollbackToSavepoint("s2"));
            assertEquals(1305, gone.errno());
            assertEquals("42000", gone.sqlState());
            insert(s, 1, 5);
            s.rollbackToSavepoint("s1");
            s.commit();
        }
        assertEquals("1", ids(0));
        assertEquals("", ids(1));
    }

    @Test
    void releasedAndUnknownSavepointsFailWith1305() {
        try (ExecutionSession s = shards.session()) {
            assertEquals(1305, assertThrows(ShardwiseException.class, () -> s.rollbackToSavepoint("nope")).errno());
            s.begin();
            s.savepoint("s1");
            assertEquals(1305, assertThrows(ShardwiseException.class, () -> s.releaseSavepoint("nope")).errno(),
                    "no backend touched yet: the session knows");
            insert(s, 0, 1);
            s.releaseSavepoint("s1");
            assertEquals(1305, assertThrows(ShardwiseException.class, () -> s.rollbackToSavepoint("s1")).errno());
            s.commit();
        }
        assertEquals("1", ids(0));
    }

    @Test
    void aSavepointNameOverSixtyFourCharactersFailsWith1059AndTheTransactionGoesOn() {
        try (ExecutionSession s = shards.session()) {
            s.begin();
            insert(s, 0, 1);
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.savepoint("s".repeat(65)));
            assertEquals(1059, e.errno());
            assertEquals("Identifier name '" + "s".repeat(65) + "' is too long", e.getMessage());
            s.savepoint("s".repeat(64));
            s.commit();
        }
        assertEquals("1", ids(0));
    }

    @Test
    void aLockCycleAcrossBackendsEndsWith1205AfterTheLockWaitTimeout() throws Exception {
        // Even with both schemas on one server, each backend connection is its own InnoDB transaction:
        // the cycle runs through the client, so no deadlock detector can see it.
        shards.sql(0, "INSERT INTO t (id) VALUES (1)");
        shards.sql(1, "INSERT INTO t (id) VALUES (1)");
        ExecutorOptions oneSecond = ExecutorOptions.DEFAULT.withLockWaitTimeout(java.time.Duration.ofSeconds(1));
        try (ExecutionSession a = shards.session(oneSecond); ExecutionSession b = shards.session(oneSecond)) {
            a.begin();
            b.begin();
            a.execute(List.of(unit("ds0", "UPDATE t SET a = 'A' WHERE id = 1")));
            b.execute(List.of(unit("ds1", "UPDATE t SET b = 'B' WHERE id = 1")));
            long t0 = System.nanoTime();
            CompletableFuture<List<UnitResult>> aWaits = CompletableFuture.supplyAsync(
                    () -> a.execute(List.of(unit("ds1", "UPDATE t SET a = 'A' WHERE id = 1"))), Shards.THREADS);
            BackendException bTimedOut = assertThrows(BackendException.class,
                    () -> b.execute(List.of(unit("ds0", "UPDATE t SET b = 'B' WHERE id = 1"))));
            java.util.concurrent.ExecutionException aTimedOut = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> aWaits.get(30, TimeUnit.SECONDS));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(1205, bTimedOut.errno());
            assertEquals(1205, ((BackendException) aTimedOut.getCause()).errno());
            // broken by the 1 s lock wait timeouts, not InnoDB's default 50 s (a generous bound: CI's cores are shared)
            assertTrue(ms < 30_000, "the cycle took " + ms + " ms to break");
            assertTrue(a.inTransaction() && b.inTransaction(), "1205 rolls back the statement only, as in MySQL");
            a.rollback();
            b.rollback();
        }
    }

    @Test
    void aDeadlockOnOneBackendRollsBackTheVictimsWholeShardedTransaction() throws Exception {
        shards.sql(0, "INSERT INTO t (id) VALUES (1), (2)");
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            a.begin();
            // a holds more locks, so InnoDB picks b as the victim
            a.execute(List.of(unit("ds0", "UPDATE t SET a = 'A' WHERE id = 1"), unit("ds0", "INSERT INTO t (id) VALUES (10), (11), (12)")));
            // a's connection on ds0, pinned by its transaction: only its wait counts (other classes share the server)
            String aConnection = single(a.execute(List.of(unit("ds0", "SELECT CONNECTION_ID()"))).getFirst());
            b.begin();
            b.execute(List.of(unit("ds1", "INSERT INTO t (id) VALUES (5)"), unit("ds0", "UPDATE t SET b = 'B' WHERE id = 2")));
            CompletableFuture<List<UnitResult>> aWaits = CompletableFuture.supplyAsync(
                    () -> a.execute(List.of(unit("ds0", "UPDATE t SET a = 'A' WHERE id = 2"))), Shards.THREADS);
            // a now waits for b's lock on row 2 (awaited: a fixed 300 ms sleep let b go first on a loaded machine)
            io.shardwise.testkit.Await.until("a waits for b's row lock", () -> lockWaits(aConnection) > 0);
            BackendException deadlock = assertThrows(BackendException.class,
                    () -> b.execute(List.of(unit("ds0", "UPDATE t SET b = 'B' WHERE id = 1"))));
            assertEquals(1213, deadlock.errno());
            assertFalse(b.inTransaction(), "the victim's transaction is over on every backend");
            aWaits.get(60, TimeUnit.SECONDS); // a bound on a hang, not a speed: b's rollback freed the lock
            a.commit();
        }
        assertEquals("", ids(1), "b's insert on the other backend was rolled back too");
        assertEquals("1,2,10,11,12", ids(0));
    }

    /**
     * Whether the backend transaction of connection {@code connectionId} waits for a row lock now (0 or 1): the
     * shared server's other waits, other test classes' included, do not count.
     */
    private static long lockWaits(String connectionId) {
        try (java.sql.Connection c = TestBackends.shared().connect("");
             java.sql.ResultSet rs = c.createStatement().executeQuery(
                     "SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT' AND trx_mysql_thread_id = "
                             + Long.parseLong(connectionId))) {
            rs.next();
            return rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
