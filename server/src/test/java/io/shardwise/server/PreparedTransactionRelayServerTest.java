package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Prepared statements' executions inside a transaction, relayed on the transaction's pinned
 * connections against the engine path (a second server over the same engine with the relay off):
 * the same bytes, packet for packet, for reads and writes of every parameter type, errors mid-way
 * (a duplicate key fails alone, the transaction goes on), what the engine runs itself on those same
 * connections (doubles, dates, merges), SHOW WARNINGS after each, and ROLLBACK undoing the relayed
 * writes. The first execution of each transaction is a prepared one: it pins, as a relayed text
 * statement does.
 */
class PreparedTransactionRelayServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("ptxrelay");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    record Case(String sql, boolean relayed, Param... params) {}

    private static final List<Case> CASES = List.of(
            new Case("SELECT id, k, c FROM sbtest1 WHERE id = ?", true, Param.longlong(5)),
            new Case("UPDATE sbtest1 SET k = ? WHERE id = ?", true, Param.longlong(4242), Param.longlong(5)),
            new Case("UPDATE sbtest1 SET k = k + ? WHERE id = ?", true, Param.tiny(1), Param.unsignedLong(5)),
            new Case("UPDATE sbtest1 SET c = ? WHERE id = ?", true, Param.varchar("Zoë 日本 😀 it's \\ ?"), Param.longlong(5)),
            new Case("UPDATE sbtest1 SET c = ? WHERE id = ?", true, Param.blob((byte) 'x', (byte) 0, (byte) 'y'), Param.longlong(6)),
            new Case("SELECT id, k, c FROM sbtest1 WHERE id = ?", true, Param.longlong(5)),
            new Case("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", true, Param.longlong(7001), Param.longlong(1),
                    Param.varchar("a"), Param.varchar("b")),
            // a duplicate key fails this execution alone; the transaction goes on
            new Case("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", true, Param.longlong(7001), Param.longlong(2),
                    Param.varchar("a"), Param.varchar("b")),
            new Case("INSERT IGNORE INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", true, Param.longlong(7001), Param.longlong(2),
                    Param.varchar("a"), Param.varchar("b")),
            new Case("INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)", true, Param.longlong(7002), Param.longlong(2),
                    Param.varchar("a"), Param.nul()),
            new Case("UPDATE orders SET amount = ? WHERE user_id = ? AND order_id = ?", true, Param.decimal("12.34"), Param.longlong(7),
                    Param.longlong(100_001)),
            new Case("UPDATE orders SET amount = ?, status = ? WHERE user_id = ?", true, Param.decimal("1.50"), Param.nul(),
                    Param.longlong(7)),
            // typed where the engine writes a literal: run by the engine, on the transaction's connection
            new Case("UPDATE orders SET amount = ? WHERE user_id = ?", false, Param.dbl(2.25), Param.longlong(7)),
            new Case("UPDATE orders SET created_at = ? WHERE user_id = ?", true, Param.datetime(2025, 3, 1, 12, 0, 0),
                    Param.longlong(7)),
            new Case("SELECT order_id, amount, status, created_at FROM orders WHERE user_id = ?", true, Param.longlong(7)),
            // SUM(k) left out: its merged column length differs on a native transaction (34, the JDBC path 33), as for text
            new Case("SELECT COUNT(*), MAX(id) FROM sbtest1 WHERE k = ?", false, Param.longlong(4243)),
            new Case("SELECT id, k FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY id", false, Param.longlong(1), Param.longlong(8)),
            new Case("DELETE FROM sbtest1 WHERE id = ?", true, Param.longlong(7001)),
            new Case("DELETE FROM sbtest1 WHERE id = ?", true, Param.longlong(7001)));

    @Test
    void executionsInATransactionAreByteForByteThoseOfTheEnginePathAndRollBack() throws Exception {
        List<String> before = state();
        for (Capabilities caps : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF & ~Capabilities.FOUND_ROWS))) {
            for (String begin : List.of("BEGIN", "SET autocommit = 0")) {
                List<String> expected = run(plain, caps, begin);
                long relayed = sample.server.relayedStatements();
                List<String> actual = run(sample.server, caps, begin);
                for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
                    assertEquals(expected.get(i), actual.get(i), begin + ": step " + i);
                }
                assertEquals(expected.size(), actual.size());
                // the relayable executions of the transaction, and the one after ROLLBACK in autocommit
                long relayedCases = CASES.stream().filter(Case::relayed).count() + 1;
                assertEquals(relayed + relayedCases, sample.server.relayedStatements(), "relayed executions, " + begin);
                assertEquals(before, state(), "ROLLBACK undid what the transaction wrote");
                assertEquals(0, sample.server.pinnedConnections(), "ROLLBACK gave the connections back");
            }
        }
    }

    /** The transaction's steps on {@code server}: each execute's response, then SHOW WARNINGS; it ends with ROLLBACK. */
    private static List<String> run(ShardwiseServer server, Capabilities caps, String begin) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, caps)) {
            List<Integer> ids = new ArrayList<>();
            for (Case k : CASES) {
                ids.add(PreparedRelayServerTest.prepare(c, k.sql()));
            }
            out.add(String.join(" ", RelayServerTest.exchange(c, begin)));
            for (int i = 0; i < CASES.size(); i++) {
                Case k = CASES.get(i);
                out.add(k.sql() + " -> " + PreparedRelayServerTest.execute(c, ids.get(i), k.params()));
                out.add("SHOW WARNINGS -> " + RelayServerTest.exchange(c, "SHOW WARNINGS"));
                if (i == 0 && server == sample.server) {
                    assertEquals(0, sample.engine.activeConnections(), "the first execution pinned the transaction natively");
                    assertTrue(sample.server.pinnedConnections() >= 1);
                }
            }
            out.add("ROLLBACK -> " + RelayServerTest.exchange(c, "ROLLBACK"));
            out.add("after -> " + PreparedRelayServerTest.execute(c, ids.get(0), CASES.get(0).params()));
            if (begin.startsWith("SET")) {
                out.add(String.join(" ", RelayServerTest.exchange(c, "SET autocommit = 1")));
            }
        }
        return out;
    }

    /**
     * BEGIN, START TRANSACTION, COMMIT and ROLLBACK prepared (sysbench --db-ps-mode=auto, Connector/J with
     * useServerPrepStmts) and executed around relayed executions are answered on the event loop, as their
     * text forms: once prepared, the whole script runs without a command on the session thread, and each
     * answer is, packet for packet (sequence id, status flags), the relay-off server's.
     */
    @Test
    void preparedTransactionStatementsAreAnsweredOnTheLoopAsTheSessionThreadAnswersThem() throws Exception {
        List<String> words = List.of("BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "START TRANSACTION READ ONLY", "commit work");
        String read = "SELECT k FROM sbtest1 WHERE id = ?";
        String write = "UPDATE sbtest1 SET k = k + ? WHERE id = ?";
        List<String> before = direct("SELECT k FROM sbtest1 WHERE id = 33");
        List<List<String>> answers = new ArrayList<>();
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            List<String> out = new ArrayList<>();
            try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                java.util.Map<String, Integer> ids = new java.util.HashMap<>();
                for (String sql : words) {
                    ids.put(sql, PreparedRelayServerTest.prepare(c, sql));
                }
                int r = PreparedRelayServerTest.prepare(c, read);
                int w = PreparedRelayServerTest.prepare(c, write);
                PreparedRelayServerTest.execute(c, r, Param.longlong(33)); // warms the plans: only a cache hit relays
                PreparedRelayServerTest.execute(c, w, Param.longlong(0), Param.longlong(33));
                long hops = sample.server.sessionCommands();
                for (String step : List.of("COMMIT", "ROLLBACK", "BEGIN", "r", "w", "commit work", "START TRANSACTION", "w", "ROLLBACK",
                        "BEGIN", "COMMIT", "START TRANSACTION READ ONLY", "r", "COMMIT", "BEGIN", "w", "r", "ROLLBACK")) {
                    List<String> answer = switch (step) {
                        case "r" -> PreparedRelayServerTest.execute(c, r, Param.longlong(33));
                        case "w" -> PreparedRelayServerTest.execute(c, w, Param.longlong(1), Param.longlong(33));
                        default -> PreparedRelayServerTest.execute(c, ids.get(step));
                    };
                    out.add(step + " -> " + answer);
                }
                if (server == sample.server) {
                    assertEquals(hops, sample.server.sessionCommands(), "no command on the session thread: each was answered on the loop");
                    assertEquals(0, sample.server.pinnedConnections());
                }
            }
            answers.add(out);
            assertEquals(List.of(String.valueOf(Long.parseLong(before.get(0)) + 1)), direct("SELECT k FROM sbtest1 WHERE id = 33"),
                    "the committed write stays, the rolled back ones do not");
            try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
                s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = 33");
            }
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
    }

    @Test
    void connectorJWithServerSidePreparedStatementsCommitsAndRollsBackRelayedWrites() throws Exception {
        String url = "jdbc:mysql://127.0.0.1:%d/shop?user=app&password=app&sslMode=DISABLED&useServerPrepStmts=true"
                + "&cachePrepStmts=true&allowPublicKeyRetrieval=true";
        List<String> before = state();
        try (Connection c = java.sql.DriverManager.getConnection(url.formatted(sample.server.address().getPort()));
             PreparedStatement read = c.prepareStatement("SELECT k, c FROM sbtest1 WHERE id = ?");
             PreparedStatement update = c.prepareStatement("UPDATE sbtest1 SET k = ?, c = ? WHERE id = ?")) {
            for (int round = 0; round < 3; round++) { // the first rounds warm the plans
                c.setAutoCommit(false);
                long relayed = sample.server.relayedStatements();
                update.setInt(1, 900 + round);
                update.setString(2, "round " + round);
                update.setLong(3, 9);
                assertEquals(1, update.executeUpdate());
                read.setLong(1, 9);
                assertEquals(List.of((900 + round) + " round " + round), rows(read));
                if (round == 2) {
                    assertEquals(relayed + 2, sample.server.relayedStatements(), "both executions relayed");
                    assertEquals(0, sample.engine.activeConnections(), "on the transaction's pinned connection");
                }
                c.rollback();
                assertEquals(before, state());
                c.setAutoCommit(true);
            }
            c.setAutoCommit(false);
            update.setInt(1, 77);
            update.setString(2, "committed");
            update.setLong(3, 9);
            assertEquals(1, update.executeUpdate());
            c.commit();
            c.setAutoCommit(true);
        }
        assertEquals(List.of("77 committed"), direct("SELECT k, c FROM sbtest1 WHERE id = 9"));
        assertEquals(0, sample.server.pinnedConnections());
    }

    /** The rows the tests write, read by a new client in autocommit. */
    private static List<String> state() throws SQLException {
        List<String> out = new ArrayList<>(direct("SELECT id, k, c FROM sbtest1 WHERE id IN (5, 6, 7001, 7002) ORDER BY id"));
        out.addAll(direct("SELECT order_id, amount, status, created_at FROM orders WHERE user_id = 7 ORDER BY order_id"));
        return out;
    }

    private static List<String> direct(String sql) throws SQLException {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rows(rs);
        }
    }

    private static List<String> rows(PreparedStatement ps) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            return rows(rs);
        }
    }

    private static List<String> rows(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        int n = rs.getMetaData().getColumnCount();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                row.append(i > 1 ? " " : "").append(rs.getString(i));
            }
            out.add(row.toString());
        }
        return out;
    }
}
