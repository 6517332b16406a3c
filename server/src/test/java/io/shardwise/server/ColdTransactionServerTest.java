package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction whose first statement misses the plan cache: the event loop cannot plan it, so the
 * session's thread runs it — and opens the transaction natively as the loop would have (pinned relay
 * connections, no JDBC connection held), so the transaction's next statements, cache hits, relay
 * instead of the whole transaction staying on the JDBC executor. Each test's cold statement has a
 * shape no other statement of this class has.
 */
class ColdTransactionServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("coldtx");

    @Test
    void aColdFirstStatementPinsTheTransactionAndItsNextStatementsRelay() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            long relayed = sample.server.relayedStatements();
            long bridged = sample.server.nativeStatements();
            s.execute("BEGIN");
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k + 40, pad = pad WHERE id = 41"));
            assertEquals(bridged + 1, sample.server.nativeStatements(), "the cold statement ran on the transaction's relay connections");
            assertEquals(0, sample.engine.activeConnections(), "the JDBC executor holds no connection in the transaction");
            assertTrue(sample.server.pinnedConnections() >= 1);
            long hops = sample.server.sessionCommands();
            List<String> read = SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 41");
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the next statement relayed on the pinned connection");
            s.execute("COMMIT");
            assertEquals(hops, sample.server.sessionCommands(), "the relayed read and the COMMIT never woke the session's thread");
            assertEquals(read, sample.column("SELECT k FROM sbtest1 WHERE id = 41"), "committed: what the transaction read is what a new client reads");
            assertEquals(0, sample.server.pinnedConnections(), "COMMIT gave the connections back");
        }
    }

    /**
     * A cold SELECT first in a transaction opens it natively as a write does, and its rows stream from the pinned
     * connections however big its result (each backend's unit of this merge streams; nothing is held whole, so
     * the bound on what is, shardwise.nativeReadBudget, does not apply): mysqldump --single-transaction's SELECT of
     * each table reads so. The next statement relays; nothing is on the JDBC executor.
     */
    @Test
    void aColdFirstSelectOpensTheTransactionNativelyAndStreamsHoweverBigItsResult() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            long bridged = sample.server.nativeStatements();
            long streamed = sample.server.streamedResponses();
            System.setProperty("shardwise.nativeReadBudget", "100");
            try {
                s.execute("BEGIN");
                List<String> rows = SampleServer.column(s, "SELECT pad FROM sbtest1 WHERE id BETWEEN 1 AND 40 AND k > -7 ORDER BY id");
                assertEquals(40, rows.size(), "every row, far past the budget of 100 bytes on what is read whole");
                assertEquals(bridged + 1, sample.server.nativeStatements(), "the cold SELECT ran on relay connections");
                assertEquals(streamed + 2, sample.server.streamedResponses(), "both backends' units streamed");
                assertTrue(sample.server.pinnedConnections() >= 1, "the transaction is native");
                assertEquals(0, sample.engine.activeConnections(), "the JDBC executor holds no connection in the transaction");
                long relayed = sample.server.relayedStatements();
                SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 41");
                assertEquals(relayed + 1, sample.server.relayedStatements(), "the next statement relayed on the pinned connection");
                s.execute("COMMIT");
                assertEquals(0, sample.server.pinnedConnections());
            } finally {
                System.clearProperty("shardwise.nativeReadBudget");
            }
        }
    }

    @Test
    void withAutocommitOffAColdFirstStatementPinsAndRollbackUndoesIt() throws Exception {
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 42");
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            c.setAutoCommit(false);
            long relayed = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET pad = pad, k = k + 42 WHERE id = 42"));
            assertEquals(0, sample.engine.activeConnections());
            assertTrue(sample.server.pinnedConnections() >= 1);
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 42"));
            assertEquals(relayed + 1, sample.server.relayedStatements());
            c.rollback();
            assertEquals(0, sample.server.pinnedConnections());
            c.setAutoCommit(true);
        }
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 42"), "ROLLBACK undid the cold statement's write");
    }

    @Test
    void aColdFirstStatementThatFailsFailsWithMysqlsErrorAndTheTransactionGoesOnNatively() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO sbtest1 (pad, c, k, id) VALUES ('p', 'c', 1, 43)"));
            assertEquals(1062, e.getErrorCode());
            assertEquals("23000", e.getSQLState());
            assertEquals(0, sample.engine.activeConnections());
            long relayed = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 43"));
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the transaction is native: the write relayed");
            s.execute("ROLLBACK");
            assertEquals(0, sample.server.pinnedConnections());
        }
    }

    /**
     * A savepoint set before any backend joined is known to the JDBC transaction only: such a transaction
     * stays on the JDBC executor, so ROLLBACK TO it still finds it (else 1305) and undoes the write.
     */
    @Test
    void aSavepointSetBeforeTheColdStatementIsKept() throws Exception {
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 44");
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            s.execute("SAVEPOINT a");
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k + 44, c = c WHERE id = 44"));
            s.execute("ROLLBACK TO SAVEPOINT a");
            s.execute("COMMIT");
        }
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 44"));
        assertEquals(0, sample.server.pinnedConnections());
    }

    /**
     * LOAD DATA LOCAL as a transaction's first statement (the session's thread runs it) opens the transaction
     * natively, its batches on the pinned connections; the transaction's next write relays, a second load
     * runs on the same connections, and ROLLBACK undoes all of it. (Before LOAD DATA ran natively, such a
     * transaction took its JDBC connections and the first load got 1105, or a later one was refused.)
     */
    @Test
    void aLoadDataLocalFirstInATransactionOpensItNativelyAndLaterLoadsFollow() throws Exception {
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 46");
        try (Connection c = sample.connect("app", "&allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            long bridged = sample.server.nativeStatements();
            assertEquals(2, load(s, "900046,1,c,p\n900047,2,c,p\n"));
            assertTrue(sample.server.nativeStatements() > bridged, "the load's batches ran on relay connections");
            assertEquals(0, sample.engine.activeConnections(), "the JDBC executor holds no connection in the transaction");
            assertTrue(sample.server.pinnedConnections() >= 1);
            long relayed = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 4646 WHERE id = 46"));
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the transaction is native: the write relayed");
            assertEquals(1, load(s, "900048,3,c,p\n"));
            assertEquals(List.of("3"), SampleServer.column(s, "SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900046 AND 900048"));
            s.execute("ROLLBACK");
        }
        assertEquals(List.of("0"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900046 AND 900048"));
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 46"));
    }

    /** In autocommit mode a LOAD DATA LOCAL is a transaction of its own, opened natively: committed whole, nothing left pinned. */
    @Test
    void anAutocommitLoadDataLocalRunsInANativeTransactionOfItsOwn() throws Exception {
        try (Connection c = sample.connect("app", "&allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            long bridged = sample.server.nativeStatements();
            assertEquals(3, load(s, "900050,1,c,p\n900051,2,c,p\n900052,3,c,p\n"));
            assertTrue(sample.server.nativeStatements() > bridged, "the load's batches ran on relay connections");
            assertEquals(0, sample.server.pinnedConnections(), "committed: its connections went back");
            assertEquals(List.of("3"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900050 AND 900052"));
            s.executeUpdate("DELETE FROM sbtest1 WHERE id BETWEEN 900050 AND 900052");
        }
    }

    private static int load(Statement s, String rows) throws SQLException {
        s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(
                new java.io.ByteArrayInputStream(rows.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return s.executeUpdate("LOAD DATA LOCAL INFILE 'x' INTO TABLE sbtest1 FIELDS TERMINATED BY ',' (id, k, c, pad)");
    }

    /** The warm shapes: plan-cache hits, which is what relays. */
    private static void warm(Statement s) throws SQLException {
        SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = 7 WHERE id = 0"); // warms the shape "SET k = ? WHERE id = ?" (there is no row 0)
    }
}
