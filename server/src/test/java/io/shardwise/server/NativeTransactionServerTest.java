package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.testkit.Await;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transactions on the server's native path: once a transaction's first statement relays, the
 * whole transaction runs on relay connections pinned to the session (one per backend it touches) —
 * single-unit statements relay their packets, everything else the session runs goes through the
 * same connections — and the JDBC executor holds no connection meanwhile
 * ({@code engine.activeConnections() == 0}). Statement shapes run once in autocommit first: only a
 * plan-cache hit relays.
 */
class NativeTransactionServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("nativetx");

    @Test
    void aTransactionsReadsAndWritesRunOnPinnedRelayConnectionsAndCommit() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            long relayed = sample.server.relayedStatements();
            long bridged = sample.server.nativeStatements();
            s.execute("BEGIN");
            assertEquals(1, rows(s, "SELECT k FROM sbtest1 WHERE id = 11").size());
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 4242 WHERE id = 11"));
            assertEquals(0, sample.engine.activeConnections(), "the JDBC executor holds no connection in the transaction");
            assertTrue(sample.server.pinnedConnections() >= 1);
            // several shards with a merge: the session's executor, on the same pinned connections (it sees the update)
            assertEquals(List.of("1"), rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 4242"));
            assertEquals(0, sample.engine.activeConnections());
            s.execute("COMMIT");
            assertEquals(relayed + 2, sample.server.relayedStatements(), "the point read and the write relayed");
            assertTrue(sample.server.nativeStatements() > bridged, "the merged read ran natively");
            assertEquals(0, sample.server.pinnedConnections(), "COMMIT gave the connections back");
        }
        assertEquals(List.of("4242"), direct("SELECT k FROM sbtest1 WHERE id = 11"));
    }

    @Test
    void rollbackUndoesWhatTheTransactionWrote() throws Exception {
        List<String> before = direct("SELECT k FROM sbtest1 WHERE id = 12");
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            c.setAutoCommit(false); // autocommit off: the first statement opens the transaction
            long relayed = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = -1 WHERE id = 12"));
            assertEquals(List.of("-1"), rows(s, "SELECT k FROM sbtest1 WHERE id = 12"));
            assertEquals(relayed + 2, sample.server.relayedStatements());
            assertEquals(0, sample.engine.activeConnections());
            c.rollback();
            assertEquals(before, rows(s, "SELECT k FROM sbtest1 WHERE id = 12"));
            c.rollback();
        }
        assertEquals(before, direct("SELECT k FROM sbtest1 WHERE id = 12"));
    }

    @Test
    void theSessionsIsolationLevelAppliesToItsNativeTransaction() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement();
             Connection other = sample.connect("app", ""); Statement o = other.createStatement()) {
            warm(s);
            for (String level : List.of("REPEATABLE READ", "READ COMMITTED")) {
                s.execute("SET SESSION TRANSACTION ISOLATION LEVEL " + level);
                s.execute("BEGIN");
                long relayed = sample.server.relayedStatements();
                String first = rows(s, "SELECT k FROM sbtest1 WHERE id = 13").get(0);
                assertEquals(relayed + 1, sample.server.relayedStatements());
                o.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = 13");
                String second = rows(s, "SELECT k FROM sbtest1 WHERE id = 13").get(0);
                if (level.equals("REPEATABLE READ")) {
                    assertEquals(first, second, "a repeatable read's snapshot");
                } else {
                    assertNotEquals(first, second, "read committed sees the other's commit");
                }
                s.execute("COMMIT");
            }
        }
    }

    @Test
    void aReadOnlyTransactionRefusesWritesWithMysqlsError() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("START TRANSACTION READ ONLY");
            long relayed = sample.server.relayedStatements();
            assertEquals(1, rows(s, "SELECT k FROM sbtest1 WHERE id = 14").size());
            assertEquals(relayed + 1, sample.server.relayedStatements());
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE sbtest1 SET k = 1 WHERE id = 14"));
            assertEquals(1792, e.getErrorCode());
            assertEquals("25006", e.getSQLState());
            s.execute("COMMIT");
        }
    }

    @Test
    void aDuplicateKeyFailsOnlyItsStatementAndTheTransactionGoesOn() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            assertEquals(1, s.executeUpdate("INSERT INTO sbtest1 (id, k, c, pad) VALUES (5001, 1, 'a', 'b')"));
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO sbtest1 (id, k, c, pad) VALUES (5001, 2, 'a', 'b')"));
            assertEquals(1062, e.getErrorCode());
            assertEquals(1, s.executeUpdate("INSERT INTO sbtest1 (id, k, c, pad) VALUES (5002, 3, 'a', 'b')"));
            assertEquals(0, sample.engine.activeConnections());
            s.execute("COMMIT");
            assertEquals(List.of("5001 1", "5002 3"), rows(s, "SELECT id, k FROM sbtest1 WHERE id IN (5001, 5002) ORDER BY id"));
            s.executeUpdate("DELETE FROM sbtest1 WHERE id IN (5001, 5002)");
        }
    }

    @Test
    void aClientGoneMidTransactionIsRolledBackAndItsConnectionsGoBack() throws Exception {
        List<String> before = direct("SELECT k FROM sbtest1 WHERE id = 15");
        Connection gone = sample.connect("app", "");
        try (Statement s = gone.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = -15 WHERE id = 15"));
            assertTrue(sample.server.pinnedConnections() >= 1);
        }
        gone.abort(Runnable::run); // the socket closes without COM_QUIT
        Await.until("the vanished client's transaction ends", () -> sample.server.pinnedConnections() == 0);
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.execute("SET innodb_lock_wait_timeout = 1");
            assertEquals(before, rows(s, "SELECT k FROM sbtest1 WHERE id = 15 FOR UPDATE"), "rolled back, and the row lock is free");
        }
    }

    @Test
    void aDeadlockIsRelayedAsMysqlsErrorAndEndsTheTransaction() throws Exception {
        // two rows on one backend, so that backend sees the lock cycle
        List<String> ids = new ArrayList<>();
        try (Connection c = sample.backend.connect(sample.target.databasePrefix() + "_0"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM sbtest1 WHERE id BETWEEN 20 AND 200 ORDER BY id LIMIT 2")) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        try (Connection a = sample.connect("app", ""); Statement sa = a.createStatement();
             Connection b = sample.connect("app", ""); Statement sb = b.createStatement()) {
            warm(sa);
            warm(sb);
            sa.execute("BEGIN");
            sb.execute("BEGIN");
            sa.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(0));
            sb.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(1));
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return sa.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(1));
                } catch (SQLException e) {
                    return -e.getErrorCode();
                }
            });
            awaitLockWait();
            int second;
            try {
                second = sb.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(0));
            } catch (SQLException e) {
                second = -e.getErrorCode();
            }
            int firstResult = first.get();
            assertTrue(firstResult == -1213 ^ second == -1213, "exactly one side is the deadlock victim: " + firstResult + ", " + second);
            Statement victim = firstResult == -1213 ? sa : sb;
            Statement winner = firstResult == -1213 ? sb : sa;
            // the victim's transaction is over, as in MySQL: its next statement starts afresh
            assertEquals(1, rows(victim, "SELECT k FROM sbtest1 WHERE id = " + ids.get(0)).size());
            winner.execute("COMMIT");
            victim.execute("COMMIT");
        }
        assertEquals(0, sample.server.pinnedConnections());
    }

    private static void awaitLockWait() throws Exception {
        try (Connection c = sample.backend.connect("information_schema"); Statement s = c.createStatement()) {
            Await.until("a backend statement waits for a row lock", () -> {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.innodb_trx WHERE trx_state = 'LOCK WAIT'")) {
                    rs.next();
                    return rs.getLong(1) > 0;
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
    }

    /** Runs the statement shapes once in autocommit, so that they are plan-cache hits, which is what relays. */
    private static void warm(Statement s) throws SQLException {
        rows(s, "SELECT k FROM sbtest1 WHERE id = 1");
        rows(s, "SELECT k FROM sbtest1 WHERE id = 1 FOR UPDATE");
        rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 1");
        rows(s, "SELECT id, k FROM sbtest1 WHERE id IN (1, 2) ORDER BY id");
        s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = 1 WHERE id = 1");
        s.executeUpdate("DELETE FROM sbtest1 WHERE id IN (0, 0)");
        s.executeUpdate("INSERT INTO sbtest1 (id, k, c, pad) VALUES (9999, 1, 'a', 'b')");
        s.executeUpdate("DELETE FROM sbtest1 WHERE id = 9999");
    }

    /** What a new client reads (autocommit): the sharded data, not the oracle's copy. */
    private static List<String> direct(String sql) throws SQLException {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            return rows(s, sql);
        }
    }

    /** Rows as space-joined text. */
    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(i > 1 ? " " : "").append(rs.getString(i));
                }
                out.add(row.toString());
            }
        }
        return out;
    }
}
