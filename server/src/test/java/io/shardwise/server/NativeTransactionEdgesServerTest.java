package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
 * backend joined (the native transaction takes it over), and LOAD DATA LOCAL in a native transaction (its
 * file travels only on JDBC connections).
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
     * A transaction whose first write relayed runs on native connections, which do not carry a LOAD DATA
     * LOCAL file: the load is refused with 1235 naming it (it was an internal error, 1105), the
     * transaction goes on and ROLLBACK undoes its write.
     */
    @Test
    void loadDataLocalInANativeTransactionIsRefusedAndTheTransactionGoesOn() throws Exception {
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
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate(
                    "LOAD DATA LOCAL INFILE 'x' INTO TABLE sbtest1 FIELDS TERMINATED BY ',' (id, k, c, pad)"));
            assertEquals(1235, e.getErrorCode(), e.getMessage());
            assertTrue(e.getMessage().contains("LOAD DATA LOCAL INFILE"), e.getMessage());
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
