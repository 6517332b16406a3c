package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PoolConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SessionStateTest {
    /** One connection per backend, so consecutive sessions provably share a physical connection. */
    private static final PoolConfig ONE =
            new PoolConfig(1, 0, Duration.ofSeconds(3), Duration.ofMinutes(1), Duration.ofMinutes(30));
    private static Shards shards;

    @BeforeAll
    static void createBackends() {
        shards = new Shards(2, ONE);
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
    }

    @AfterEach
    void noConnectionIsLeftCheckedOut() {
        assertEquals(0, shards.pools.activeConnections());
    }

    private static List<String> onBoth(ExecutionSession s, String sql) {
        return s.execute(List.of(unit("ds0", sql), unit("ds1", sql))).stream().map(Shards::single).toList();
    }

    private static List<String> row(ExecutionSession s, String sql) {
        return rows(s.execute(List.of(unit("ds0", sql))).getFirst()).getFirst();
    }

    @Test
    void timeZoneReachesEveryBackend() {
        try (ExecutionSession s = shards.session()) {
            s.state().setTimeZone("+03:00");
            assertEquals(List.of("+03:00", "+03:00"), onBoth(s, "SELECT @@session.time_zone"));
        }
    }

    @Test
    void setNamesReachesEveryBackendAndResultsComeInThatCharacterSet() {
        try (ExecutionSession s = shards.session()) {
            s.state().setNames("latin1", null);
            assertEquals(List.of("latin1 latin1 latin1_swedish_ci", "latin1 latin1 latin1_swedish_ci"), onBoth(s,
                    "SELECT CONCAT_WS(' ', @@character_set_results, @@character_set_connection, @@collation_connection)"));
            byte[] e;
            try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0", "SELECT _utf8mb4 x'C3A9'"))).getFirst()).cursor()) {
                assertTrue(c.next());
                e = c.get(0);
            }
            assertArrayEquals(new byte[] {(byte) 0xE9}, e, "é converted to latin1 by the backend");
            s.state().setNames("utf8mb4", "utf8mb4_bin");
            assertEquals(List.of("utf8mb4 utf8mb4 utf8mb4_bin", "utf8mb4 utf8mb4 utf8mb4_bin"), onBoth(s,
                    "SELECT CONCAT_WS(' ', @@character_set_results, @@character_set_connection, @@collation_connection)"));
        }
    }

    @Test
    void setNamesWithACollationDescribesResultsInThatCollationAsMySqlDoes() {
        // one MariaDB: SET NAMES utf8mb4 COLLATE utf8mb4_unicode_ci makes every string column's
        // character set id 224, where character_set_results = utf8mb4 alone gives 45
        try (ExecutionSession s = shards.session()) {
            s.state().setNames("utf8mb4", "utf8mb4_unicode_ci");
            try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0",
                    "SELECT 'a', @@character_set_client, @@collation_connection"))).getFirst()).cursor()) {
                assertEquals(224, c.columns().getFirst().collation());
                assertTrue(c.next());
                assertEquals("utf8mb4", new String(c.get(1), java.nio.charset.StandardCharsets.UTF_8),
                        "the backend still decodes the executor's SQL as utf8mb4");
                assertEquals("utf8mb4_unicode_ci", new String(c.get(2), java.nio.charset.StandardCharsets.UTF_8));
            }
        }
    }

    @Test
    void aChangedNamesCollationKeepsTheConnectionCollationTheSessionSet() {
        String probe = "SELECT CONNECTION_ID(), @@character_set_results, @@collation_connection";
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            a.state().setNames("latin1", "latin1_german1_ci");
            a.state().setCollationConnection("utf8mb4_bin");
            List<String> first = row(a, probe);
            b.state().setNames("utf8mb4", "utf8mb4_unicode_ci");
            b.state().setCollationConnection("utf8mb4_bin");
            List<String> second = row(b, probe);
            assertEquals(first.getFirst(), second.getFirst(), "same physical connection");
            // b's NAMES alone would leave utf8mb4_unicode_ci: the connection's assignment, equal text, is sent again
            assertEquals(List.of("latin1", "utf8mb4_bin", "utf8mb4", "utf8mb4_bin"),
                    List.of(first.get(1), first.get(2), second.get(1), second.get(2)));
        }
    }

    @Test
    void aPooledConnectionDropsTheVariablesOfTheSessionThatUsedItBefore() {
        String probe = "SELECT CONNECTION_ID(), @@time_zone, @@sql_mode, @@div_precision_increment, @@character_set_results";
        List<String> fresh;
        try (ExecutionSession b = shards.session()) {
            fresh = row(b, probe);
        }
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            a.state().setTimeZone("+05:00");
            a.state().setSqlMode("ANSI_QUOTES");
            a.state().setVariable("div_precision_increment", "7");
            a.state().setCharacterSetResults(null);
            List<String> changed = row(a, probe);
            assertEquals(fresh.getFirst(), changed.getFirst(), "same physical connection");
            assertEquals(java.util.Arrays.asList(fresh.getFirst(), "+05:00", "ANSI_QUOTES", "7", null), changed);
            assertEquals(fresh, row(b, probe), "the next session sees the pool's defaults again");
            assertEquals(changed, row(a, probe), "and the first session gets its own state back");
        }
    }

    @Test
    void unchangedStateSendsNoSetAndAChangeSendsOne() {
        String sets = "SELECT VARIABLE_VALUE FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'COM_SET_OPTION'";
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            a.state().setTimeZone("+01:00");
            long first = Long.parseLong(single(a.execute(List.of(unit("ds0", sets))).getFirst()));
            assertEquals(first, Long.parseLong(single(a.execute(List.of(unit("ds0", sets))).getFirst())),
                    "no SET for an unchanged state");
            a.state().setSqlMode("");
            assertEquals(first + 1, Long.parseLong(single(a.execute(List.of(unit("ds0", sets))).getFirst())),
                    "one SET carries the difference");
            assertEquals(first + 2, Long.parseLong(single(b.execute(List.of(unit("ds0", sets))).getFirst())),
                    "one SET resets a's variables for b");
            assertEquals(first + 2, Long.parseLong(single(b.execute(List.of(unit("ds0", sets))).getFirst())));
        }
    }

    @Test
    void isolationAndReadOnlyReachTheConnectionAndAreResetWhenItReturns() {
        String probe = "SELECT @@transaction_isolation, @@transaction_read_only";
        try (ExecutionSession a = shards.session(); ExecutionSession b = shards.session()) {
            List<String> defaults = row(b, probe);
            a.state().setIsolation(SessionState.Isolation.READ_COMMITTED);
            a.state().setReadOnly(true);
            assertEquals(List.of("READ-COMMITTED", "1"), row(a, probe));
            assertEquals(defaults, row(b, probe));
        }
    }

    /** SET TRANSACTION ISOLATION LEVEL without SESSION: every backend the next transaction touches runs at it, then the session's level is back. */
    @Test
    void aNextTransactionIsolationReachesEveryBackendOfThatTransactionOnly() {
        String probe = "SELECT @@transaction_isolation";
        try (ExecutionSession s = shards.session()) {
            String session = row(s, probe).getFirst();
            s.state().setNextIsolation(SessionState.Isolation.SERIALIZABLE);
            assertNull(s.relaySetup(), "a pending level must reach the statement that consumes it, not a relay");
            // an autocommit statement is a transaction of its own: it runs at the level and consumes it
            assertEquals("SERIALIZABLE", row(s, probe).getFirst());
            assertEquals(session, row(s, probe).getFirst());
            s.state().setNextIsolation(SessionState.Isolation.SERIALIZABLE);
            s.begin();
            assertEquals(List.of("SERIALIZABLE", "SERIALIZABLE"), onBoth(s, probe));
            s.commit();
            assertEquals(List.of(session, session), onBoth(s, probe));
            assertEquals("", s.relaySetup());
            s.state().setIsolation(SessionState.Isolation.READ_COMMITTED);
            s.state().setNextIsolation(SessionState.Isolation.READ_UNCOMMITTED);
            assertEquals(List.of("READ-UNCOMMITTED", "READ-UNCOMMITTED"), onBoth(s, probe));
            assertEquals(List.of("READ-COMMITTED", "READ-COMMITTED"), onBoth(s, probe));
            assertEquals(SessionState.Isolation.READ_COMMITTED, s.state().isolation());
        }
    }

    @Test
    void differenceSendsChangedAssignmentsAndRestoresDroppedOnesToTheBaseline() {
        BackendPools.Baseline baseline = new BackendPools.Baseline("utf8mb4", "utf8mb4", "utf8mb4_general_ci");
        Map<String, String> have = new LinkedHashMap<>();
        have.put(SessionState.RESULTS, "character_set_results = 'latin1'");
        have.put(SessionState.CONNECTION, "character_set_connection = 'latin1'");
        have.put(SessionState.TIME_ZONE, "time_zone = '+01:00'");
        have.put("max_sort_length", "max_sort_length = 2048");
        Map<String, String> want = new LinkedHashMap<>();
        want.put(SessionState.TIME_ZONE, "time_zone = '+01:00'");
        want.put(SessionState.SQL_MODE, "sql_mode = ''");
        assertEquals("SET SESSION character_set_results = 'utf8mb4', character_set_connection = 'utf8mb4',"
                + " collation_connection = 'utf8mb4_general_ci', max_sort_length = DEFAULT, sql_mode = ''",
                StateApplier.difference(want, have, baseline));
        assertNull(StateApplier.difference(want, want, baseline));
    }

    @Test
    void transactionConnectionsGetTheLockWaitTimeoutAndOthersKeepTheServerDefault() {
        try (ExecutionSession s = shards.session(ExecutorOptions.DEFAULT.withLockWaitTimeout(Duration.ofMillis(2500)))) {
            String global = shards.query(0, "SELECT @@global.innodb_lock_wait_timeout");
            String probe = "SELECT @@session.innodb_lock_wait_timeout";
            assertEquals(global, single(s.execute(List.of(unit("ds0", probe))).getFirst()));
            s.begin();
            assertEquals("3", single(s.execute(List.of(unit("ds0", probe))).getFirst()), "2.5 s rounds up");
            s.commit();
            assertEquals(global, single(s.execute(List.of(unit("ds0", probe))).getFirst()));
            s.state().setVariable("innodb_lock_wait_timeout", "7");
            s.begin();
            assertEquals("7", single(s.execute(List.of(unit("ds0", probe))).getFirst()), "the session's own choice wins");
            s.rollback();
        }
    }

    /** Every statement of a native transaction asks for it: made once per change of the settings, the same String between. */
    @Test
    void aTransactionsSetupIsMadeOncePerChangeOfTheSettings() {
        SessionState state = new SessionState();
        String first = state.transactionSetup(50);
        assertTrue(first == state.transactionSetup(50), "the same String while nothing changed");
        assertTrue(first.contains("innodb_lock_wait_timeout = 50"), first);
        String other = state.transactionSetup(7);
        assertTrue(other.contains("innodb_lock_wait_timeout = 7"), other);
        state.setTimeZone("+01:00");
        String changed = state.transactionSetup(7);
        assertTrue(changed != other && changed.contains("time_zone"), changed);
        assertTrue(changed == state.transactionSetup(7));
        assertEquals("SET " + String.join(", ", state.assignments(true, 7).values()), changed, "what the assignments say");
    }

    @Test
    void variablesWithATypedSetterOrABadValueAreRefused() {
        SessionState state = new SessionState();
        assertThrows(IllegalArgumentException.class, () -> state.setVariable("time_zone", "'+00:00'"));
        assertThrows(IllegalArgumentException.class, () -> state.setVariable("character_set_client", "latin1"));
        assertThrows(IllegalArgumentException.class, () -> state.setVariable("x; DROP TABLE t", "1"));
        assertThrows(IllegalArgumentException.class, () -> state.setTimeZone("+00:00'; DROP TABLE t; --"));
        long before = state.version();
        state.setVariable("max_sort_length", "2048");
        assertTrue(state.version() > before);
    }
}
