package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.testkit.Await;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * Autocommit reads of several units that core merges (ORDER BY, aggregates, DISTINCT, LIMIT over
 * two shards) run on pooled relay connections, not the JDBC executor, and answer byte for byte as
 * the JDBC path does (a second server over the same engine with the relay off): rows, column
 * definitions, warnings (SHOW WARNINGS after each), a shard's error, empty results. Those of a cached
 * shape are sent and, when small, merged and answered by the event loop, without the session's thread.
 */
class AutocommitMergeServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("acmerge");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    private static final List<String> MERGES = List.of(
            "SELECT id, k, c FROM sbtest1 WHERE id BETWEEN 1 AND 8 ORDER BY id",
            "SELECT id, k FROM sbtest1 ORDER BY k DESC, id LIMIT 3",
            "SELECT COUNT(*), SUM(k), AVG(k), MIN(c), MAX(id) FROM sbtest1",
            "SELECT DISTINCT k FROM sbtest1 ORDER BY k",
            "SELECT user_id, SUM(amount), COUNT(status) FROM orders GROUP BY user_id ORDER BY user_id",
            "SELECT order_id, amount, status, created_at FROM orders ORDER BY amount DESC, order_id LIMIT 4",
            "SELECT id, k FROM sbtest1 WHERE id < 0 ORDER BY id",
            "SELECT COUNT(*), SUM(k) FROM sbtest1 WHERE id < 0",
            // warnings on both shards: each unit's, in unit order
            "SELECT id, CAST(c AS SIGNED) FROM sbtest1 WHERE id BETWEEN 1 AND 6 ORDER BY id",
            // a shard's error
            "SELECT id, (SELECT 1 UNION SELECT 2) FROM sbtest1 ORDER BY id");

    @Test
    void mergesInAutocommitRunOnRelayConnectionsAndAnswerAsTheJdbcPath() throws Exception {
        for (Capabilities caps : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF & ~Capabilities.FOUND_ROWS))) {
            List<String> expected = run(plain, caps); // the shapes' plans cached: the event loop answers the merges below
            long before = sample.server.autocommitReads();
            long merged = sample.server.loopMergedStatements();
            List<String> actual = run(sample.server, caps);
            assertEquals(MERGES.size() - 1 + 2, sample.server.loopMergedStatements() - merged,
                    "all but the shard's error on the loop, and the two prepared executes");
            for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
                assertEquals(expected.get(i), actual.get(i), "step " + i);
            }
            assertEquals(expected.size(), actual.size());
            // MariaDB finds the subquery's second row while it sends rows: the column definitions, then the ERR
            assertTrue(expected.get(2 * 9).matches(".*, \\d+:ff[0-9a-f]*]"), "the shard's error is an ERR: " + expected.get(2 * 9));
            assertTrue(expected.get(2 * 8 + 1).split(",").length > 4, "the CAST warned: " + expected.get(2 * 8 + 1));
            // all but the failing one (the statement fails: it is not counted), and the two prepared executes
            assertEquals(MERGES.size() - 1 + 2, sample.server.autocommitReads() - before, "the merges ran on relay connections");
        }
    }

    private static List<String> run(ShardwiseServer server, Capabilities caps) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, caps)) {
            for (String sql : MERGES) {
                out.add(sql + " -> " + RelayServerTest.exchange(c, sql));
                out.add("SHOW WARNINGS -> " + RelayServerTest.exchange(c, "SHOW WARNINGS"));
            }
            // prepared executes the session plans (binary rows from the merger's), values in the WHERE clause
            int sum = PreparedRelayServerTest.prepare(c, "SELECT SUM(k), COUNT(*) FROM sbtest1 WHERE id BETWEEN ? AND ?");
            int ordered = PreparedRelayServerTest.prepare(c, "SELECT id, c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c");
            for (int id : List.of(sum, ordered)) {
                out.add(id + " -> " + PreparedRelayServerTest.execute(c, id, Param.longlong(2), Param.longlong(9)));
                out.add("SHOW WARNINGS -> " + RelayServerTest.exchange(c, "SHOW WARNINGS"));
            }
        }
        return out;
    }

    @Test
    void anAutocommitMergeBorrowsNoJdbcConnection() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            long before = sample.server.autocommitReads();
            try (ResultSet rs = s.executeQuery("SELECT id, k FROM sbtest1 ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(0, sample.engine.activeConnections(), "the merge's units hold no JDBC connection");
            }
            assertEquals(before + 1, sample.server.autocommitReads());
            // a write of several units stays on the JDBC executor
            s.executeUpdate("UPDATE sbtest1 SET pad = pad WHERE id IN (1, 2)");
            assertEquals(before + 1, sample.server.autocommitReads());
            // a statement timeout or a session isolation level: the JDBC executor, as before
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            s.executeQuery("SELECT id, k FROM sbtest1 ORDER BY id").close();
            assertEquals(before + 1, sample.server.autocommitReads());
        }
    }

    /**
     * A merge whose rows outgrow the statement's budget is not held whole: its units stop, their
     * connections close, and the JDBC executor runs it again, streaming — the client sees the same bytes.
     */
    @Test
    void aMergeTooLargeToHoldGoesToTheStreamingPathAndAnswersTheSame() throws Exception {
        String large = "SELECT id, k, c, pad FROM sbtest1 ORDER BY id";
        String small = "SELECT COUNT(*) FROM sbtest1";
        System.setProperty("shardwise.nativeReadBudget", "300");
        try (RawClient direct = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, Capabilities.SERVER);
             RawClient relayed = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN,
                     Capabilities.SERVER)) {
            List<String> expected = RelayServerTest.exchange(direct, large);
            assertTrue(expected.size() > 20, "the result's packets outgrow the budget: " + expected.size());
            long before = sample.server.autocommitReads();
            assertEquals(expected, RelayServerTest.exchange(relayed, large));
            assertEquals(before, sample.server.autocommitReads(), "declined: the JDBC executor answered");
            assertEquals(RelayServerTest.exchange(direct, small), RelayServerTest.exchange(relayed, small));
            assertEquals(before + 1, sample.server.autocommitReads(), "a merge within the budget still runs natively");
        } finally {
            System.clearProperty("shardwise.nativeReadBudget");
        }
    }

    /**
     * KILL QUERY ends a merge whose units run: first as the session's thread runs it (a shape not cached yet), then as
     * the event loop sent them (cached), the session's thread taking the units' 1317. Every relay connection is back.
     */
    @Test
    void killQueryInterruptsAnAutocommitMerge() throws Exception {
        try (Connection victim = sample.connect("app", ""); Connection killer = sample.connect("app", "");
             Statement vs = victim.createStatement(); Statement ks = killer.createStatement()) {
            long id;
            try (ResultSet rs = vs.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                id = rs.getLong(1);
            }
            for (boolean cached : List.of(false, true)) {
                long before = sample.server.autocommitReads();
                long sentAhead = sample.server.prefetchedStatements();
                long merged = sample.server.loopMergedStatements();
                CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> assertThrows(SQLException.class,
                        () -> vs.executeQuery("SELECT SLEEP(20), id FROM sbtest1 WHERE id <= 6 ORDER BY id")));
                Await.until("the units run the SLEEP", () -> sample.backendQueriesLike("SELECT SLEEP(20)%") >= 2);
                ks.execute("KILL QUERY " + id);
                SQLException e = failure.get(15, TimeUnit.SECONDS);
                assertEquals(1317, e.getErrorCode());
                assertEquals("70100", e.getSQLState());
                Await.until("the killed units ended", () -> sample.backendQueriesLike("SELECT SLEEP(20)%") == 0);
                assertEquals(cached ? sentAhead + 1 : sentAhead, sample.server.prefetchedStatements(), "sent ahead by the loop: " + cached);
                assertEquals(merged, sample.server.loopMergedStatements());
                try (ResultSet rs = vs.executeQuery("SELECT id FROM sbtest1 ORDER BY id LIMIT 2")) {
                    assertTrue(rs.next(), "the session goes on");
                }
                assertEquals(before + 1, sample.server.autocommitReads());
                Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
            }
        }
    }

    /** The merges above that answer rows: each answered by the event loop once its shape is cached. */
    @Test
    void cachedMergesAreAnsweredByTheEventLoopWithoutASessionThreadHop() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            for (String sql : MERGES.subList(0, MERGES.size() - 1)) {
                RelayServerTest.exchange(c, sql); // the shape's plan cached
                long hops = sample.server.sessionCommands();
                long merged = sample.server.loopMergedStatements();
                long reads = sample.server.autocommitReads();
                List<String> packets = RelayServerTest.exchange(c, sql);
                assertTrue(packets.size() > 2 && !packets.get(0).contains(":ff"), sql + " -> " + packets);
                assertEquals(hops, sample.server.sessionCommands(), "no hop to the session's thread: " + sql);
                assertEquals(merged + 1, sample.server.loopMergedStatements(), sql);
                assertEquals(reads + 1, sample.server.autocommitReads(), sql);
            }
        }
        Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
    }

    /**
     * A merge whose units return more than the loop's bound goes to the session's thread, which answers from the units
     * the loop sent (not sending them again), as before; within the bound the loop answers the same bytes.
     */
    @Test
    void mergesPastTheLoopsBoundAreAnsweredByTheSessionThreadWithTheUnitsSentAhead() throws Exception {
        String ordered = "SELECT id, k, c FROM sbtest1 WHERE id BETWEEN 1 AND 30 ORDER BY id";
        try (RawClient direct = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient relayed = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            List<String> expected = RelayServerTest.exchange(direct, ordered); // and the shape's plan cached
            long hops = sample.server.sessionCommands();
            long merged = sample.server.loopMergedStatements();
            long sentAhead = sample.server.prefetchedStatements();
            long reads = sample.server.autocommitReads();
            System.setProperty("shardwise.loopMergeBytes", "100");
            try {
                assertEquals(expected, RelayServerTest.exchange(relayed, ordered));
            } finally {
                System.clearProperty("shardwise.loopMergeBytes");
            }
            assertEquals(hops + 1, sample.server.sessionCommands(), "the session's thread answered");
            assertEquals(merged, sample.server.loopMergedStatements(), "past the loop's bound");
            assertEquals(sentAhead + 1, sample.server.prefetchedStatements(), "with the units the loop sent");
            assertEquals(reads + 1, sample.server.autocommitReads());
            assertEquals(expected, RelayServerTest.exchange(relayed, ordered));
            assertEquals(hops + 1, sample.server.sessionCommands(), "within the bound: on the loop");
            assertEquals(merged + 1, sample.server.loopMergedStatements());
        }
    }

    /**
     * A shard's error while the other shard's unit still runs: that unit is killed (else the answer would wait for its
     * minute of SLEEP, past the client's read timeout), and the error is the JDBC path's; the session
     * goes on and every relay connection is back (the killed one closed). The failing unit sleeps a little first, so
     * the other's SLEEP has started when the error comes.
     */
    @Test
    void aShardsErrorMidMergeKillsTheOtherUnitAndAnswersAsTheJdbcPath() throws Exception {
        long first = 1;
        long other = sample.idOnOtherShard(first);
        String failing = "SELECT id, CASE WHEN id = " + first + " THEN SLEEP(%d) + (SELECT 1 UNION SELECT 2) ELSE SLEEP(%d) END AS v"
                + " FROM sbtest1 WHERE id IN (" + first + ", " + other + ") ORDER BY id";
        try (RawClient direct = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient relayed = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            List<String> expected = RelayServerTest.exchange(direct, String.format(failing, 0, 0)); // and the shape's plan cached
            assertTrue(expected.get(expected.size() - 1).matches("\\d+:ff.*"), "an ERR: " + expected);
            long merged = sample.server.loopMergedStatements();
            long reads = sample.server.autocommitReads();
            // the shard's ERR as the JDBC path's; the JDBC path sends the column definitions first (its cursors stream, so the
            // merger has them before the failing row), where the units read whole fail before any (as before this path)
            List<String> actual = RelayServerTest.exchange(relayed, String.format(failing, 2, 60));
            assertEquals(expected.get(expected.size() - 1).substring(1), actual.get(actual.size() - 1).substring(1), actual.toString());
            Await.until("the other shard's unit was killed", () -> sample.backendQueriesLike("%SLEEP(60)%") == 0);
            assertEquals(merged, sample.server.loopMergedStatements());
            assertEquals(reads, sample.server.autocommitReads(), "a failed statement is not counted");
            assertEquals(RelayServerTest.exchange(direct, "SHOW WARNINGS"), RelayServerTest.exchange(relayed, "SHOW WARNINGS"));
            assertTrue(RelayServerTest.exchange(relayed, "SELECT COUNT(*) FROM sbtest1").size() > 2, "the session goes on");
        }
        Await.until("every relay connection back in its pool", () -> sample.server.busyRelayConnections() == 0);
    }

    /** A client that leaves while the loop waits for a merge's units: they are killed, nothing leaks, no session thread wakes for it. */
    @Test
    void aClientThatLeavesMidMergeHasItsUnitsKilledAndItsConnectionsBack() throws Exception {
        String slow = "SELECT SLEEP(%d), k FROM sbtest1 WHERE id <= 6 ORDER BY k";
        RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
        RelayServerTest.exchange(c, String.format(slow, 0)); // the shape's plan cached
        sample.assertLeavingMidMergeKillsTheUnits(c, "SELECT SLEEP(60)%", () -> c.command(0x03, String.format(slow, 60)));
    }
}
