package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * DDL (and RESET, which commits as DDL does) inside a transaction over the wire, relay on (the transaction native on pinned relay connections, the
 * DDL on the session's thread) and relay off (the JDBC executor): the transaction is committed first on both
 * shards it wrote (users 1 and 2 live on ds0 and ds1), as one MariaDB commits it, so a later ROLLBACK undoes
 * nothing; status flags, errors and rows are one MariaDB's, and the relay's answers the JDBC executor's.
 */
class DdlCommitServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("ddlsrv");

    private static final List<String> SCRIPT = List.of(
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'a') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'a') WHERE user_id = 2", "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'b') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'b') WHERE user_id = 2", "SAVEPOINT s", "CREATE INDEX ddl_ix ON users (email)", "ROLLBACK TO s", "ROLLBACK",
            "SET autocommit = 0", "UPDATE users SET name = CONCAT(name, 'c') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'c') WHERE user_id = 2", "DROP INDEX ddl_ix ON users", "SELECT @@in_transaction", "ROLLBACK",
            "UPDATE users SET name = CONCAT(name, 'd') WHERE user_id = 1", "ROLLBACK", "SET autocommit = 1",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'e') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'e') WHERE user_id = 2", "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'f') WHERE user_id = 1", "DROP TABLE ddl_x", "SELECT @@in_transaction", "ROLLBACK",
            // statements other than DDL that commit first: RESET, and RESET MASTER although it fails (no binary log)
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'g') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'g') WHERE user_id = 2", "RESET QUERY CACHE", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'h') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'h') WHERE user_id = 2", "RESET MASTER", "SELECT @@in_transaction", "ROLLBACK");

    @Test
    void ddlCommitsTheTransactionAsOneMariaDbAndTheRelayOffServer() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            for (int i = 0; i < 2; i++) { // warms the shapes: only a cached plan relays
                s.executeUpdate("UPDATE users SET name = CONCAT(name, '') WHERE user_id = 1");
            }
        }
        String read = "SELECT name FROM users WHERE user_id IN (1, 2) ORDER BY user_id";
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                List<String> mariaDb = wireAnswers(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole);
                long relayed = sample.server.relayedStatements();
                List<String> shardwise = wireAnswers(server.address().getPort(), "app", "app", "shop");
                if (server == sample.server) {
                    assertTrue(sample.server.relayedStatements() > relayed, "the transactions' writes relayed natively");
                }
                assertEquals(String.join("\n", mariaDb.stream().map(DdlCommitServerTest::outcome).toList()),
                        String.join("\n", shardwise.stream().map(DdlCommitServerTest::outcome).toList()),
                        "status flags, errors and rows as one MariaDB's");
                assertEquals(direct(read), sample.column(read), "what was committed and what rolled back, as on one MariaDB");
                assertEquals(0, sample.server.pinnedConnections());
                answers.add(shardwise.stream().map(DdlCommitServerTest::withoutRows).toList());
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
