package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * COMMIT / ROLLBACK AND CHAIN, RELEASE and completion_type over the wire, around statements the relay
 * runs in native transactions: every answer is, packet for packet, a relay-off server's (the JDBC
 * executor's transactions), and its status flags (SERVER_STATUS_IN_TRANS, AUTOCOMMIT), errors and rows
 * are what one MariaDB answers to the same statements on the unsharded copy; RELEASE answers OK and the
 * server closes the connection, as MariaDB does.
 */
class ChainedTransactionServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("chainsrv");

    private static final List<String> SCRIPT = List.of(
            "BEGIN", "UPDATE sbtest1 SET k = k + 1 WHERE id = 1", "COMMIT AND CHAIN", "UPDATE sbtest1 SET k = k + 1 WHERE id = 2",
            "ROLLBACK AND CHAIN", "SELECT k FROM sbtest1 WHERE id = 1", "UPDATE sbtest1 SET k = k + 1 WHERE id = 2", "COMMIT",
            "START TRANSACTION READ ONLY", "SELECT k FROM sbtest1 WHERE id = 1", "COMMIT WORK AND CHAIN",
            "UPDATE sbtest1 SET k = 0 WHERE id = 1", "ROLLBACK", "COMMIT AND CHAIN", "UPDATE sbtest1 SET k = k + 1 WHERE id = 3",
            "COMMIT AND NO CHAIN NO RELEASE",
            "SET completion_type = 1", "SELECT @@completion_type", "BEGIN", "UPDATE sbtest1 SET k = k + 1 WHERE id = 1", "COMMIT",
            "SELECT @@in_transaction", "UPDATE sbtest1 SET k = k + 1 WHERE id = 2", "ROLLBACK", "SELECT @@in_transaction",
            "COMMIT AND NO CHAIN", "SET autocommit = 0", "UPDATE sbtest1 SET k = k + 1 WHERE id = 3", "COMMIT",
            "UPDATE sbtest1 SET k = k + 1 WHERE id = 4", "SET autocommit = 1", "SELECT @@in_transaction",
            "SET completion_type = 'NO_CHAIN'", "BEGIN", "COMMIT", "SELECT @@in_transaction", "COMMIT AND CHAIN RELEASE");

    @Test
    void chainsAnswerAsOneMariaDbAndTheRelayOffServerAnswer() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            for (int i = 0; i < 2; i++) { // warms the shapes: only a cached plan relays
                s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 1");
                SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 1");
            }
        }
        sample.assertScriptAsOneMariaDbAndTheRelayOffServer(SCRIPT, "SELECT k FROM sbtest1 WHERE id IN (1, 2, 3, 4) ORDER BY id", null);
    }

    /** COMMIT RELEASE (and completion_type RELEASE): the OK, then the server closes the connection, as MariaDB does; the work is committed. */
    @Test
    void releaseAnswersOkThenClosesTheConnection() throws Exception {
        for (String release : List.of("COMMIT RELEASE", "SET completion_type = 2; ROLLBACK")) {
            for (int port : List.of(sample.backend.port(), sample.server.address().getPort())) {
                boolean direct = port == sample.backend.port();
                try (RawClient client = direct
                        ? RawClient.connect(port, sample.backend.user(), sample.backend.password(), sample.whole, NativePassword.PLUGIN)
                        : RawClient.connect(port, "app", "app", "shop", NativePassword.PLUGIN)) {
                    RelayServerTest.exchange(client, "BEGIN");
                    RelayServerTest.exchange(client, "UPDATE sbtest1 SET k = k WHERE id = 5");
                    List<String> answer = List.of();
                    for (String sql : release.split("; ")) {
                        answer = RelayServerTest.exchange(client, sql);
                    }
                    assertTrue(RelayServerTest.outcome(release + " -> " + answer).contains(" -> OK "), release + " on " + (direct ? "MariaDB" : "Shardwise") + ": " + answer);
                    assertTrue(client.closedByServer(), release + ": the connection closed after the OK on " + (direct ? "MariaDB" : "Shardwise"));
                }
            }
        }
        // Connector/J's next statement fails as against MariaDB: a communications failure, then the connection is closed
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.execute("BEGIN");
            s.execute("COMMIT RELEASE");
            SQLException e = assertThrows(SQLException.class, () -> s.execute("SELECT 1"));
            assertEquals("08S01", e.getSQLState());
            assertTrue(c.isClosed());
        }
        assertEquals(0, sample.server.pinnedConnections());
    }
}
