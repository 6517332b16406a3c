package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.testkit.Await;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Prepared statements' executes that core merges (sysbench oltp_read_only's ranges with {@code --db-ps-mode=auto}:
 * simple, SUM, ORDER BY, DISTINCT over two shards) are sent, merged and answered by the event loop as the text
 * statements are (LoopMerges), in autocommit and in a native transaction: binary rows, every packet the relay-off
 * server's (the session thread's encoder), no command on a session thread; KILL QUERY, a shard's error and a client
 * that leaves mid-merge end the units and leave every relay connection back in its pool.
 */
class PreparedLoopMergeServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("plmerge");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    record Case(String sql, Param... params) {}

    /** sysbench oltp_read_only's ranges, and merges over other column types (a merged DECIMAL, dates, NULL). */
    private static final List<Case> MERGES = List.of(
            new Case("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", Param.longlong(3), Param.longlong(12)),
            new Case("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", Param.longlong(3), Param.longlong(12)),
            new Case("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", Param.longlong(3), Param.longlong(12)),
            new Case("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", Param.longlong(3), Param.longlong(12)),
            new Case("SELECT COUNT(*), AVG(k), MIN(c), MAX(id) FROM sbtest1 WHERE id > ?", Param.longlong(2)),
            new Case("SELECT order_id, amount, status, created_at FROM orders WHERE amount > ? ORDER BY amount DESC, order_id LIMIT 4",
                    Param.decimal("0.5")),
            new Case("SELECT user_id, SUM(amount), COUNT(status) FROM orders WHERE user_id > ? GROUP BY user_id ORDER BY user_id",
                    Param.longlong(0)),
            new Case("SELECT id, k FROM sbtest1 WHERE id < ? ORDER BY id", Param.longlong(0)),
            // a warning on both shards: the end packet's count and SHOW WARNINGS after
            new Case("SELECT id, CAST(c AS SIGNED) FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY id", Param.longlong(1), Param.longlong(6)));

    @Test
    void preparedMergesInAutocommitAreAnsweredByTheLoopInBinaryRowsAsTheRelayOffServer() throws Exception {
        for (Capabilities caps : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF & ~Capabilities.FOUND_ROWS))) {
            try (RawClient direct = connect(plain, caps); RawClient relayed = connect(sample.server, caps)) {
                for (Case k : MERGES) {
                    int d = PreparedRelayServerTest.prepare(direct, k.sql());
                    int r = PreparedRelayServerTest.prepare(relayed, k.sql());
                    List<String> expected = PreparedRelayServerTest.execute(direct, d, k.params()); // and the shape's plan cached
                    long hops = sample.server.sessionCommands();
                    long merged = sample.server.loopMergedStatements();
                    long reads = sample.server.autocommitReads();
                    assertEquals(expected, PreparedRelayServerTest.execute(relayed, r, k.params()), k.sql());
                    assertEquals(hops, sample.server.sessionCommands(), "no hop to the session's thread: " + k.sql());
                    assertEquals(merged + 1, sample.server.loopMergedStatements(), k.sql());
                    assertEquals(reads + 1, sample.server.autocommitReads(), k.sql());
                    assertEquals(RelayServerTest.exchange(direct, "SHOW WARNINGS"), RelayServerTest.exchange(relayed, "SHOW WARNINGS"), k.sql());
                }
            }
        }
        Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
    }

    /**
     * sysbench oltp_read_only with {@code --db-ps-mode=auto}, every statement prepared (BEGIN and COMMIT too): once the
     * shapes are cached the whole transaction — BEGIN, ten point selects, the four ranges, COMMIT — runs without a
     * command on a session thread, the ranges merged by the loop, and every answer is the relay-off server's.
     */
    /**
     * One prepared merge executed again and again (its merge and its units' text kept by the plan, their markers by the
     * session): ranges on one shard and on both, a LIMIT ? that changes, and sql_mode changed between executes (the
     * markers of the units' text are found again for the new mode), every answer the relay-off server's.
     */
    @Test
    void aPreparedMergeExecutedAgainWithOtherValuesAndModesAnswersAsTheRelayOffServer() throws Exception {
        try (RawClient direct = connect(plain, Capabilities.SERVER); RawClient relayed = connect(sample.server, Capabilities.SERVER)) {
            String ordered = "SELECT id, c FROM sbtest1 WHERE id BETWEEN ? AND ? AND c <> ? ORDER BY c DESC, id";
            String limited = "SELECT id FROM sbtest1 WHERE id > ? ORDER BY id LIMIT ?";
            int d1 = PreparedRelayServerTest.prepare(direct, ordered);
            int r1 = PreparedRelayServerTest.prepare(relayed, ordered);
            int d2 = PreparedRelayServerTest.prepare(direct, limited);
            int r2 = PreparedRelayServerTest.prepare(relayed, limited);
            long[][] ranges = {{3, 12}, {4, 4}, {1, 20}, {5, 6}};
            for (String mode : List.of("''", "'ANSI_QUOTES'", "'NO_BACKSLASH_ESCAPES'", "''")) {
                assertEquals(RelayServerTest.exchange(direct, "SET sql_mode = " + mode), RelayServerTest.exchange(relayed, "SET sql_mode = " + mode));
                for (long[] range : ranges) {
                    Param[] params = {Param.longlong(range[0]), Param.longlong(range[1]), Param.varchar("x'\\\"?y")};
                    assertEquals(PreparedRelayServerTest.execute(direct, d1, params), PreparedRelayServerTest.execute(relayed, r1, params),
                            mode + " " + range[0] + ".." + range[1]);
                }
                for (long limit : new long[] {2, 5, 1}) {
                    Param[] params = {Param.longlong(2), Param.longlong(limit)};
                    assertEquals(PreparedRelayServerTest.execute(direct, d2, params), PreparedRelayServerTest.execute(relayed, r2, params),
                            mode + " LIMIT " + limit);
                }
            }
        }
    }

    @Test
    void aPreparedReadOnlyTransactionRunsWithoutASessionThreadAndAnswersAsTheRelayOffServer() throws Exception {
        List<Case> transaction = new ArrayList<>();
        transaction.add(new Case("BEGIN"));
        for (int i = 1; i <= 10; i++) {
            transaction.add(new Case("SELECT c FROM sbtest1 WHERE id=?", Param.longlong(i * 3)));
        }
        transaction.addAll(MERGES.subList(0, 4));
        transaction.add(new Case("COMMIT"));
        List<List<String>> answers = new ArrayList<>();
        for (ShardwiseServer server : List.of(plain, sample.server)) {
            try (RawClient c = connect(server, Capabilities.SERVER)) {
                List<Integer> ids = new ArrayList<>();
                for (Case k : transaction) {
                    ids.add(PreparedRelayServerTest.prepare(c, k.sql()));
                }
                for (int round = 0; round < 2; round++) { // the first round caches the shapes and opens no native transaction yet
                    long hops = sample.server.sessionCommands();
                    long merged = sample.server.loopMergedStatements();
                    List<String> out = new ArrayList<>();
                    for (int i = 0; i < transaction.size(); i++) {
                        out.add(transaction.get(i).sql() + " -> " + PreparedRelayServerTest.execute(c, ids.get(i), transaction.get(i).params()));
                    }
                    if (server == sample.server && round == 1) {
                        assertEquals(hops, sample.server.sessionCommands(), "no command on a session thread");
                        assertEquals(merged + 4, sample.server.loopMergedStatements(), "the four ranges merged on the loop");
                        assertEquals(0, sample.server.pinnedConnections(), "COMMIT gave the connections back");
                    }
                    if (round == 1) {
                        answers.add(out);
                    }
                }
            }
        }
        assertEquals(String.join("\n", answers.get(0)), String.join("\n", answers.get(1)));
    }

    /**
     * KILL QUERY reaches a prepared merge whose units the loop sent ahead: the units end, the session's thread reports
     * 1317 as for text, and the session (in autocommit) or its transaction goes on.
     */
    @Test
    void killQueryEndsAPreparedMergeTheLoopWaitsFor() throws Exception {
        String slow = "SELECT SLEEP(20), id FROM sbtest1 WHERE id <= ? ORDER BY id";
        try (RawClient victim = connect(sample.server, Capabilities.SERVER); Connection killer = sample.connect("app", "");
             Statement ks = killer.createStatement()) {
            long id = connectionId(victim);
            int stmt = PreparedRelayServerTest.prepare(victim, slow);
            int point = PreparedRelayServerTest.prepare(victim, "SELECT c FROM sbtest1 WHERE id=?");
            try (RawClient warm = connect(plain, Capabilities.SERVER)) {
                PreparedRelayServerTest.execute(warm, PreparedRelayServerTest.prepare(warm, slow), Param.longlong(0)); // cached
            }
            for (boolean inTransaction : List.of(false, true)) {
                if (inTransaction) {
                    RelayServerTest.exchange(victim, "BEGIN");
                    PreparedRelayServerTest.execute(victim, point, Param.longlong(1)); // relays: native from here
                }
                long prefetched = sample.server.prefetchedStatements();
                long merged = sample.server.loopMergedStatements();
                CompletableFuture<List<String>> killed = CompletableFuture.supplyAsync(() -> {
                    try {
                        return PreparedRelayServerTest.execute(victim, stmt, Param.longlong(6));
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                Await.until("the units run the SLEEP", () -> sample.backendQueriesLike("SELECT SLEEP(20)%") >= 2);
                ks.execute("KILL QUERY " + id);
                List<String> answer = killed.get(15, TimeUnit.SECONDS);
                assertTrue(answer.get(answer.size() - 1).startsWith("1:ff2505"), "1317: " + answer);
                Await.until("the killed units ended", () -> sample.backendQueriesLike("SELECT SLEEP(20)%") == 0);
                assertEquals(prefetched + 1, sample.server.prefetchedStatements(), "the session's thread took the units the loop sent");
                assertEquals(merged, sample.server.loopMergedStatements());
                assertTrue(PreparedRelayServerTest.execute(victim, point, Param.longlong(1)).size() >= 3, "the session goes on");
                if (inTransaction) {
                    assertTrue(RelayServerTest.exchange(victim, "ROLLBACK").get(0).startsWith("1:00"));
                    assertEquals(0, sample.server.pinnedConnections());
                }
                Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
            }
        }
    }

    /** A shard's error mid-merge (the other shard's unit still running, killed): the relay-off server's ERR; the session goes on. */
    @Test
    void aShardsErrorMidPreparedMergeAnswersAsTheRelayOffServer() throws Exception {
        String failing = "SELECT id, CASE WHEN id = 1 THEN SLEEP(1) + (SELECT 1 UNION SELECT 2) ELSE SLEEP(60) END AS v"
                + " FROM sbtest1 WHERE id IN (?, ?) ORDER BY id";
        String quick = failing.replace("SLEEP(1)", "SLEEP(0)").replace("SLEEP(60)", "SLEEP(0)");
        long other = sample.idOnOtherShard(1);
        try (RawClient direct = connect(plain, Capabilities.SERVER); RawClient relayed = connect(sample.server, Capabilities.SERVER)) {
            int d = PreparedRelayServerTest.prepare(direct, quick);
            // the shape's plan cached (the SLEEPs' literals are no part of it)
            List<String> expected = PreparedRelayServerTest.execute(direct, d, Param.longlong(1), Param.longlong(other));
            assertTrue(expected.get(expected.size() - 1).matches("\\d+:ff.*"), "an ERR: " + expected);
            int r = PreparedRelayServerTest.prepare(relayed, failing);
            long merged = sample.server.loopMergedStatements();
            List<String> actual = PreparedRelayServerTest.execute(relayed, r, Param.longlong(1), Param.longlong(other));
            assertEquals(expected.get(expected.size() - 1).substring(1), actual.get(actual.size() - 1).substring(1), actual.toString());
            Await.until("the other shard's unit was killed", () -> sample.backendQueriesLike("%SLEEP(60)%") == 0);
            assertEquals(merged, sample.server.loopMergedStatements());
            assertTrue(RelayServerTest.exchange(relayed, "SELECT COUNT(*) FROM sbtest1").size() > 2, "the session goes on");
        }
        Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
    }

    /** A client that leaves while the loop waits for a prepared merge's units: they are killed, no session thread wakes, nothing leaks. */
    @Test
    void aClientThatLeavesMidPreparedMergeHasItsUnitsKilledAndItsConnectionsBack() throws Exception {
        String slow = "SELECT SLEEP(60), k FROM sbtest1 WHERE id <= ? ORDER BY k";
        try (RawClient warm = connect(plain, Capabilities.SERVER)) {
            PreparedRelayServerTest.execute(warm, PreparedRelayServerTest.prepare(warm, slow), Param.longlong(0)); // cached
        }
        RawClient c = connect(sample.server, Capabilities.SERVER);
        int stmt = PreparedRelayServerTest.prepare(c, slow);
        sample.assertLeavingMidMergeKillsTheUnits(c, "SELECT SLEEP(60)%", () -> c.send(0, executePacket(stmt, 6)));
    }

    /** COM_STMT_EXECUTE of statement {@code id} with one LONGLONG parameter. */
    private static byte[] executePacket(int id, long value) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 + 4 + 1 + 4 + 1 + 1 + 2 + 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x17).putInt(id).put((byte) 0).putInt(1).put((byte) 0).put((byte) 1).put((byte) 8).put((byte) 0).putLong(value);
        return b.array();
    }

    private static RawClient connect(ShardwiseServer server, Capabilities caps) throws java.io.IOException {
        return RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, caps);
    }

    private static long connectionId(RawClient client) throws java.io.IOException {
        List<String> packets = RelayServerTest.exchange(client, "SELECT CONNECTION_ID()");
        String row = packets.get(packets.size() - 2);
        String hex = row.substring(row.indexOf(':') + 3);
        return Long.parseLong(new String(java.util.HexFormat.of().parseHex(hex), java.nio.charset.StandardCharsets.US_ASCII));
    }
}
