package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.testkit.Await;
import java.io.IOException;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Results inside a native transaction that the session's thread reads (a statement shape's first execution,
 * a merge) stream to the client from the transaction's pinned connections: far past the 8 MiB the server used
 * to read whole and refuse beyond, with the bytes it holds bounded ({@code streamedPeakBytes}), the JDBC
 * executor untouched, and the packets a relay-off server (JDBC, streaming) sends. KILL QUERY, a client that
 * leaves, a pipelined command and the statements after behave as on one MySQL. Each test's streamed statement
 * has a shape of its own (a plan-cache miss: the session's thread runs it).
 */
class NativeStreamingServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("nativestream");

    /** 300 rows of 100,000 bytes on the default backend: a 30 MB result, ~4 times the old 8 MiB bound. */
    private static final int BIG_ROWS = 300;
    private static boolean loaded;

    private static synchronized void loadBig() throws SQLException {
        if (loaded) {
            return;
        }
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE stream_big (id INT PRIMARY KEY, body LONGTEXT)");
        }
        try (Connection c = sample.backend.connect(sample.target.databasePrefix() + "_0"); Statement s = c.createStatement()) {
            s.execute("INSERT INTO stream_big WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + BIG_ROWS
                    + ") SELECT i, REPEAT(CHAR(65 + i % 26), 100000) FROM n");
        }
        loaded = true;
    }

    /** What a response was: its packets hashed (sequence ids and payloads), counted, and how it ended. */
    record Answer(String digest, int packets, int rows, String last) {}

    @Test
    void aSingleUnitResultFarPastTheOldBoundStreamsInANativeTransactionAsOnJdbc() throws Exception {
        loadBig();
        String big = "SELECT id AS streamed_a, body FROM stream_big WHERE id > 0 ORDER BY id";
        Answer nativeAnswer;
        try (RawClient client = raw(sample.server)) {
            beginNatively(client);
            long streamed = sample.server.streamedResponses();
            client.command(0x03, big);
            nativeAnswer = read(client, 40, () -> {
                assertEquals(0, sample.engine.activeConnections(), "mid-stream: no JDBC connection");
                assertTrue(sample.server.pinnedConnections() >= 1, "mid-stream: the transaction's pinned connection");
            });
            assertEquals(BIG_ROWS, nativeAnswer.rows(), nativeAnswer.toString());
            assertTrue(nativeAnswer.last().startsWith("fe"), "ended with an EOF/OK: " + nativeAnswer);
            assertEquals(streamed + 1, sample.server.streamedResponses(), "streamed from the pinned connection");
            assertTrue(sample.server.streamedPeakBytes() < 2 << 20,
                    "held at most a bounded part of the 30 MB at once: " + sample.server.streamedPeakBytes());
            assertEquals(4, RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1").size(), "a statement after it");
            assertTrue(RelayServerTest.exchange(client, "COMMIT").get(0).startsWith("1:00"), "COMMIT");
            assertEquals(0, sample.server.pinnedConnections());
        }
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
             RawClient client = raw(plain)) {
            RelayServerTest.exchange(client, "BEGIN");
            RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1");
            client.command(0x03, big);
            Answer jdbc = read(client, -1, null);
            assertEquals(jdbc, nativeAnswer, "packet for packet the JDBC path's");
            RelayServerTest.exchange(client, "COMMIT");
        }
    }

    /**
     * A merge of two shards' units inside a native transaction, 18 MB of rows, streams both units (one per backend)
     * through core's ordered merge: its first execution from the session's thread, its second with the units sent
     * ahead by the event loop, which outgrow what it holds whole, so the statement runs again, streaming.
     */
    @Test
    void aMergedReadFarPastTheOldBoundStreamsEachBackendsUnit() throws Exception {
        String merged = "SELECT id, REPEAT(pad, 300) AS wide FROM sbtest1 WHERE k > -1 ORDER BY id DESC";
        try (RawClient client = raw(sample.server)) {
            beginNatively(client);
            for (int run = 1; run <= 2; run++) {
                long streamed = sample.server.streamedResponses();
                client.command(0x03, merged);
                Answer answer = read(client, 100, () -> assertEquals(0, sample.engine.activeConnections(), "mid-stream: no JDBC connection"));
                assertEquals(1000, answer.rows(), "run " + run + ": " + answer);
                assertTrue(answer.last().startsWith("fe"), answer.toString());
                assertEquals(streamed + 2, sample.server.streamedResponses(), "run " + run + ": both units streamed");
            }
            assertTrue(sample.server.streamedPeakBytes() < 2 << 20, "bounded: " + sample.server.streamedPeakBytes());
            assertTrue(RelayServerTest.exchange(client, "COMMIT").get(0).startsWith("1:00"), "COMMIT");
        }
    }

    /** KILL QUERY mid-stream: the rows end with the backend's 1317, and the transaction goes on (a statement, COMMIT). */
    @Test
    void killQueryMidStreamEndsTheResultWith1317AndTheTransactionGoesOn() throws Exception {
        loadBig();
        try (RawClient victim = raw(sample.server); Connection killer = sample.connect("app", ""); Statement ks = killer.createStatement()) {
            long id = connectionId(victim);
            beginNatively(victim);
            victim.command(0x03, "SELECT id AS streamed_k, body FROM stream_big WHERE id > 0");
            Answer answer = read(victim, 20, () -> {
                try {
                    ks.execute("KILL QUERY " + id);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(answer.last().startsWith("ff2505"), "1317 after some rows: " + answer);
            assertTrue(answer.rows() < BIG_ROWS, answer.toString());
            assertEquals(4, RelayServerTest.exchange(victim, "SELECT k FROM sbtest1 WHERE id = 1").size(), "the transaction goes on");
            assertTrue(RelayServerTest.exchange(victim, "COMMIT").get(0).startsWith("1:00"), "COMMIT");
        }
        Await.until("the killed connection closed, not pooled", () -> sample.server.busyRelayConnections() == 0);
    }

    /** A client that leaves mid-stream: its transaction is rolled back, its connections closed, nothing held. */
    @Test
    void aClientThatLeavesMidStreamHasItsTransactionRolledBack() throws Exception {
        loadBig();
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 7");
        try (RawClient client = raw(sample.server)) {
            beginNatively(client);
            RelayServerTest.exchange(client, "UPDATE sbtest1 SET k = -7 WHERE id = 7");
            client.command(0x03, "SELECT id AS streamed_l, body FROM stream_big WHERE id > 0");
            read(client, 10, () -> { throw new Leave(); });
        } catch (Leave expected) {
            // the client left with rows still coming
        }
        Await.until("the transaction ended", () -> sample.server.pinnedConnections() == 0 && sample.server.busyRelayConnections() == 0);
        assertEquals(0, sample.engine.activeConnections());
        assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 7"), "rolled back");
    }

    /** A client that sends its next commands before reading the result (pipelining): each answered in turn, then COMMIT. */
    @Test
    void commandsPipelinedBehindAStreamedResultAreAnsweredAfterIt() throws Exception {
        loadBig();
        try (RawClient client = raw(sample.server)) {
            beginNatively(client);
            java.io.ByteArrayOutputStream wire = new java.io.ByteArrayOutputStream();
            for (String sql : List.of("SELECT id AS streamed_p, body FROM stream_big WHERE id > 0", "SELECT k FROM sbtest1 WHERE id = 1",
                    "COMMIT")) {
                byte[] text = sql.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                wire.writeBytes(new byte[] {(byte) (text.length + 1), 0, 0, 0, 0x03});
                wire.writeBytes(text);
            }
            client.sendRaw(wire.toByteArray());
            assertEquals(BIG_ROWS, read(client, -1, null).rows());
            assertEquals(4, RelayServerTest.readResponse(client).size(), "the pipelined point read");
            assertTrue(RelayServerTest.readResponse(client).get(0).startsWith("1:00"), "the pipelined COMMIT");
            assertEquals(0, sample.server.pinnedConnections());
        }
    }

    private static final class Leave extends RuntimeException {}

    private static RawClient raw(ShardwiseServer server) throws IOException {
        return RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
    }

    /** BEGIN and a relayed point read: the transaction is native (pinned), the JDBC executor holds nothing. */
    private static void beginNatively(RawClient client) throws IOException {
        RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1"); // the shape cached: it relays
        RelayServerTest.exchange(client, "BEGIN");
        RelayServerTest.exchange(client, "SELECT k FROM sbtest1 WHERE id = 1");
        assertTrue(sample.server.pinnedConnections() >= 1, "native");
        assertEquals(0, sample.engine.activeConnections());
    }

    private static long connectionId(RawClient client) throws IOException {
        List<String> packets = RelayServerTest.exchange(client, "SELECT CONNECTION_ID()");
        String row = packets.get(packets.size() - 2);
        String hex = row.substring(row.indexOf(':') + 3);
        return Long.parseLong(new String(HexFormat.of().parseHex(hex), java.nio.charset.StandardCharsets.US_ASCII));
    }

    /**
     * Reads one result set's response, hashing every packet; {@code after} runs once {@code pauseAt} rows are in
     * (the client reads nothing meanwhile, so the server is mid-stream, paced by the client).
     */
    private static Answer read(RawClient client, int pauseAt, Runnable after) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        RawClient.Reply first = client.read();
        hash(sha, first);
        int packets = 1;
        int rows = 0;
        boolean inRows = false;
        while (true) {
            RawClient.Reply r = client.read();
            hash(sha, r);
            packets++;
            boolean end = r.header() == 0xFE && r.payload().length < 0xFFFFFF;
            if (r.header() == 0xFF || end && (inRows || r.payload().length > 5)) {
                return new Answer(HexFormat.of().formatHex(sha.digest()), packets, rows,
                        HexFormat.of().formatHex(r.payload(), 0, Math.min(r.payload().length, 9)));
            }
            if (end) {
                inRows = true; // the EOF after the column definitions
                continue;
            }
            if (inRows || packets > 3 && r.payload().length > 200) {
                inRows = true;
                rows++;
                if (rows == pauseAt && after != null) {
                    after.run();
                }
            }
        }
    }

    private static void hash(MessageDigest sha, RawClient.Reply r) {
        sha.update((byte) r.sequenceId());
        sha.update(r.payload());
    }
}
