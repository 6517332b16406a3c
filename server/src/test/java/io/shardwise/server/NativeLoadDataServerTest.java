package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.testkit.Await;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code LOAD DATA LOCAL INFILE} inside a native transaction (one whose connections are the relay's
 * pinned connections): the batches core splits the client's file into go on those connections, which
 * answer the backend's file request with the batch's rows. The rows are seen inside the transaction,
 * gone after ROLLBACK, kept after COMMIT; the answer is the JDBC path's packet for packet; a client
 * that leaves in the middle of its file leaves nothing behind.
 */
class NativeLoadDataServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("nativeload");

    private static final String LOAD = "LOAD DATA LOCAL INFILE 'rows.csv' INTO TABLE sbtest1 FIELDS TERMINATED BY ',' (id, k, c, pad)";

    @Test
    void aLoadInANativeTransactionIsSeenThereUndoneByRollbackAndKeptByCommit() throws Exception {
        try (Connection c = sample.connect("app", "&allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            warm(s);
            for (String end : List.of("ROLLBACK", "COMMIT")) {
                s.execute("BEGIN");
                long relayed = sample.server.relayedStatements();
                assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 47"));
                assertEquals(relayed + 1, sample.server.relayedStatements(), "the write relayed: the transaction is native");
                long bridged = sample.server.nativeStatements();
                s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(rows(900100, 20)));
                assertEquals(20, s.executeUpdate(LOAD));
                assertTrue(sample.server.nativeStatements() >= bridged + 2, "the batches (one per shard) ran on the pinned connections");
                assertEquals(0, sample.engine.activeConnections(), "no JDBC connection in the transaction");
                assertEquals(List.of("20"), SampleServer.column(s, "SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900100 AND 900199"),
                        "the transaction sees its rows");
                assertEquals(List.of("0"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900100 AND 900199"),
                        "another client does not, yet");
                s.execute(end);
                assertEquals(List.of(end.equals("COMMIT") ? "20" : "0"),
                        sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900100 AND 900199"), end);
                assertEquals(0, sample.server.pinnedConnections());
            }
            s.executeUpdate("DELETE FROM sbtest1 WHERE id BETWEEN 900100 AND 900199");
        }
    }

    /** Warnings of the backends (a short row, a value that is no integer) come back as on the JDBC path, in the file's row order. */
    @Test
    void warningsOfANativeLoadAreTheJdbcPathsOnes() throws Exception {
        byte[] file = "900200,1,c,p\n900201,2\n900202,x3,c,p\n900203,4,c,p\n".getBytes(StandardCharsets.UTF_8);
        List<String> jdbc = new ArrayList<>();
        List<String> relay = new ArrayList<>();
        try (ShardwiseServer relayOff = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(relayOff, sample.server)) {
                List<String> out = server == relayOff ? jdbc : relay;
                try (Connection c = java.sql.DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                        + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true&allowLoadLocalInfile=true");
                     Statement s = c.createStatement()) {
                    warm(s);
                    c.setAutoCommit(false);
                    s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 48");
                    s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(file));
                    out.add(s.executeUpdate(LOAD) + " " + warnings(s.getWarnings()));
                    out.add(String.join(" ", SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id BETWEEN 900200 AND 900299 ORDER BY id")));
                    c.rollback();
                }
            }
        }
        assertTrue(jdbc.get(0).startsWith("4 [1261 "), jdbc::toString);
        assertEquals(jdbc, relay);
        assertEquals(List.of("0"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900200 AND 900299"));
    }

    /**
     * The exchange packet by packet on a raw connection, inside a native transaction and inside a JDBC one
     * (relay off): the same 0xFB request, the same OK after the empty packet (sequence id, affected rows,
     * warnings, status, "Records: …" info), byte for byte.
     */
    @Test
    void theExchangeInANativeTransactionIsTheJdbcPathsPacketForPacket() throws Exception {
        List<String> transcripts = new ArrayList<>();
        try (ShardwiseServer relayOff = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(relayOff, sample.server)) {
                try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                    List<String> out = new ArrayList<>();
                    ok(c, "UPDATE sbtest1 SET k = k WHERE id = 1"); // the shape into the plan cache
                    out.add(ok(c, "BEGIN"));
                    long relayed = sample.server.relayedStatements();
                    ok(c, "UPDATE sbtest1 SET k = k WHERE id = 49"); // (a write's OK is compared in WriteInfoServerTest)
                    if (server == sample.server) {
                        assertEquals(relayed + 1, sample.server.relayedStatements(), "the transaction's write relayed: it is native");
                    }
                    c.command(0x03, LOAD);
                    RawClient.Reply request = c.read();
                    out.add("request seq " + request.sequenceId() + " " + HexFormat.of().formatHex(request.payload()));
                    String[] parts = {"900300,1,c,", "p\n900301,2\n9003", "02,3,c,p\n900303,4,c,p\n900304,5,c,p"};
                    int seq = request.sequenceId() + 1;
                    for (String part : parts) {
                        c.send(seq++, part.getBytes(StandardCharsets.UTF_8));
                    }
                    c.send(seq, new byte[0]);
                    RawClient.Reply answer = c.read();
                    out.add("answer seq " + answer.sequenceId() + " " + HexFormat.of().formatHex(answer.payload()));
                    if (answer.header() == OkPacket.HEADER) {
                        OkPacket ok = answer.as(OkPacket::decode);
                        out.add("affected=" + ok.affectedRows() + " warnings=" + ok.warnings() + " info=" + ok.info());
                    }
                    out.add(ok(c, "ROLLBACK"));
                    transcripts.add(String.join("\n", out));
                }
            }
        }
        assertTrue(transcripts.get(0).contains("affected=5 warnings=") && transcripts.get(0).contains("info=Records: 5  Deleted: 0  Skipped: 0  Warnings: "),
                transcripts.get(0));
        assertEquals(transcripts.get(0), transcripts.get(1));
        assertEquals(List.of("0"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900300 AND 900399"));
    }

    /** The mariadb command-line client with --local-infile=1, inside a transaction: as on the JDBC path (relay off). */
    @Test
    void theMariaDbClientLoadsInANativeTransactionAsOnTheJdbcPath() throws Exception {
        Path file = Files.createTempFile("shardwise-native-load", ".csv");
        try (ShardwiseServer relayOff = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            Files.write(file, "900400,1,c,p\n900401,2\n900402,3,c,p,extra\n900403,4,c,p\n".getBytes(StandardCharsets.UTF_8));
            String sql = "UPDATE sbtest1 SET k = k WHERE id = 1; BEGIN; UPDATE sbtest1 SET k = k WHERE id = 50; "
                    + LOAD.replace("rows.csv", file.toString()) + "; SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900400 AND 900499;"
                    + " ROLLBACK; SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900400 AND 900499";
            String off = cli(relayOff.address().getPort(), sql);
            long bridged = sample.server.nativeStatements();
            long relayed = sample.server.relayedStatements();
            String on = cli(sample.server.address().getPort(), sql);
            assertTrue(off.contains("Records: 4  Deleted: 0  Skipped: 0  Warnings: "), off);
            assertEquals(off, on);
            assertTrue(sample.server.relayedStatements() >= relayed + 2, "the transaction's write relayed: it is native");
            assertTrue(sample.server.nativeStatements() > bridged, "the load's batches ran on the pinned connections");
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * A client that leaves in the middle of its file, after whole batches reached the backends (3 MiB of
     * rows, batches of 1 MiB per shard): inside a native transaction and in autocommit mode nothing stays
     * (the transaction, or the load's own, rolls back), and every connection goes back or closes.
     */
    @Test
    void aClientLeavingMidFileLeavesNothingBehind() throws Exception {
        for (boolean inTransaction : new boolean[] {true, false}) {
            List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id = 51");
            try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                ok(c, "UPDATE sbtest1 SET k = k WHERE id = 1");
                if (inTransaction) {
                    ok(c, "BEGIN");
                    ok(c, "UPDATE sbtest1 SET k = 5151 WHERE id = 51");
                }
                c.command(0x03, LOAD);
                RawClient.Reply request = c.read();
                assertEquals(0xFB, request.header());
                int seq = request.sequenceId() + 1;
                int id = 1_000_000;
                for (int sent = 0; sent < 3 << 20; ) {
                    StringBuilder packet = new StringBuilder();
                    while (packet.length() < 60_000) {
                        packet.append(id++).append(",1,").append("c".repeat(40)).append(",p\n");
                    }
                    byte[] bytes = packet.toString().getBytes(StandardCharsets.UTF_8);
                    c.send(seq++, bytes);
                    sent += bytes.length;
                }
                c.socket().setSoLinger(true, 0); // a reset: gone without a word
            }
            Await.until("the server settled the connection the client left", () -> sample.server.pinnedConnections() == 0
                    && sample.server.clientCount() == 0);
            assertEquals(List.of("0"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id >= 1000000"), "in transaction: " + inTransaction);
            assertEquals(before, sample.column("SELECT k FROM sbtest1 WHERE id = 51"));
        }
    }

    /** A load whose backend fails it (an unknown column) fails alone: the native transaction goes on, and COMMIT keeps its write. */
    @Test
    void aFailingLoadLeavesTheNativeTransactionUsable() throws Exception {
        try (Connection c = sample.connect("app", "&allowLoadLocalInfile=true"); Statement s = c.createStatement()) {
            warm(s);
            s.execute("BEGIN");
            assertEquals(1, s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 52"));
            s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(rows(900500, 10)));
            SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> s.executeUpdate(
                    "LOAD DATA LOCAL INFILE 'x' INTO TABLE sbtest1 FIELDS TERMINATED BY ',' (id, k, c, @p) SET pad = no_such_column"));
            assertEquals(1054, e.getErrorCode(), e.getMessage());
            s.unwrap(com.mysql.cj.jdbc.JdbcStatement.class).setLocalInfileInputStream(new ByteArrayInputStream(rows(900500, 10)));
            assertEquals(10, s.executeUpdate(LOAD), "the next load runs on the same connections");
            s.execute("COMMIT");
            assertEquals(List.of("10"), sample.column("SELECT COUNT(*) FROM sbtest1 WHERE id BETWEEN 900500 AND 900599"));
            s.executeUpdate("DELETE FROM sbtest1 WHERE id BETWEEN 900500 AND 900599");
        }
    }

    private static byte[] rows(int first, int n) {
        StringBuilder out = new StringBuilder();
        for (int id = first; id < first + n; id++) {
            out.append(id).append(',').append(id % 97).append(",c").append(id).append(",p\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sends {@code sql} and reads its one-packet answer (an OK, or an ERR) as hex. */
    private static String ok(RawClient c, String sql) throws IOException {
        c.command(0x03, sql);
        RawClient.Reply r = c.read();
        if (r.header() == ErrPacket.HEADER) {
            throw new AssertionError(sql + ": " + r.as(ErrPacket::decode).message());
        }
        return sql + " -> seq " + r.sequenceId() + " " + HexFormat.of().formatHex(r.payload());
    }

    private static String cli(int port, String sql) throws Exception {
        String binary = CommandLineClients.require("mariadb", "mysql");
        Process p = new ProcessBuilder(binary, "--protocol=TCP", "-h127.0.0.1", "-P" + port, "-uapp", "--password=app", "--skip-ssl",
                "--local-infile=1", "-vvv", "--table", "--show-warnings", "shop", "-e", sql).redirectErrorStream(true).start();
        boolean finished = p.waitFor(60, TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        assertTrue(finished, "the client finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        return out.replaceAll("\\(\\d+\\.\\d+ sec\\)", "(time)");
    }

    private static String warnings(SQLWarning w) {
        StringBuilder out = new StringBuilder();
        for (; w != null; w = w.getNextWarning()) {
            out.append('[').append(w.getErrorCode()).append(' ').append(w.getMessage()).append(']');
        }
        return out.toString();
    }

    /** The shapes the tests' transactions use, made plan-cache hits (what relays). */
    private static void warm(Statement s) throws SQLException {
        SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 1");
        s.executeUpdate("UPDATE sbtest1 SET k = k WHERE id = 1");
    }
}
