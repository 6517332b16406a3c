package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
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
        String read = "SELECT k FROM sbtest1 WHERE id IN (1, 2, 3, 4) ORDER BY id";
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                // each round runs on one MariaDB's unsharded copy, then on Shardwise's shards, from the same data
                List<String> mariaDb = wireAnswers(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole);
                List<String> shardwise = wireAnswers(server.address().getPort(), "app", "app", "shop");
                assertEquals(String.join("\n", mariaDb.stream().map(ChainedTransactionServerTest::outcome).toList()),
                        String.join("\n", shardwise.stream().map(ChainedTransactionServerTest::outcome).toList()),
                        "status flags, errors and rows as one MariaDB's");
                assertEquals(direct(read), sample.column(read), "what was committed and what rolled back, as on one MariaDB");
                assertEquals(0, sample.server.pinnedConnections());
                answers.add(shardwise.stream().map(ChainedTransactionServerTest::withoutRows).toList());
            }
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the relay's answers are the JDBC executor's");
    }

    /** An answer, a result set's rows left out (the rounds start from different data). */
    private static String withoutRows(String answer) {
        String packets = answer.substring(answer.indexOf(" -> [") + 5);
        String first = packets.substring(packets.indexOf(':') + 1, packets.indexOf(':') + 3);
        return first.equals("00") || first.equals("ff") ? answer : answer.substring(0, answer.indexOf(" -> [")) + " -> rows";
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
                    assertTrue(outcome(release + " -> " + answer).contains(" -> OK "), release + " on " + (direct ? "MariaDB" : "Shardwise") + ": " + answer);
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

    private static List<String> direct(String sql) throws SQLException {
        try (Connection c = sample.backend.connect(sample.whole); Statement s = c.createStatement()) {
            return SampleServer.column(s, sql);
        }
    }

    private static List<String> wireAnswers(int port, String user, String password, String database) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient client = RawClient.connect(port, user, password, database, NativePassword.PLUGIN)) {
            for (String sql : SCRIPT) {
                out.add(sql + " -> " + RelayServerTest.exchange(client, sql));
            }
        }
        return out;
    }

    /**
     * What one MariaDB and Shardwise must agree on: an OK's IN_TRANS and AUTOCOMMIT flags, an ERR's errno, a
     * result's last row (column definitions name other schemas).
     */
    private static String outcome(String answer) {
        int arrow = answer.indexOf(" -> [");
        String sql = answer.substring(0, arrow);
        String[] packets = answer.substring(arrow + 5, answer.length() - 1).split(", ");
        byte[] first = HexFormat.of().parseHex(packets[0].substring(packets[0].indexOf(':') + 1));
        int header = first[0] & 0xFF;
        if (header == 0x00) {
            int at = 1;
            at += lenencSize(first[at]);
            at += lenencSize(first[at]);
            int status = (first[at] & 0xFF) | (first[at + 1] & 0xFF) << 8;
            return sql + " -> OK in_trans=" + (status & 1) + " autocommit=" + (status >> 1 & 1);
        }
        if (header == 0xFF) {
            return sql + " -> ERR " + ((first[1] & 0xFF) | (first[2] & 0xFF) << 8);
        }
        String row = packets[packets.length - 2];
        return sql + " -> row " + row.substring(row.indexOf(':') + 1);
    }

    private static int lenencSize(byte b) {
        int v = b & 0xFF;
        return v < 0xFB ? 1 : v == 0xFC ? 3 : v == 0xFD ? 4 : 9;
    }
}
