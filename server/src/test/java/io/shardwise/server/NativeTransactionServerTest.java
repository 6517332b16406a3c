package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.testkit.Await;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
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

    /**
     * BEGIN, COMMIT and ROLLBACK of transactions whose statements relay are answered on the event loop:
     * a raw client (no Connector/J set-up queries) runs transactions of relayed reads and writes, ends
     * with nothing open, and BEGIN; COMMIT with nothing in between, and its session thread never starts.
     * Every answer to those statements is, packet for packet (sequence id, status flags), the session
     * thread's on a server with the relay off; the writes are committed or rolled back as asked.
     */
    @Test
    void transactionStatementsAroundRelayedStatementsNeverWakeTheSessionThread() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
        }
        List<String> before = direct("SELECT k FROM sbtest1 WHERE id IN (21, 22) ORDER BY id");
        List<String> script = List.of("COMMIT", "ROLLBACK", "BEGIN", "SELECT k FROM sbtest1 WHERE id = 21",
                "UPDATE sbtest1 SET k = 2121 WHERE id = 21", "UPDATE sbtest1 SET k = 2222 WHERE id = 22", "COMMIT",
                "start transaction", "UPDATE sbtest1 SET k = 1 WHERE id = 21", "ROLLBACK work", "BEGIN", "COMMIT", "BEGIN", "ROLLBACK",
                "START TRANSACTION READ ONLY", "SELECT k FROM sbtest1 WHERE id = 22", "COMMIT");
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                long threads = sample.server.sessionThreads();
                List<String> out = new ArrayList<>();
                try (RawClient client = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                    for (String sql : script) {
                        List<String> packets = RelayServerTest.exchange(client, sql);
                        out.add(sql + " -> " + (sql.startsWith("SELECT") || sql.startsWith("UPDATE") ? packets.size() + " packets" : packets));
                    }
                    if (server == sample.server) {
                        assertEquals(threads, sample.server.sessionThreads(), "no session thread: every statement ran on the loop");
                        assertEquals(0, sample.server.pinnedConnections());
                    }
                }
                answers.add(out);
                if (server == sample.server) {
                    assertEquals(List.of("2121", "2222"), direct("SELECT k FROM sbtest1 WHERE id IN (21, 22) ORDER BY id"));
                    try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
                        s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = 21");
                        s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(1) + " WHERE id = 22");
                    }
                }
            }
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
    }

    /**
     * A command without an answer (COM_STMT_CLOSE: Connector/J sends it as it closes a server-side prepared
     * statement, and the next statement right behind it) must not push the statement after it off the
     * relay: that statement, a transaction's first, would otherwise find the session thread busy with the
     * close and take the JDBC executor for the whole transaction. Sent in one write, the close and a
     * relayable UPDATE: the UPDATE relays, and the transaction is native.
     */
    @Test
    void aStatementRightBehindAStatementCloseStillMakesTheTransactionNative() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
        }
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            client.command(0x16, "UPDATE sbtest1 SET k = k WHERE id = 1"); // COM_STMT_PREPARE: no parameters, no columns
            RawClient.Reply prepared = client.read();
            assertEquals(0, prepared.header(), "prepared");
            byte[] id = java.util.Arrays.copyOfRange(prepared.payload(), 1, 5);
            assertTrue(RelayServerTest.exchange(client, "BEGIN").get(0).startsWith("1:00"));
            long relayed = sample.server.relayedStatements();
            java.io.ByteArrayOutputStream wire = new java.io.ByteArrayOutputStream();
            wire.writeBytes(new byte[] {5, 0, 0, 0, 0x19}); // COM_STMT_CLOSE, answered by nothing
            wire.writeBytes(id);
            byte[] update = "UPDATE sbtest1 SET k = k WHERE id = 25".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            wire.writeBytes(new byte[] {(byte) (update.length + 1), 0, 0, 0, 0x03});
            wire.writeBytes(update);
            client.sendRaw(wire.toByteArray());
            assertEquals(0, client.read().header(), "the UPDATE's OK");
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the UPDATE relayed");
            assertEquals(1, sample.server.pinnedConnections(), "the transaction is native");
            assertEquals(0, sample.engine.activeConnections(), "nothing on the JDBC executor");
            assertTrue(RelayServerTest.exchange(client, "ROLLBACK").get(0).startsWith("1:00"));
        }
    }

    /**
     * A client that leaves with its native transaction open has it rolled back from the loop, its
     * connections returned, without a session thread. (A doomed transaction's COMMIT and ROLLBACK, now run
     * from the loop, are compared with the relay-off server's in
     * {@link #aBackendLostInsideANativeTransactionFailsAsOnTheJdbcPathAndLeaksNothing}.)
     */
    @Test
    void aClientThatLeavesMidTransactionHasItRolledBackWithoutASessionThread() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
        }
        List<String> before = direct("SELECT k FROM sbtest1 WHERE id = 24");
        long threads = sample.server.sessionThreads();
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            assertTrue(RelayServerTest.exchange(client, "BEGIN").get(0).startsWith("1:00"), "OK");
            RelayServerTest.exchange(client, "UPDATE sbtest1 SET k = -24 WHERE id = 24");
            assertEquals(1, sample.server.pinnedConnections());
        } // leaves with the transaction open
        Await.until("the vanished client's transaction ends", () -> sample.server.pinnedConnections() == 0);
        assertEquals(threads, sample.server.sessionThreads(), "none of it woke a session thread");
        assertEquals(before, direct("SELECT k FROM sbtest1 WHERE id = 24"), "rolled back");
    }

    @Test
    void mergedReadsOfANativeTransactionSendTheirUnitsFromTheEventLoopBeforeTheSessionPlansThem() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            List<String> count = rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 7");
            List<String> ordered = rows(s, "SELECT id, k FROM sbtest1 WHERE id BETWEEN 3 AND 6 ORDER BY id");
            long prefetched = sentAhead();
            s.execute("BEGIN");
            rows(s, "SELECT k FROM sbtest1 WHERE id = 1"); // relays: the transaction is native from here
            assertEquals(count, rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 7"));
            assertEquals(ordered, rows(s, "SELECT id, k FROM sbtest1 WHERE id BETWEEN 3 AND 6 ORDER BY id"));
            assertEquals(prefetched + 2, sentAhead(), "both merges took the units the loop sent");
            // what the transaction wrote, read by a merge whose units were sent ahead: the same connections
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 7 WHERE id = 3"));
            assertEquals(String.valueOf(Long.parseLong(count.get(0)) + (ordered.get(0).endsWith(" 7") ? 0 : 1)),
                    rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 7").get(0));
            s.execute("SAVEPOINT sp"); // after a merge, on connections whose units were taken
            assertEquals(0, sample.engine.activeConnections());
            s.execute("ROLLBACK");
            assertEquals(prefetched + 3, sentAhead());
            assertEquals(0, sample.server.pinnedConnections(), "ROLLBACK gave the connections back");
            assertEquals(count, rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 7"));
            // autocommit: sent ahead too, on leased relay connections (AutocommitReads.prefetch)
            assertEquals(prefetched + 4, sentAhead());
        }
    }

    /** Merged reads whose units the loop sent ahead: taken by the session's thread, or merged by the loop itself. */
    private static long sentAhead() {
        return sample.server.prefetchedStatements() + sample.server.loopMergedStatements();
    }

    /**
     * A native transaction's merged reads (COUNT, SUM, ORDER BY, DISTINCT, a unit's warning) are merged and
     * answered by the event loop once their units are in (LoopMerges): no session thread starts, and every
     * packet (column definitions, rows, end packet with status and warning count), and SHOW WARNINGS after,
     * is the session thread's on a server with the relay off. Without a thread-free merge the first merged
     * read starts the session thread.
     */
    @Test
    void mergedReadsOfANativeTransactionAreAnsweredByTheEventLoopAsByTheSessionThread() throws Exception {
        List<String> merges = List.of("SELECT COUNT(*) FROM sbtest1 WHERE k = 7", "SELECT id, k FROM sbtest1 WHERE id BETWEEN 3 AND 6 ORDER BY id",
                "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 1 AND 30", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 1 AND 30 ORDER BY c",
                "SELECT SUM(CAST(c AS SIGNED)), MAX(c) FROM sbtest1 WHERE id BETWEEN 1 AND 8");
        List<String> onLoop = new ArrayList<>(List.of("BEGIN", "SELECT k FROM sbtest1 WHERE id = 1"));
        onLoop.addAll(merges);
        onLoop.add("COMMIT");
        List<String> after = List.of("BEGIN", "SELECT k FROM sbtest1 WHERE id = 2", merges.get(4), "SHOW WARNINGS", "COMMIT");
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            try (RawClient warm = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                for (String sql : onLoop) {
                    RelayServerTest.exchange(warm, sql); // the shapes' plans cached: only a cached plan relays
                }
            }
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                long threads = sample.server.sessionThreads();
                long merged = sample.server.loopMergedStatements();
                List<String> out = new ArrayList<>();
                try (RawClient client = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                    for (String sql : onLoop) {
                        out.add(sql + " -> " + RelayServerTest.exchange(client, sql));
                    }
                    if (server == sample.server) {
                        assertEquals(threads, sample.server.sessionThreads(), "no session thread: every merge was answered on the loop");
                        assertEquals(merged + merges.size(), sample.server.loopMergedStatements());
                    }
                    for (String sql : after) {
                        out.add(sql + " -> " + RelayServerTest.exchange(client, sql));
                    }
                }
                answers.add(out);
            }
        }
        assertTrue(answers.get(1).get(answers.get(1).size() - 2).contains("04313239329c"), "the CAST warned (1292): " + answers.get(1));
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
    }

    /**
     * sysbench {@code oltp_read_only}'s transaction in text (BEGIN, ten point selects, the four ranges, COMMIT)
     * costs the backends only its own statements: each shard it touches runs START TRANSACTION (pipelined with
     * its first read), the selects and COMMIT, and nothing else — no SET, no SHOW WARNINGS, no session state
     * replayed per transaction — and no command goes to a session thread (every statement is answered on the
     * client's event loop, whose relay connections are its own). Counted on the backend (its Com_* counters),
     * not timed.
     */
    @Test
    void aSysbenchReadOnlyTransactionCostsTheBackendsOnlyItsOwnStatements() throws Exception {
        List<String> transaction = new ArrayList<>(List.of("BEGIN"));
        for (int i = 0; i < 10; i++) {
            transaction.add("SELECT c FROM sbtest1 WHERE id = " + (i * 7 + 1));
        }
        transaction.addAll(List.of("SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 14", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5 AND 14",
                "SELECT c FROM sbtest1 WHERE id BETWEEN 5 AND 14 ORDER BY c", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5 AND 14 ORDER BY c",
                "COMMIT"));
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             Connection status = sample.backend.connect("information_schema"); Statement counters = status.createStatement()) {
            for (int round = 0; round < 2; round++) { // the shapes' plans cached (only a cached plan relays), connections made
                for (String sql : transaction) {
                    RelayServerTest.exchange(client, sql);
                }
            }
            long commands = sample.server.sessionCommands();
            long merged = sample.server.loopMergedStatements();
            Map<String, Long> before = backendCounters(counters);
            int transactions = 3;
            for (int round = 0; round < transactions; round++) {
                for (String sql : transaction) {
                    RelayServerTest.exchange(client, sql);
                }
            }
            Map<String, Long> after = backendCounters(counters);
            Map<String, Long> perTransaction = new TreeMap<>();
            after.forEach((name, value) -> perTransaction.put(name, (value - before.get(name)) / transactions));
            assertEquals(commands, sample.server.sessionCommands(), "no command went to a session thread");
            assertEquals(merged + 3 * transactions, sample.server.loopMergedStatements(), "SUM, ORDER BY and DISTINCT merged on the loop");
            // both shards joined (the ranges reach both): START TRANSACTION and COMMIT once on each, 10 point reads, 4 ranges on each
            assertEquals(Map.of("com_begin", 2L, "com_commit", 2L, "com_rollback", 0L, "com_select", 18L,
                    "com_set_option", 0L, "com_show_warnings", 0L), perTransaction);
        }
    }

    /**
     * The backend's counters of the statements a transaction may cost it (all its clients': this class's tests run one at a
     * time), read on one connection opened before, so that its own set-up statements are not counted.
     */
    private static Map<String, Long> backendCounters(Statement s) throws SQLException {
        Map<String, Long> out = new TreeMap<>();
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_begin', 'Com_commit', 'Com_rollback', "
                     + "'Com_select', 'Com_set_option', 'Com_show_warnings')")) {
            while (rs.next()) {
                out.put(rs.getString(1).toLowerCase(Locale.ROOT), rs.getLong(2));
            }
        }
        return out;
    }

    /**
     * A merged read whose units return more than the loop's bound goes to the session thread as before (same
     * answer); one whose units sent ahead pass the bound on what is held whole ({@code shardwise.nativeReadBudget})
     * runs again with each backend's unit streaming (same answer). Only units that share a backend's connection
     * with a later one are still held whole: past the bound such a statement fails with 1235, its units read to
     * their end so the transaction goes on (its connections clean) and commits.
     */
    @Test
    void mergedReadsPastTheLoopsBoundGoToTheSessionThreadAndPastTheMemoryBoundStream() throws Exception {
        String ordered = "SELECT id, k, c FROM sbtest1 WHERE id BETWEEN 1 AND 30 ORDER BY id";
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            List<String> autocommit = RelayServerTest.exchange(client, ordered);
            long merged = sample.server.loopMergedStatements();
            long prefetched = sentAhead();
            RelayServerTest.exchange(client, "BEGIN");
            RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1");
            System.setProperty("shardwise.loopMergeBytes", "100");
            try { // the same rows (the end packet's status differs: in a transaction now)
                assertEquals(withoutEnd(autocommit), withoutEnd(RelayServerTest.exchange(client, ordered)));
            } finally {
                System.clearProperty("shardwise.loopMergeBytes");
            }
            assertEquals(merged, sample.server.loopMergedStatements(), "past the loop's bound");
            assertEquals(prefetched + 1, sentAhead(), "the session thread took the units sent ahead");
            System.setProperty("shardwise.nativeReadBudget", "100");
            try {
                long streamed = sample.server.streamedResponses();
                assertEquals(withoutEnd(autocommit), withoutEnd(RelayServerTest.exchange(client, ordered)), "streamed, the same rows");
                assertEquals(streamed + 2, sample.server.streamedResponses(), "each backend's unit streamed");
                // orders: two tables on each backend, so each connection's first unit is held whole while its second streams
                String twoPerBackend = "SELECT order_id, user_id, status FROM orders ORDER BY order_id";
                List<String> refused = RelayServerTest.exchange(client, twoPerBackend);
                assertEquals(1, refused.size(), refused.toString());
                assertTrue(refused.get(0).startsWith("1:ffd304"), "1235: " + refused);
                String message = new String(java.util.HexFormat.of().parseHex(refused.get(0).substring(2)), java.nio.charset.StandardCharsets.UTF_8);
                assertTrue(message.contains("units on one backend return more than 100 bytes of rows before its last"), message);
                List<String> again = RelayServerTest.exchange(client, twoPerBackend.replace("status", "amount")); // again, the transaction intact
                assertTrue(again.get(0).startsWith("1:ffd304"), "1235: " + again);
            } finally {
                System.clearProperty("shardwise.nativeReadBudget");
            }
            long loopMerged = sample.server.loopMergedStatements();
            assertEquals(withoutEnd(autocommit), withoutEnd(RelayServerTest.exchange(client, ordered)), "the transaction goes on, its connections clean");
            assertEquals(loopMerged + 1, sample.server.loopMergedStatements(), "within the bounds: on the loop");
            assertTrue(RelayServerTest.exchange(client, "COMMIT").get(0).startsWith("1:00"), "COMMIT");
            assertEquals(0, sample.server.pinnedConnections());
        }
    }

    /**
     * A single unit's result the session's thread runs inside a native transaction (a first execution of its shape:
     * no cached plan, so it does not relay) streams from the pinned connection: the bound on what is read whole
     * ({@code shardwise.nativeReadBudget}) does not apply to it, and the transaction goes on (a further statement of a
     * new shape, COMMIT). Far larger results: {@link NativeStreamingServerTest}.
     */
    @Test
    void aSingleUnitResultTheSessionReadsInANativeTransactionStreamsPastTheBoundAndTheTransactionGoesOn() throws Exception {
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1"); // warms the shape: the transaction's first statement relays
            RelayServerTest.exchange(client, "BEGIN");
            RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1");
            assertTrue(sample.server.pinnedConnections() >= 1, "native");
            long streamed = sample.server.streamedResponses();
            System.setProperty("shardwise.nativeReadBudget", "100");
            try {
                List<String> read = RelayServerTest.exchange(client, "SELECT id, c, pad FROM sbtest1 WHERE id = 2 AND k > -1");
                assertTrue(!read.get(0).startsWith("1:ff") && read.size() >= 6, "a column count, three columns, a row, the end: " + read);
            } finally {
                System.clearProperty("shardwise.nativeReadBudget");
            }
            assertEquals(streamed + 1, sample.server.streamedResponses(), "streamed from the pinned connection");
            List<String> read = RelayServerTest.exchange(client, "SELECT pad, c, id FROM sbtest1 WHERE id = 3");
            assertTrue(!read.get(0).startsWith("1:ff") && read.size() >= 6, "a column count, three columns, a row, the end: " + read);
            assertTrue(RelayServerTest.exchange(client, "COMMIT").get(0).startsWith("1:00"), "COMMIT");
            assertEquals(0, sample.server.pinnedConnections());
        }
    }

    /**
     * KILL QUERY reaches a merged read whose units the loop sent ahead and waits for (no session thread runs
     * it): its units are killed, the session's thread reports 1317 as before, and the transaction goes on.
     */
    @Test
    void killQueryEndsAMergedReadTheLoopWaitsForAndTheTransactionGoesOn() throws Exception {
        String slow = "SELECT COUNT(*) FROM sbtest1 WHERE id <= 6 AND SLEEP(%d) = 0";
        try (RawClient victim = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             Connection killer = sample.connect("app", ""); Statement ks = killer.createStatement()) {
            List<String> idPackets = RelayServerTest.exchange(victim, "SELECT CONNECTION_ID()");
            String hex = idPackets.get(idPackets.size() - 2).substring(idPackets.get(idPackets.size() - 2).indexOf(':') + 3);
            long id = Long.parseLong(new String(java.util.HexFormat.of().parseHex(hex), java.nio.charset.StandardCharsets.US_ASCII));
            RelayServerTest.exchange(victim, String.format(slow, 0)); // the shape's plan cached
            RelayServerTest.exchange(victim, "BEGIN");
            RelayServerTest.exchange(victim, "SELECT k FROM sbtest1 WHERE id = 1");
            long prefetched = sample.server.prefetchedStatements();
            long merged = sample.server.loopMergedStatements();
            victim.command(0x03, String.format(slow, 20));
            Await.until("the units run the SLEEP", () -> backendQueriesLike("%SLEEP(20)%") >= 2);
            ks.execute("KILL QUERY " + id);
            List<String> killed = RelayServerTest.readResponse(victim);
            assertTrue(killed.get(0).startsWith("1:ff2505"), "1317: " + killed);
            Await.until("the killed units ended", () -> backendQueriesLike("%SLEEP(20)%") == 0);
            assertEquals(prefetched + 1, sample.server.prefetchedStatements(), "the session's thread took the units the loop sent");
            assertEquals(merged, sample.server.loopMergedStatements());
            assertEquals(4, RelayServerTest.exchange(victim, "SELECT k FROM sbtest1 WHERE id = 1").size(), "the transaction goes on");
            assertTrue(RelayServerTest.exchange(victim, "ROLLBACK").get(0).startsWith("1:00"));
            assertEquals(0, sample.server.pinnedConnections());
        }
    }

    private static int backendQueriesLike(String pattern) {
        try (Connection c = sample.backend.connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE '"
                     + pattern + "' AND INFO NOT LIKE '%PROCESSLIST%'")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> withoutEnd(List<String> packets) {
        return packets.subList(0, packets.size() - 1);
    }

    @Test
    void aMergedDecimalInANativeTransactionIsDescribedAsInAutocommit() throws Exception {
        String sum = "SELECT SUM(k), AVG(k) FROM sbtest1 WHERE id IN (1, 2, 3, 4, 5, 6)";
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            String autocommit = described(s, sum);
            s.execute("BEGIN");
            rows(s, "SELECT k FROM sbtest1 WHERE id = 1"); // relays: the transaction is native from here
            assertEquals(autocommit, described(s, sum), "the merge read the units' column definitions off the wire");
            assertEquals(2, sample.server.pinnedConnections(), "native on both backends the merge read");
            s.execute("ROLLBACK");
        }
    }

    /** Each column's type, precision, scale and display size as Connector/J reads them off the column definitions. */
    private static String described(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            java.sql.ResultSetMetaData md = rs.getMetaData();
            StringBuilder sb = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                sb.append(md.getColumnTypeName(i)).append('(').append(md.getPrecision(i)).append(',').append(md.getScale(i))
                        .append(") size ").append(md.getColumnDisplaySize(i)).append("; ");
            }
            return sb.toString();
        }
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
    void aStatementOverTwoBackendsThatFailsOnOneLeavesNothingOfItAndTheTransactionGoesOn() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = 1 WHERE id = 1")); // relays: the transaction runs natively
            long bridged = sample.server.nativeStatements();
            // user_id mod 4: 90000 on ds0, 2 (which exists) on ds1
            SQLException e = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO users (user_id, name) VALUES (90000, 'half'), (2, 'duplicate')"));
            assertEquals(1062, e.getErrorCode());
            assertTrue(sample.server.nativeStatements() > bridged, "the insert ran on the pinned connections");
            assertEquals(0, sample.engine.activeConnections());
            assertEquals(List.of("0"), rows(s, "SELECT COUNT(*) FROM users WHERE user_id = 90000"), "rolled back inside the transaction");
            assertEquals(2, s.executeUpdate("INSERT INTO users (user_id, name) VALUES (90004, 'kept'), (90006, 'kept')"));
            s.execute("COMMIT");
        }
        assertEquals(List.of("90004 kept", "90006 kept"), direct("SELECT user_id, name FROM users WHERE user_id BETWEEN 90000 AND 90006 ORDER BY user_id"));
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.executeUpdate("DELETE FROM users WHERE user_id IN (90004, 90006)");
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
            // the first UPDATE must still be waiting when the poll below looks (it once ended with 1205 first, the
            // executor's 10 s lock wait outlasted by a poll starved on a loaded machine): MySQL's default 50 s, set before
            // the warm-up so the relayed shapes carry it
            sa.execute("SET innodb_lock_wait_timeout = 50");
            sb.execute("SET innodb_lock_wait_timeout = 50");
            warm(sa);
            warm(sb);
            long pinnedBefore = sample.server.pinnedConnections();
            long relayed = sample.server.relayedStatements();
            sa.execute("BEGIN"); // answered on the loop, as the COMMITs below
            sb.execute("BEGIN");
            sa.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(0));
            sb.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(1));
            // both transactions native, at once (no retry): the lock cycle runs on relay connections. It once took
            // the JDBC executor on one side now and then ("pinned 1, borrowed 1"); see aStatementRightBehindAStatementClose…
            assertEquals(relayed + 2, sample.server.relayedStatements(), "both first statements relayed");
            assertEquals(pinnedBefore + 2, sample.server.pinnedConnections(), "both transactions native");
            assertEquals(0, sample.engine.activeConnections(), "nothing on the JDBC executor");
            CompletableFuture<Integer> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return sa.executeUpdate("UPDATE sbtest1 SET k = k + 1 WHERE id = " + ids.get(1));
                } catch (SQLException e) {
                    return -e.getErrorCode();
                }
            });
            try {
                awaitLockWait();
            } catch (AssertionError e) {
                // what the backend and the server held when the first statement never waited, in the failure's message
                // (CI prints that, not the test's output): for the next reader of a failure
                StringBuilder held = new StringBuilder("first statement done " + first.isDone() + (first.isDone() ? " with " + first.join() : "")
                        + "; relayed " + sample.server.relayedStatements() + ", pinned " + sample.server.pinnedConnections()
                        + ", borrowed " + sample.engine.activeConnections());
                try (Connection d = sample.backend.connect("information_schema"); Statement ds = d.createStatement()) {
                    held.append("; innodb_trx ").append(rows(ds, "SELECT trx_state, trx_mysql_thread_id, trx_query, trx_rows_locked"
                            + " FROM information_schema.innodb_trx"));
                    held.append("; processlist ").append(rows(ds, "SELECT ID, DB, COMMAND, TIME, STATE, INFO"
                            + " FROM information_schema.PROCESSLIST WHERE DB LIKE '" + sample.target.databasePrefix() + "%'"));
                }
                throw new AssertionError(e.getMessage() + ": " + held, e);
            }
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

    @Test
    void preparedStatementsInsideANativeTransactionRunOnItsConnectionsWithTheirValues() throws Exception {
        try (Connection c = sample.connect("app", "&useServerPrepStmts=true"); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            long relayed = sample.server.relayedStatements();
            assertEquals(1, rows(s, "SELECT k FROM sbtest1 WHERE id = 17").size());
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the transaction is native");
            try (java.sql.PreparedStatement update = c.prepareStatement("UPDATE sbtest1 SET k = ?, c = ? WHERE id = ? AND k <> ?")) {
                update.setInt(1, 1717);
                update.setString(2, "it's a \\ ? 'quoted' value");
                update.setLong(3, 17);
                update.setDouble(4, -0.5);
                assertEquals(1, update.executeUpdate());
            }
            try (java.sql.PreparedStatement read = c.prepareStatement("SELECT k, c FROM sbtest1 WHERE id = ? AND c LIKE ?")) {
                read.setInt(1, 17);
                read.setString(2, "it's%");
                try (ResultSet rs = read.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(1717, rs.getInt(1));
                    assertEquals("it's a \\ ? 'quoted' value", rs.getString(2));
                }
            }
            assertEquals(0, sample.engine.activeConnections(), "the executes ran on the transaction's connection");
            s.execute("ROLLBACK");
        }
    }

    @Test
    void aCallInsideANativeTransactionReadsAllItsResultsOnThePinnedConnection() throws Exception {
        try (Connection c = sample.connect("app", "&allowMultiQueries=false"); Statement s = c.createStatement()) {
            warm(s);
            s.execute("DROP PROCEDURE IF EXISTS native_two");
            s.execute("CREATE PROCEDURE native_two() BEGIN SELECT 1 AS one; SELECT 2 AS two, 3 AS three; END");
            s.execute("BEGIN");
            long relayed = sample.server.relayedStatements();
            assertEquals(1, rows(s, "SELECT k FROM sbtest1 WHERE id = 16").size());
            assertEquals(relayed + 1, sample.server.relayedStatements(), "the transaction is native");
            List<String> seen = new ArrayList<>();
            for (boolean rows = s.execute("CALL native_two()"); rows || s.getUpdateCount() != -1; rows = s.getMoreResults()) {
                if (rows) {
                    try (ResultSet rs = s.getResultSet()) {
                        while (rs.next()) {
                            seen.add(rs.getMetaData().getColumnLabel(1) + "=" + rs.getString(1));
                        }
                    }
                }
            }
            assertEquals(List.of("one=1", "two=2"), seen);
            assertEquals(0, sample.engine.activeConnections(), "the CALL ran on the transaction's connection");
            s.execute("COMMIT");
            s.execute("DROP PROCEDURE native_two");
        }
    }

    /**
     * A relayed write's OK is its backend's (affected rows, insert id, warnings and MySQL's info text)
     * with the session's status flags: compared with the same raw client on the unsharded copy, in
     * autocommit mode and inside a transaction.
     */
    @Test
    void relayedWritesAnswerWithTheOkPacketOneMysqlSends() throws Exception {
        List<String> statements = List.of(
                "UPDATE sbtest1 SET k = k WHERE id = 5",
                "UPDATE sbtest1 SET k = k + 1 WHERE id = 5",
                "UPDATE sbtest1 SET k = k + 1 WHERE id = 777777",
                "INSERT INTO sbtest1 (id, k, c, pad) VALUES (6001, 1, 'a', 'b')",
                "INSERT IGNORE INTO sbtest1 (id, k, c, pad) VALUES (6001, 1, 'a', 'b')",
                "UPDATE sbtest1 SET c = REPEAT('x', 200) WHERE id = 6001",
                "DELETE FROM sbtest1 WHERE id = 6001");
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            warm(s);
            for (String sql : statements) {
                try {
                    s.executeUpdate(sql);
                } catch (SQLException e) {
                    // warming the shape is all that counts
                }
            }
            s.executeUpdate("DELETE FROM sbtest1 WHERE id = 6001");
        }
        for (boolean transaction : List.of(false, true)) {
            List<String> expected;
            try (RawClient c = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                    NativePassword.PLUGIN)) {
                expected = oks(c, statements, transaction);
            }
            long relayed = sample.server.relayedStatements();
            List<String> actual;
            try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                actual = oks(c, statements, transaction);
            }
            assertEquals(String.join("\n", expected), String.join("\n", actual), transaction ? "in a transaction" : "autocommit");
            assertEquals(relayed + statements.size(), sample.server.relayedStatements(), "every write relayed");
        }
    }

    /**
     * A backend lost inside a transaction, on the native path as on the JDBC path (a server with the
     * relay off over the same engine, the same client steps): first its connections cut mid-transaction
     * (the transaction is doomed: its statements and COMMIT fail, ROLLBACK ends it), then the backend
     * gone for good (joining it fails the statement; the transaction goes on and rolls back). Every
     * error is 1105 as the JDBC path's, never a [BUG] or a Java exception; the client's connection
     * serves on; nothing is left pinned or borrowed; nothing of the transactions stays written.
     */
    @Test
    void aBackendLostInsideANativeTransactionFailsAsOnTheJdbcPathAndLeaksNothing() throws Exception {
        io.shardwise.testkit.MysqlServer backend = sample.backend;
        String prefix = io.shardwise.testkit.TestBackends.uniqueSchemaName("nativelost");
        io.shardwise.core.sample.SampleTarget target = new io.shardwise.core.sample.SampleTarget(backend.host(), backend.port(),
                backend.user(), backend.password(), prefix);
        try (io.shardwise.testkit.FaultProxy ds1 = io.shardwise.testkit.FaultProxy.to(backend.host(), backend.port())) {
            io.shardwise.core.rule.ShardingRule rule = io.shardwise.core.sample.SampleData.rule(target, yaml -> yaml
                    .replace("${env:SHARDWISE_SAMPLE_HOST:-127.0.0.1}:${env:SHARDWISE_SAMPLE_PORT:-3306}/${env:SHARDWISE_SAMPLE_DB:-shop}_1",
                            ds1.host() + ":" + ds1.port() + "/" + prefix + "_1")
                    .replace("    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n",
                            "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n    pool: { max: 4, connectionTimeout: 2s }\n"));
            io.shardwise.core.sample.SampleData.loadSharded(rule);
            try (io.shardwise.core.Engine engine = io.shardwise.core.Engine.start(rule);
                 ShardwiseServer relayOn = ShardwiseServer.start(engine, "127.0.0.1", 0);
                 ShardwiseServer relayOff = ShardwiseServer.start(engine, engine.rule().config().server().withRelay(false), 0)) {
                List<List<String>> cut = new ArrayList<>();
                for (ShardwiseServer server : List.of(relayOff, relayOn)) {
                    cut.add(loseBackendInTransaction(server, ds1, 7_000_000_001L + cut.size() * 10, false));
                }
                assertEquals(cut.get(0), cut.get(1), "connections cut mid-transaction: relay off, then on");
                ds1.close(); // the backend is gone: connections to it are refused
                List<List<String>> gone = new ArrayList<>();
                for (ShardwiseServer server : List.of(relayOff, relayOn)) {
                    gone.add(loseBackendInTransaction(server, ds1, 7_000_000_101L + gone.size() * 10, true));
                }
                assertEquals(gone.get(0), gone.get(1), "the backend gone: relay off, then on");
                Await.until("the native transactions gave their connections back", () -> relayOn.pinnedConnections() == 0);
                assertEquals(0, engine.activeConnections());
            }
        } finally {
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    /**
     * Pinned connections count against the relay's bound, {@code pool.max} per backend over every
     * event loop: with the budget spent by idle relay connections of other sessions' settings, a new
     * transaction finds none to reserve; it waits, those idle connections close for it, and it never
     * opens one more (counted on the backend's PROCESSLIST: the JDBC pool's {@code max}, kept open by
     * {@code minIdle}, plus the relay's, never beyond). Its writes commit all the same and nothing stays pinned.
     */
    @Test
    void pinnedConnectionsStayWithinThePoolBoundWhenTheRelayBudgetIsSpent() throws Exception {
        io.shardwise.testkit.MysqlServer backend = sample.backend;
        String prefix = io.shardwise.testkit.TestBackends.uniqueSchemaName("nativebound");
        io.shardwise.core.sample.SampleTarget target = new io.shardwise.core.sample.SampleTarget(backend.host(), backend.port(),
                backend.user(), backend.password(), prefix);
        io.shardwise.core.rule.ShardingRule rule = io.shardwise.core.sample.SampleData.rule(target, yaml -> yaml
                .replace("    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n",
                        "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n    pool: { max: 2, minIdle: 2, connectionTimeout: 5s }\n"));
        io.shardwise.core.sample.SampleData.loadSharded(rule);
        try (io.shardwise.core.Engine engine = io.shardwise.core.Engine.start(rule);
             ShardwiseServer relayOn = ShardwiseServer.start(engine, "127.0.0.1", 0);
             ShardwiseServer relayOff = ShardwiseServer.start(engine, engine.rule().config().server().withRelay(false), 0)) {
            String off = "jdbc:mysql://127.0.0.1:" + relayOff.address().getPort() + "/shop?user=app&password=app&sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true";
            String on = "jdbc:mysql://127.0.0.1:" + relayOn.address().getPort() + "/shop?user=app&password=app&sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true";
            try (Connection c = java.sql.DriverManager.getConnection(off); Statement s = c.createStatement()) {
                // the shapes into the plan cache through the JDBC face, so no relay connection opens for them
                rows(s, "SELECT status FROM orders WHERE user_id = 1");
                s.executeUpdate(orderInsert(7_100_000_001L, 1));
                s.executeUpdate("DELETE FROM orders WHERE order_id = 7100000001");
            }
            List<Connection> others = new ArrayList<>();
            try (Connection t = java.sql.DriverManager.getConnection(on); Statement st = t.createStatement()) {
                for (String zone : List.of("+01:00", "+02:00")) { // a pool of their own each: their idle connections spend the budget
                    Connection other = java.sql.DriverManager.getConnection(on);
                    others.add(other);
                    try (Statement s = other.createStatement()) {
                        s.execute("SET time_zone = '" + zone + "'");
                        long relayed = relayOn.relayedStatements();
                        rows(s, "SELECT status FROM orders WHERE user_id = 1");
                        rows(s, "SELECT status FROM orders WHERE user_id = 3");
                        assertEquals(relayed + 2, relayOn.relayedStatements(), "relayed, leaving idle relay connections");
                    }
                }
                t.setAutoCommit(false);
                st.executeUpdate(orderInsert(7_100_000_011L, 1)); // ds0
                st.executeUpdate(orderInsert(7_100_000_012L, 3)); // ds1
                long ds0 = backendConnections(backend, prefix + "_0");
                long ds1 = backendConnections(backend, prefix + "_1");
                assertTrue(ds0 <= 4 && ds1 <= 4, "backend connections within 2 x pool.max: ds0 " + ds0 + ", ds1 " + ds1);
                t.commit();
                t.setAutoCommit(true);
                assertEquals(List.of("2"), rows(st, "SELECT COUNT(*) FROM orders WHERE order_id IN (7100000011, 7100000012)"));
                st.executeUpdate("DELETE FROM orders WHERE order_id IN (7100000011, 7100000012)");
            } finally {
                for (Connection other : others) {
                    other.close();
                }
            }
            assertEquals(0, relayOn.pinnedConnections());
            Await.until("every borrowed connection back", () -> engine.activeConnections() == 0);
        } finally {
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    /** Connections open on {@code backend} with {@code schema} as their database. */
    private static long backendConnections(io.shardwise.testkit.MysqlServer backend, String schema) throws SQLException {
        try (Connection c = backend.connect("information_schema"); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = '" + schema + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /**
     * One client's transaction writing on ds0 then ds1 (order ids from {@code id}), its ds1
     * connections cut (or ds1 gone) between the two writes: what each later step answered, as
     * {@code errno} or {@code ok}. The connection must still serve and keep nothing of the transaction.
     */
    private static List<String> loseBackendInTransaction(ShardwiseServer server, io.shardwise.testkit.FaultProxy ds1, long id, boolean gone)
            throws Exception {
        List<String> steps = new ArrayList<>();
        try (Connection c = java.sql.DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true"); Statement s = c.createStatement()) {
            if (!gone) { // the shapes into the plan cache (only a hit relays)
                warmUp(s, orderInsert(id + 5, 1));
                warmUp(s, orderInsert(id + 6, 3));
                warmUp(s, "DELETE FROM orders WHERE order_id IN (" + (id + 5) + ", " + (id + 6) + ")");
            }
            long relayed = server.relayedStatements();
            c.setAutoCommit(false);
            s.executeUpdate(orderInsert(id, 1)); // user 1: ds0
            if (!gone) {
                s.executeUpdate(orderInsert(id + 1, 3)); // user 3: ds1
                if (server.pinnedConnections() > 0) {
                    assertTrue(server.relayedStatements() >= relayed + 2, "the transaction's writes relayed");
                }
                ds1.cutAll();
            }
            steps.add(step(() -> s.executeUpdate(orderInsert(id + 2, 3)), c));
            steps.add(step(() -> s.executeUpdate(orderInsert(id + 3, 1)), c));
            steps.add(step(c::commit, c));
            steps.add(step(c::rollback, c));
            c.setAutoCommit(true);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders WHERE user_id = 1 AND order_id BETWEEN " + id + " AND " + (id + 9))) {
                rs.next();
                steps.add("ds0 rows " + rs.getLong(1));
            }
        }
        return steps;
    }

    /**
     * A warm-up write, again while it meets pooled JDBC connections the previous round's cut left dead
     * (1105, "the connection was lost": each is evicted as it fails; its outcome is unknown, so Shardwise
     * does not retry it itself; the pool holds at most 4 here). The statements are idempotent: an
     * INSERT that did run fails its retry with 1062, which is ignored.
     */
    private static void warmUp(Statement s, String sql) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                s.executeUpdate(sql);
                return;
            } catch (SQLException e) {
                if (attempt > 1 && e.getErrorCode() == 1062) {
                    return;
                }
                if (e.getErrorCode() != 1105 || attempt == 6) {
                    throw e;
                }
            }
        }
    }

    private interface SqlStep {
        void run() throws SQLException;
    }

    private static String step(SqlStep step, Connection c) throws SQLException {
        try {
            step.run();
            return "ok";
        } catch (SQLException e) {
            String m = String.valueOf(e.getMessage());
            assertTrue(e.getErrorCode() >= 1000 && !m.contains("[BUG]") && !m.contains("Exception") && !c.isClosed(),
                    () -> "a MySQL error on a connection that serves on: " + e.getErrorCode() + " " + e.getSQLState() + " " + m);
            return e.getErrorCode() + "/" + e.getSQLState(); // both faces the same documented error: 1105/HY000
        }
    }

    private static String orderInsert(long id, int user) {
        return "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (" + id + ", " + user
                + ", 'lost', 1.00, '2026-11-26 12:00:00')";
    }

    /**
     * Issue 14's data safety on the relay: a client that escapes values itself (go-sql-driver with
     * interpolateParams, PyMySQL) reads SERVER_STATUS_NO_BACKSLASH_ESCAPES from every OK and EOF, so a
     * relayed write's or read's status must carry it as one MySQL's does — else the client's next
     * value ending in a backslash is escaped the wrong way and the backend fails it with 1064, or
     * worse, reads it as more SQL. Raw bytes inside {@code _binary'…'} and such a value, relayed in
     * autocommit mode and inside a transaction, are stored as one MySQL stores them.
     */
    @Test
    void writesCarryingRawBytesUnderNoBackslashEscapesStoreWhatTheClientSent() throws Exception {
        byte[] raw = {0x00, (byte) 0xFF, (byte) 0x80};
        String injection = "\u00e9'' OR 1=1 -- \\"; // é' OR 1=1 -- \ with the quote doubled, as the client escapes it
        List<List<String>> answers = new ArrayList<>();
        for (boolean viaServer : List.of(false, true)) {
            try (RawClient c = viaServer ? RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)
                    : RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                            NativePassword.PLUGIN)) {
                List<String> out = new ArrayList<>();
                ok(c, "DROP TABLE IF EXISTS native_bytes");
                ok(c, "CREATE TABLE native_bytes (id INT PRIMARY KEY, v VARBINARY(64), s VARCHAR(64)) DEFAULT CHARSET utf8mb4");
                ok(c, "SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
                long relayed = sample.server.relayedStatements();
                for (int id = 1; id <= 6; id++) {
                    if (id == 4) {
                        ok(c, "BEGIN");
                    }
                    java.io.ByteArrayOutputStream q = new java.io.ByteArrayOutputStream();
                    q.write(0x03);
                    q.writeBytes(("INSERT INTO native_bytes (id, v, s) VALUES (" + id + ",_binary'").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    q.writeBytes(raw);
                    q.writeBytes(("','" + injection + "')").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    c.send(0, q.toByteArray());
                    out.add(reply(c));
                    // the same shape with the raw bytes in an UPDATE's WHERE and SET
                    q.reset();
                    q.write(0x03);
                    q.writeBytes("UPDATE native_bytes SET v = CONCAT(v, _binary'".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    q.writeBytes(raw);
                    q.writeBytes(("') WHERE id = " + id + " AND s = '" + injection + "'").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                    c.send(0, q.toByteArray());
                    out.add(reply(c));
                }
                ok(c, "COMMIT");
                for (int run = 0; run < 2; run++) { // the second run of the SELECT relays
                    c.command(0x03, "SELECT id, HEX(v) FROM native_bytes WHERE s = '" + injection + "' ORDER BY id");
                    out.addAll(textRows(c));
                }
                if (viaServer) {
                    assertTrue(sample.server.relayedStatements() >= relayed + 10, "the writes' and the read's later runs relayed");
                }
                ok(c, "SET sql_mode = DEFAULT");
                c.command(0x03, "SELECT id, HEX(v), HEX(s) FROM native_bytes ORDER BY id");
                out.addAll(textRows(c));
                ok(c, "DROP TABLE native_bytes");
                answers.add(out);
            }
        }
        assertEquals(6, answers.get(0).stream().filter(r -> r.endsWith("|00FF8000FF80|C3A927204F5220313D31202D2D205C")).count(),
                answers.get(0)::toString);
        assertEquals(String.join("\n", answers.get(0)), String.join("\n", answers.get(1)));
    }

    private static void ok(RawClient c, String sql) throws Exception {
        c.command(0x03, sql);
        String r = reply(c);
        assertTrue(r.startsWith("OK"), () -> sql + ": " + r);
    }

    private static String reply(RawClient c) throws Exception {
        RawClient.Reply r = c.read();
        if (r.header() == 0xFF) {
            ErrPacket e = r.as(ErrPacket::decode);
            return "ERR " + e.errno() + " " + e.message();
        }
        OkPacket ok = r.as(OkPacket::decode);
        return "OK affected=" + ok.affectedRows() + " warnings=" + ok.warnings() + " " + status(ok);
    }

    /** The status bits a client acts on: in transaction, autocommit, NO_BACKSLASH_ESCAPES. */
    private static String status(OkPacket ok) {
        return "status=0x" + Integer.toHexString(ok.status().bits() & (ServerStatus.IN_TRANSACTION | ServerStatus.AUTOCOMMIT
                | ServerStatus.NO_BACKSLASH_ESCAPES));
    }

    /** A text result set's rows as {@code a|b|c} (short values only: one-byte lengths), NULL as "NULL". */
    private static List<String> textRows(RawClient c) throws Exception {
        RawClient.Reply first = c.read();
        if (first.header() == 0xFF) {
            throw new AssertionError(first.as(ErrPacket::decode).message());
        }
        int columns = first.payload()[0] & 0xFF;
        for (int i = 0; i < columns; i++) {
            c.read();
        }
        List<String> rows = new ArrayList<>();
        // CLIENT_DEPRECATE_EOF: no EOF after the columns, an OK (header 0xFE) after the rows
        RawClient.Reply r = c.read();
        for (; r.header() != 0xFE; r = c.read()) {
            byte[] p = r.payload();
            StringBuilder row = new StringBuilder();
            int at = 0;
            for (int i = 0; i < columns; i++) {
                row.append(i > 0 ? "|" : "");
                int len = p[at++] & 0xFF;
                if (len == 0xFB) {
                    row.append("NULL");
                    continue;
                }
                row.append(new String(p, at, len, java.nio.charset.StandardCharsets.UTF_8));
                at += len;
            }
            rows.add(row.toString());
        }
        rows.add("end " + status(r.as(OkPacket::decode)));
        return rows;
    }

    private static List<String> oks(RawClient c, List<String> statements, boolean transaction) throws Exception {
        List<String> out = new ArrayList<>();
        if (transaction) {
            c.command(0x03, "BEGIN");
            c.read();
        }
        for (String sql : statements) {
            c.command(0x03, sql);
            RawClient.Reply r = c.read();
            if (r.header() == 0xFF) {
                out.add("ERR " + r.as(ErrPacket::decode).errno());
                continue;
            }
            OkPacket ok = r.as(OkPacket::decode);
            out.add("OK affected=" + ok.affectedRows() + " id=" + ok.lastInsertId() + " in_trans,autocommit=" + (ok.status().bits() & 3)
                    + " warnings=" + ok.warnings() + " info=" + ok.info());
        }
        if (transaction) {
            c.command(0x03, "ROLLBACK");
            c.read();
        }
        return out;
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
        rows(s, "SELECT COUNT(*) FROM sbtest1 WHERE k = 7");
        rows(s, "SELECT id, k FROM sbtest1 WHERE id BETWEEN 3 AND 6 ORDER BY id");
        rows(s, "SELECT id, k FROM sbtest1 WHERE id IN (1, 2) ORDER BY id");
        s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = k + 0 WHERE id = 1"); // the deadlock test's shape: only a cached plan relays
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
