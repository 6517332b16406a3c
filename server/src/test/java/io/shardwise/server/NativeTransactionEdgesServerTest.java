package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where a transaction's native path meets what the JDBC executor held alone: a savepoint set before any
 * backend joined (the native transaction takes it over), and LOAD DATA LOCAL in a native transaction (it
 * runs on the native connections; more in {@link NativeLoadDataServerTest}).
 */
class NativeTransactionEdgesServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("nativeedges");

    /**
     * BEGIN; SAVEPOINT b; a write that relays; ROLLBACK TO b: the write relays, so the transaction is native,
     * and takes the savepoint over (the backend joining sets it after START TRANSACTION): ROLLBACK TO finds it
     * and undoes the write (before, such a transaction stayed on the JDBC executor, which alone held it).
     */
    @Test
    void aSavepointSetBeforeARelayableStatementIsKept() throws Exception {
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 45");
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            s.execute("SAVEPOINT b");
            long relayed = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 4545 WHERE id = 45"));
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the write relayed: the transaction is native");
            assertTrue(sample.server.pinnedConnections() >= 1);
            s.execute("ROLLBACK TO SAVEPOINT b");
            s.execute("COMMIT");
        }
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 45"), "ROLLBACK TO undid the write");
        assertEquals(0, sample.server.pinnedConnections());
    }

    /**
     * A transaction whose first write relayed runs on native connections, which carry a LOAD DATA LOCAL
     * file's rows too (it was refused with 1235, and before that an internal error, 1105): the load runs
     * there, the transaction sees its row, and ROLLBACK undoes both the write and the load.
     */
    @Test
    void loadDataLocalInANativeTransactionLoadsAndRollbackUndoesIt() throws Exception {
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 46");
        try (Connection c = sample.connect("app", "&allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            long bridged = sample.server.relayedStatements();
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 4646 WHERE id = 46"));
            assertEquals(bridged + 1, sample.server.relayedStatements(), "the write relayed: the transaction is native");
            assertTrue(sample.server.pinnedConnections() >= 1);
            s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(
                    new ByteArrayInputStream("900046,1,c,p\n".getBytes(StandardCharsets.UTF_8)));
            assertEquals(1, s.executeUpdate("LOAD DATA LOCAL INFILE 'x' INTO TABLE sbtest1 FIELDS TERMINATED BY ',' (id, k, c, pad)"));
            assertEquals(0, sample.engine.activeConnections(), "the load ran on the transaction's native connections");
            assertEquals(List.of("1"), SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 900046"), "the transaction sees the row");
            assertEquals(List.of("4646"), SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 46"), "the transaction went on");
            s.execute("ROLLBACK");
        }
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 46"));
        assertEquals(List.of(), sample.column("SELECT k FROM sbtest1 WHERE id = 900046"), "nothing loaded");
        assertEquals(0, sample.server.pinnedConnections());
    }

    /** The shapes the tests' transactions use, made plan-cache hits (what relays). */
    private static void warm(Statement s) throws SQLException {
        SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = 7 WHERE id = 0"); // warms "SET k = ? WHERE id = ?" (there is no row 0)
    }
}
