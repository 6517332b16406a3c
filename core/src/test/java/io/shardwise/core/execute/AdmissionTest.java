package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.await;
import static io.shardwise.core.execute.Shards.single;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PoolConfig;
import io.shardwise.core.error.ShardwiseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Admission of transactions and multi-unit statements ({@link Admission}) on pools of two
 * connections per backend: the interleaving that deadlocked the pools, step by step, and how a wait
 * for a slot ends.
 */
class AdmissionTest {
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(2);
    private static Shards shards;

    @BeforeAll
    static void createBackends() {
        shards = new Shards(2, new PoolConfig(2, 0, CONNECTION_TIMEOUT, Duration.ofMinutes(1), Duration.ofMinutes(30)));
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
    }

    @AfterEach
    void everySlotAndConnectionIsBack() {
        await(() -> shards.pools.activeConnections() == 0, "no connection checked out");
        assertEquals(0, shards.pools.admittedSlots());
        assertEquals(0, shards.pools.admission().waiting());
    }

    private static String select1(ExecutionSession s, String backend) {
        return single(s.execute(List.of(unit(backend, "SELECT 1"))).getFirst());
    }

    private static CompletableFuture<String> async(java.util.function.Supplier<String> work) {
        return CompletableFuture.supplyAsync(work, Shards.THREADS);
    }

    @Test
    void slotsAreAsManyAsTheSmallestPoolHasConnections() {
        assertEquals(2, shards.pools.admission().size());
        assertEquals(2, shards.pools.admission().slotsFor(7));
    }

    @Test
    void transactionsTakingBackendsInOppositeOrdersWaitForAdmissionInsteadOfDrainingThePools() throws Exception {
        List<ExecutionSession> sessions = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            sessions.add(shards.session());
            sessions.get(i).begin();
        }
        try {
            ExecutionSession a = sessions.get(0);
            ExecutionSession b = sessions.get(1);
            assertEquals("1", select1(a, "ds0"));
            assertEquals("1", select1(b, "ds0"));
            // without admission these two would take both ds1 connections, and a, b, c, d would wait for each other
            CompletableFuture<String> c = async(() -> select1(sessions.get(2), "ds1") + select1(sessions.get(2), "ds0"));
            CompletableFuture<String> d = async(() -> select1(sessions.get(3), "ds1") + select1(sessions.get(3), "ds0"));
            await(() -> shards.pools.admission().waiting() == 2, "c and d wait for admission");
            assertEquals(0, shards.pools.activeConnections("ds1"), "holding no connection while they wait");
            assertEquals("1", select1(a, "ds1"));
            assertEquals("1", select1(b, "ds1"));
            a.commit();
            b.rollback();
            assertEquals("11", c.get(10, TimeUnit.SECONDS));
            assertEquals("11", d.get(10, TimeUnit.SECONDS));
            assertEquals(2, shards.pools.admittedSlots(), "c's and d's transactions are still open");
        } finally {
            sessions.forEach(ExecutionSession::close);
        }
    }

    @Test
    void aWaitForASlotEndsWith1205AfterTheConnectionTimeout() {
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session(); ExecutionSession c = shards.session()) {
            a.begin();
            b.begin();
            select1(a, "ds0");
            select1(b, "ds1");
            c.begin();
            long t0 = System.nanoTime();
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> select1(c, "ds1"));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertEquals(1205, e.errno());
            assertEquals("HY000", e.sqlState());
            assertTrue(e.getMessage().startsWith("Lock wait timeout exceeded; try restarting transaction (no transaction slot came free"
                    + " within 2000 ms; all 2, one per connection of the smallest backend pool,"), e.getMessage());
            assertTrue(waited >= 1900, "waited the pool's timeout: " + waited + " ms"); // no upper bound: CI's cores are shared
            assertTrue(c.inTransaction(), "as after MySQL's lock wait timeout, only the statement failed");
            a.commit();
            assertEquals("1", select1(c, "ds1"), "the transaction goes on once a slot is free");
        }
    }

    @Test
    void cancelEndsAWaitForASlotWith1317AndLeavesTheThreadUninterrupted() throws Exception {
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session(); ExecutionSession c = shards.session()) {
            a.begin();
            b.begin();
            select1(a, "ds0");
            select1(b, "ds0");
            c.begin();
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> select1(c, "ds1"));
                assertEquals(1317, e.errno());
                return Thread.currentThread().isInterrupted();
            }, Shards.THREADS);
            await(() -> shards.pools.admission().waiting() == 1, "c waits for admission");
            c.cancel();
            assertFalse(waiting.get(5, TimeUnit.SECONDS), "the cancel's interrupt is not left on the session's thread");
            assertEquals(2, shards.pools.admittedSlots());
        }
    }

    @Test
    void theStatementTimeoutEndsAWaitForASlot() {
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session(); ExecutionSession c = shards.session()) {
            a.begin();
            b.begin();
            select1(a, "ds0");
            select1(b, "ds0");
            c.setStatementTimeout(Duration.ofMillis(200));
            c.setAutocommit(false);
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> select1(c, "ds1"));
            // ended by the statement's timeout of 200 ms, not the pool's (which ends it with 1205 naming the slot wait;
            // told apart by the error, not by a wall clock, which a loaded CI machine stretches)
            assertEquals(1317, e.errno(), e.getMessage());
        }
    }

    @Test
    void anAutocommitStatementOfSeveralUnitsHoldsSlotsForItsBusiestBackendUntilItsCursorsClose() {
        try (ExecutionSession s = shards.session()) {
            List<UnitResult> two = s.execute(List.of(unit("ds0", "SELECT 1"), unit("ds1", "SELECT 2")));
            assertEquals(1, shards.pools.admittedSlots());
            assertEquals("1", single(two.get(0)));
            assertEquals(1, shards.pools.admittedSlots(), "ds1's cursor is still open");
            assertEquals("2", single(two.get(1)));
            assertEquals(0, shards.pools.admittedSlots());
            List<UnitResult> sameBackend = s.execute(List.of(unit("ds0", "SELECT 1"), unit("ds0", "SELECT 2")));
            assertEquals(2, shards.pools.admittedSlots(), "two connections of ds0 at once");
            sameBackend.forEach(Shards::single);
            List<UnitResult> one = s.execute(List.of(unit("ds0", "SELECT 1")));
            assertEquals(0, shards.pools.admittedSlots(), "one unit holds one connection and waits for none");
            single(one.getFirst());
        }
    }

    @Test
    void aSingleUnitAutocommitStatementRunsWhileEverySlotIsHeld() {
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session(); ExecutionSession c = shards.session()) {
            a.begin();
            b.begin();
            select1(a, "ds0");
            select1(b, "ds0");
            assertEquals("1", select1(c, "ds1"));
        }
    }

    @Test
    void describingInATransactionUsesItsConnectionRatherThanWaitingForASecond() {
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            a.begin();
            b.begin();
            select1(a, "ds0");
            select1(b, "ds0");
            // the pool's two connections are held by a and b: a describe that borrowed a third would fail after the
            // pool's connection timeout instead of answering (no wall-clock assertion: CI's cores are shared)
            assertEquals(1, a.describe(unit("ds0", "SELECT 1 AS one")).size());
            assertEquals(2, shards.pools.activeConnections(), "a's and b's connections, nothing more");
        }
    }
}
