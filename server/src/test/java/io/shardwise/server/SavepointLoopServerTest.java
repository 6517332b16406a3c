package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SAVEPOINT, ROLLBACK TO and RELEASE SAVEPOINT answered on the event loop (RelaySession#transactionCommand):
 * in a native transaction they go to all its connections at once from the loop, and a backend that joins
 * after a savepoint sets it before its first statement, so ROLLBACK TO undoes its work too; in autocommit, or
 * before any backend joined, the session records them without I/O. Every answer (OK and its status flags,
 * 1305) is, packet for packet, the session thread's on a server with the relay off, and no command runs on a
 * session thread ({@link ShardwiseServer#sessionCommands}).
 */
class SavepointLoopServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("svploop");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    /**
     * Savepoints around relayed writes on two backends, the second joining after the savepoint: text forms
     * (plain and back-quoted names, ROLLBACK WORK TO), 1305 after RELEASE and for a savepoint a ROLLBACK TO
     * removed, in autocommit (SAVEPOINT a no-op, ROLLBACK TO 1305), set before any backend joined (the
     * transaction still goes native and ROLLBACK TO reaches the backend that joined after it), with
     * autocommit off. Same packets as the session thread's, no hop to it, and the data as MySQL leaves it.
     */
    @Test
    void savepointStatementsAreAnsweredOnTheLoopAsTheSessionThreadAnswersThem() throws Exception {
        long[] ids = idsOnTwoBackends();
        long a = ids[0];
        long b = ids[1];
        List<String> before = state(a, b);
        String readA = "SELECT k FROM sbtest1 WHERE id = " + a;
        String readB = "SELECT k FROM sbtest1 WHERE id = " + b;
        List<String> script = List.of(
                "SAVEPOINT x", "ROLLBACK TO x", "RELEASE SAVEPOINT x",
                "BEGIN", "UPDATE sbtest1 SET k = 1001 WHERE id = " + a, "SAVEPOINT s1",
                "UPDATE sbtest1 SET k = 1002 WHERE id = " + b, readB, "ROLLBACK TO SAVEPOINT s1", readB, readA,
                "SAVEPOINT s2", "savepoint `s``3`", "ROLLBACK TO s2", "ROLLBACK TO `s``3`", "RELEASE SAVEPOINT s2",
                "ROLLBACK WORK TO SAVEPOINT s2", "SAVEPOINT s1", "ROLLBACK TO s1", "COMMIT",
                "BEGIN", "SAVEPOINT p", "UPDATE sbtest1 SET k = 1003 WHERE id = " + b, "ROLLBACK TO p", readB,
                "UPDATE sbtest1 SET k = 1004 WHERE id = " + a, "RELEASE SAVEPOINT p", "ROLLBACK TO p", "ROLLBACK",
                "SET autocommit = 0", "SAVEPOINT q", "ROLLBACK TO q", "SAVEPOINT q", "UPDATE sbtest1 SET k = 1005 WHERE id = " + b,
                "ROLLBACK TO q", readB, "SET autocommit = 1");
        List<List<String>> answers = new ArrayList<>();
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            List<String> out = new ArrayList<>();
            try (RawClient client = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                RelayServerTest.exchange(client, readA); // warms the shapes: only a plan-cache hit relays
                RelayServerTest.exchange(client, "UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = " + a);
                long hops = sample.server.sessionCommands();
                long relayed = sample.server.relayedStatements();
                for (String sql : script) {
                    List<String> packets = RelayServerTest.exchange(client, sql);
                    // a relayed statement's packets differ from the JDBC path's in their column details; their rows do not
                    out.add(sql + " -> " + (sql.startsWith("UPDATE") ? packets.size() + " packets"
                            : sql.startsWith("SELECT") ? packets.get(packets.size() - 2) : packets));
                }
                if (server == sample.server) {
                    assertEquals(hops, sample.server.sessionCommands(), "no command on the session thread: each was answered on the loop");
                    assertEquals(relayed + 10, sample.server.relayedStatements(), "every read and write relayed: the transactions were native");
                    assertEquals(0, sample.server.pinnedConnections());
                }
            }
            answers.add(out);
            assertEquals(List.of("1001", before.get(1)), state(a, b), "what the savepoints left: " + out);
            restore(a, b, before);
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
        assertEquals(5, answers.get(0).stream().filter(r -> r.contains("[1:ff1905")).count(), () -> "five 1305s: " + answers.get(0));
    }

    /** The same statements prepared (Connector/J with useServerPrepStmts, ORMs): answered on the loop as their text forms. */
    @Test
    void preparedSavepointStatementsAreAnsweredOnTheLoopAsTheSessionThreadAnswersThem() throws Exception {
        long[] ids = idsOnTwoBackends();
        List<String> before = state(ids[0], ids[1]);
        List<String> words = List.of("BEGIN", "SAVEPOINT s1", "ROLLBACK TO SAVEPOINT s1", "RELEASE SAVEPOINT s1", "COMMIT");
        String write = "UPDATE sbtest1 SET k = ? WHERE id = ?";
        List<List<String>> answers = new ArrayList<>();
        for (ShardwiseServer server : List.of(sample.server, plain)) {
            List<String> out = new ArrayList<>();
            try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                Map<String, Integer> prepared = new LinkedHashMap<>();
                for (String sql : words) {
                    prepared.put(sql, PreparedRelayServerTest.prepare(c, sql));
                }
                int w = PreparedRelayServerTest.prepare(c, write);
                PreparedRelayServerTest.execute(c, w, Param.longlong(Long.parseLong(before.get(0))), Param.longlong(ids[0])); // warms the plan
                long hops = sample.server.sessionCommands();
                for (String step : List.of("SAVEPOINT s1", "ROLLBACK TO SAVEPOINT s1", "BEGIN", "w0", "SAVEPOINT s1", "w1",
                        "ROLLBACK TO SAVEPOINT s1", "RELEASE SAVEPOINT s1", "ROLLBACK TO SAVEPOINT s1", "RELEASE SAVEPOINT s1", "COMMIT")) {
                    List<String> answer = switch (step) {
                        case "w0" -> PreparedRelayServerTest.execute(c, w, Param.longlong(2001), Param.longlong(ids[0]));
                        case "w1" -> PreparedRelayServerTest.execute(c, w, Param.longlong(2002), Param.longlong(ids[1]));
                        default -> PreparedRelayServerTest.execute(c, prepared.get(step));
                    };
                    out.add(step + " -> " + (step.startsWith("w") ? answer.size() + " packets" : answer));
                }
                if (server == sample.server) {
                    assertEquals(hops, sample.server.sessionCommands(), "no command on the session thread: each was answered on the loop");
                    assertEquals(0, sample.server.pinnedConnections());
                }
            }
            answers.add(out);
            assertEquals(List.of("2001", before.get(1)), state(ids[0], ids[1]), "ROLLBACK TO undid the write of the backend that joined after it");
            restore(ids[0], ids[1], before);
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
    }

    /**
     * Connector/J's own savepoint API (what Hibernate's nested transactions and Spring's NESTED propagation call):
     * back-quoted names, autocommit off; a savepoint set before the first statement, and one between two backends.
     */
    @Test
    void connectorJsSavepointsRollBackWhatFollowedThemOnEveryBackend() throws Exception {
        long[] ids = idsOnTwoBackends();
        List<String> before = state(ids[0], ids[1]);
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = " + ids[0]); // warms the shape: only a cached plan relays
            long relayed = sample.server.relayedStatements();
            c.setAutoCommit(false);
            Savepoint outer = c.setSavepoint("outer");
            s.executeUpdate("UPDATE sbtest1 SET k = 3001 WHERE id = " + ids[0]);
            Savepoint inner = c.setSavepoint("inner");
            s.executeUpdate("UPDATE sbtest1 SET k = 3002 WHERE id = " + ids[1]);
            c.rollback(inner);
            assertEquals(List.of("3001"), SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = " + ids[0]));
            assertEquals(List.of(before.get(1)), SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = " + ids[1]));
            c.releaseSavepoint(inner);
            SQLException gone = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> c.rollback(inner));
            assertEquals(1305, gone.getErrorCode(), gone.getMessage());
            c.rollback(outer);
            assertEquals(List.of(before.get(0)), SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = " + ids[0]));
            c.commit();
            c.setAutoCommit(true);
            assertTrue(sample.server.relayedStatements() >= relayed + 4, "the transaction was native: its writes and reads relayed");
        }
        assertEquals(before, state(ids[0], ids[1]));
    }

    /** Two sbtest1 ids whose rows live on different backends (PREVIEW names each one's). */
    private static long[] idsOnTwoBackends() throws SQLException {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            String first = backend(s, 41);
            for (long id = 42; id < 80; id++) {
                if (!backend(s, id).equals(first)) {
                    return new long[] {41, id};
                }
            }
        }
        throw new AssertionError("sbtest1's ids 41..79 all live on one backend");
    }

    /** The backend of sbtest1's row {@code id}, as PREVIEW names it (Connector/J runs PREVIEW with execute, not executeQuery). */
    private static String backend(Statement s, long id) throws SQLException {
        assertTrue(s.execute("PREVIEW SELECT k FROM sbtest1 WHERE id = " + id));
        try (java.sql.ResultSet rs = s.getResultSet()) {
            assertTrue(rs.next());
            return rs.getString(1);
        }
    }

    private static List<String> state(long a, long b) throws SQLException {
        List<String> out = new ArrayList<>(sample.column("SELECT k FROM sbtest1 WHERE id = " + a));
        out.addAll(sample.column("SELECT k FROM sbtest1 WHERE id = " + b));
        assertEquals(2, out.size());
        assertNotEquals(null, out.get(0));
        return out;
    }

    private static void restore(long a, long b, List<String> before) throws SQLException {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = " + a);
            s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(1) + " WHERE id = " + b);
        }
    }
}
