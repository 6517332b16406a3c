package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Clients that do not play by the rules (issue 17, hostile input): sockets that never answer the
 * greeting, password guessers, and the refusals real clients (Connector/J, PyMySQL) must see as
 * MySQL sends them. Each test starts its own server over the shared sample engine, so that the
 * per-address failure counts start empty. Linux routes all of 127.0.0.0/8 to the loopback, so
 * clients bound to 127.0.0.2… stand for other hosts.
 */
class HostileClientsTest {
    /** Held at once by the silent-sockets test: the number (the test JVM has 20,000 descriptors; each costs two). */
    private static final int SILENT_SOCKETS = 2_000;
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("hostile");
    private static long orders;

    @BeforeAll
    static void start() throws Exception {
        orders = sample.directLong("SELECT COUNT(*) FROM orders");
    }

    private static ServerConfig settings() {
        return sample.engine.rule().config().server();
    }

    private static Connection connect(ShardwiseServer server, String password, String options) throws SQLException {
        return SampleServer.connect(server, password, "&sslMode=DISABLED&connectTimeout=10000" + options);
    }

    private static void countOrders(ShardwiseServer server, String options) throws SQLException {
        SampleServer.assertOrders(connect(server, "app", options), orders);
    }

    private static SQLException refused(ShardwiseServer server, String password, String options) {
        return assertThrows(SQLException.class, () -> connect(server, password, options).close());
    }

    private static void await(BooleanSupplier condition, Duration within, String what) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Connects (from {@code from}, or any local address when null) and reads the greeting; answers nothing. */
    private static Socket silent(ShardwiseServer server, String from) throws IOException {
        Socket s = new Socket();
        if (from != null) {
            s.bind(new InetSocketAddress(from, 0));
        }
        s.connect(server.address(), 10_000);
        s.setSoTimeout(30_000);
        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] header = new byte[4];
        in.readFully(header);
        in.readFully(new byte[(header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16]);
        return s;
    }

    /** Whether the server closed {@code s} (end of stream or a reset) within the socket's read timeout. */
    private static boolean closedByServer(Socket s) throws IOException {
        try {
            InputStream in = s.getInputStream();
            return in.read() == -1;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    @Test
    void twoThousandSilentSocketsAreClosedAtTheConnectTimeoutAndRealClientsLogInAgain() throws Exception {
        Duration connectTimeout = Duration.ofSeconds(4);
        ShardwiseServer server = sample.serve(settings().withLimits(SILENT_SOCKETS, Duration.ZERO, settings().maxPacketSize())
                // the timeouts would block 127.0.0.1 after MySQL's 100 (the next test shows that)
                .withConnectGuards(connectTimeout, Integer.MAX_VALUE));
        List<Socket> sockets = new ArrayList<>();
        try {
            long started = System.nanoTime();
            for (int i = 0; i < SILENT_SOCKETS; i++) {
                sockets.add(silent(server, null));
            }
            long opened = System.nanoTime() - started;
            if (opened < connectTimeout.toNanos()) { // the first sockets are still within their deadline
                SQLException full = refused(server, "app", "");
                assertEquals(1040, full.getErrorCode(), full.toString());
            }
            await(() -> server.clientCount() == 0, connectTimeout.plusSeconds(20), "the server closed every silent socket");
            int closed = 0;
            for (Socket s : sockets) {
                s.setSoTimeout(5_000);
                closed += closedByServer(s) ? 1 : 0;
            }
            assertEquals(SILENT_SOCKETS, closed, "every silent socket was closed by the server");
            countOrders(server, "");
            assertEquals(0, server.connectErrors("127.0.0.1"), "the login forgave the timeouts");
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void whileSilentSocketsComeAndGoARealClientGetsInWithinOneConnectTimeout() throws Exception {
        Duration connectTimeout = Duration.ofMillis(500);
        ShardwiseServer server = sample.serve(settings().withLimits(50, Duration.ZERO, settings().maxPacketSize())
                .withConnectGuards(connectTimeout, Integer.MAX_VALUE));
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                sockets.add(silent(server, null));
            }
            assertEquals(1040, refused(server, "app", "").getErrorCode());
            long started = System.nanoTime();
            while (true) {
                try {
                    countOrders(server, "");
                    break;
                } catch (SQLException full) {
                    assertEquals(1040, full.getErrorCode(), full.toString());
                    assertTrue(System.nanoTime() - started < TimeUnit.SECONDS.toNanos(10), "logged in once the deadline passed");
                    Thread.sleep(50);
                }
            }
        } finally {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    @Test
    void wrongPasswordsFromOneAddressBlockItWith1129AndOthersAreNotAffected() throws Exception {
        ShardwiseServer server = sample.serve(settings().withConnectGuards(Duration.ofSeconds(10), 3));
        String guesser = "&localSocketAddress=127.0.0.2";
        for (int i = 0; i < 3; i++) {
            assertEquals(1045, refused(server, "guess" + i, guesser).getErrorCode());
        }
        SQLException blocked = refused(server, "app", guesser);
        assertEquals(1129, blocked.getErrorCode(), blocked.toString());
        // Connector/J's wording for any refusal in place of the greeting, MySQL's included
        assertTrue(blocked.getMessage().endsWith("message from server: \"Host '127.0.0.2' is blocked because of many connection errors;"
                + " unblock with 'mysqladmin flush-hosts'\""), blocked.getMessage());
        countOrders(server, ""); // 127.0.0.1
        countOrders(server, "&localSocketAddress=127.0.0.3");
        assertEquals(1129, refused(server, "app", guesser).getErrorCode(), "still blocked");
    }

    /**
     * The real mariadb-admin's flush-hosts (a FLUSH HOSTS statement) by a user marked {@code admin: true} unblocks
     * every address; a user without it gets MySQL's 1227 for the RELOAD privilege, and other FLUSH forms 1235.
     */
    @Test
    void flushHostsByAnAdministratorUnblocksAndIsRefusedToOthers() throws Exception {
        ShardingRule rule = SampleData.rule(sample.target, yaml -> yaml.replace("    - { name: app,",
                "    - { name: dba, password: dba, schemas: [shop], admin: true }\n    - { name: app,"));
        try (Engine engine = Engine.start(rule)) {
            ShardwiseServer server = ShardwiseServer.start(engine, rule.config().server().withConnectGuards(Duration.ofSeconds(10), 2), 0);
            try {
                String guesser = "&localSocketAddress=127.0.0.5";
                assertEquals(1045, refused(server, "guess1", guesser).getErrorCode());
                assertEquals(1045, refused(server, "guess2", guesser).getErrorCode());
                assertEquals(1129, refused(server, "app", guesser).getErrorCode());
                try (Connection app = connect(server, "app", ""); Statement st = app.createStatement()) {
                    SQLException e = assertThrows(SQLException.class, () -> st.execute("FLUSH HOSTS"));
                    assertEquals(1227, e.getErrorCode(), e.toString());
                    assertEquals("Access denied; you need (at least one of) the RELOAD privilege(s) for this operation", e.getMessage());
                    e = assertThrows(SQLException.class, () -> st.execute("FLUSH TABLES"));
                    assertEquals(1235, e.getErrorCode(), e.toString());
                }
                assertEquals(1129, refused(server, "app", guesser).getErrorCode(), "still blocked");
                Process p = new ProcessBuilder(CommandLineClients.require("mariadb-admin", "mysqladmin"), "--protocol=TCP", "-h127.0.0.1",
                        "-P" + server.address().getPort(), "-udba", "-pdba", "--skip-ssl", "flush-hosts").redirectErrorStream(true).start();
                assertTrue(p.waitFor(60, TimeUnit.SECONDS), "mariadb-admin finished");
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertEquals(0, p.exitValue(), out);
                assertEquals(0, server.connectErrors("127.0.0.5"));
                try (Connection unblocked = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                        + "/shop?user=app&password=app&sslMode=DISABLED" + guesser); Statement st = unblocked.createStatement();
                        ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
                    assertTrue(rs.next());
                    assertEquals(orders, rs.getLong(1));
                }
            } finally {
                server.close();
            }
        }
    }

    @Test
    void aSuccessfulLoginResetsTheAddresssCount() throws Exception {
        ShardwiseServer server = sample.serve(settings().withConnectGuards(Duration.ofSeconds(10), 3));
        String from = "&localSocketAddress=127.0.0.4";
        for (int round = 0; round < 3; round++) {
            assertEquals(1045, refused(server, "guess", from).getErrorCode());
            assertEquals(1045, refused(server, "guess", from).getErrorCode());
            assertEquals(2, server.connectErrors("127.0.0.4"));
            countOrders(server, from);
            assertEquals(0, server.connectErrors("127.0.0.4"));
        }
        // an unknown schema comes after the right password: it is no guess, and not counted
        for (int i = 0; i < 4; i++) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:mysql://127.0.0.1:"
                    + server.address().getPort() + "/nope?user=app&password=app&sslMode=DISABLED" + from).close());
            assertEquals(1049, e.getErrorCode(), e.toString());
            assertEquals("Unknown database 'nope'", e.getMessage());
        }
        countOrders(server, from);
    }

    @Test
    void handshakeTimeoutsAndGarbageCountAsConnectErrors() throws Exception {
        ShardwiseServer server = sample.serve(settings().withConnectGuards(Duration.ofMillis(300), 3));
        try (Socket silent = silent(server, "127.0.0.5")) {
            assertTrue(closedByServer(silent), "closed at the connect timeout");
        }
        try (Socket http = silent(server, "127.0.0.5")) {
            // "GET " reads as a header announcing a 5 MiB packet: the server waits for it until the deadline
            http.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(closedByServer(http), "closed at the connect timeout");
        }
        try (Socket garbage = silent(server, "127.0.0.5")) {
            garbage.getOutputStream().write(new byte[] {3, 0, 0, 1, (byte) 0x85, (byte) 0xa6, 0x7f});
            DataInputStream in = new DataInputStream(garbage.getInputStream());
            byte[] header = new byte[4];
            in.readFully(header);
            byte[] err = new byte[header[0] & 0xFF];
            in.readFully(err);
            assertEquals(1043, (err[1] & 0xFF) | (err[2] & 0xFF) << 8, "Bad handshake");
            assertTrue(closedByServer(garbage));
        }
        await(() -> server.connectErrors("127.0.0.5") == 3, Duration.ofSeconds(10), "three failures counted");
        SQLException blocked = refused(server, "app", "&localSocketAddress=127.0.0.5");
        assertEquals(1129, blocked.getErrorCode(), blocked.toString());
        countOrders(server, "");
    }

    @Test
    void pymysqlSeesMysqlsErrorsForEachRefusal() throws Exception {
        ShardwiseServer server = sample.serve(settings().withLimits(2, Duration.ZERO, 4096).withConnectGuards(Duration.ofSeconds(10), 2));
        Path script = Path.of("src/test/python/pymysql_refusals.py").toAbsolutePath();
        Process p = new ProcessBuilder("/usr/bin/python3", script.toString(), String.valueOf(server.address().getPort()))
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the script finished");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), out);
        // Refusals in place of the greeting carry no SQLSTATE, as MySQL's; PyMySQL before 1.1 cuts 6
        // characters off such a message all the same ("ny connections"), as it does with MySQL's
        String tooMany = pymysqlCutsTheMarkerlessMessage() ? "ny connections" : "Too many connections";
        String blockedHost = pymysqlCutsTheMarkerlessMessage() ? "127.0.0.2'" : "Host '127.0.0.2'";
        assertEquals("""
                wrong-password 1045 Access denied for user 'app'@'127.0.0.1' (using password: YES)
                unknown-database 1049 Unknown database 'nope'
                packet-too-large 1153 Got a packet bigger than 'max_allowed_packet' bytes
                too-many-connections 1040 %s
                from-127.0.0.2-attempt-1 1045 Access denied for user 'app'@'127.0.0.2' (using password: YES)
                from-127.0.0.2-attempt-2 1045 Access denied for user 'app'@'127.0.0.2' (using password: YES)
                from-127.0.0.2-attempt-3 1129 %s is blocked because of many connection errors; unblock with 'mysqladmin flush-hosts'
                """.formatted(tooMany, blockedHost), out);
    }

    /** PyMySQL before 1.1.0 reads every ERR as if it had the 6-byte SQLSTATE marker. */
    private static boolean pymysqlCutsTheMarkerlessMessage() throws Exception {
        Process p = new ProcessBuilder("/usr/bin/python3", "-c",
                "import pymysql; print(tuple(map(int, pymysql.__version__.split('.')[:2])) < (1, 1))").start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim().equals("True");
    }

    /**
     * Connector/J reads @@max_allowed_packet at connect and refuses a longer statement itself, as it
     * does with MySQL (so the server's 1153 is PyMySQL's to see, above); the connection stays usable.
     */
    @Test
    void connectorJLearnsTheConfiguredMaxPacketAndRefusesALongerStatementAsWithMysql() throws Exception {
        ShardwiseServer server = sample.serve(settings().withLimits(10, Duration.ZERO, 4096));
        try (Connection c = connect(server, "app", ""); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@max_allowed_packet")) {
                assertTrue(rs.next());
                assertEquals(4096, rs.getLong(1));
            }
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT '" + "x".repeat(5000) + "'"));
            assertTrue(e.getMessage().contains("max_allowed_packet"), e.toString());
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                assertTrue(rs.next());
                assertEquals(orders, rs.getLong(1));
            }
        }
    }

    @Test
    void connectorJReadsTooManyConnectionsAsFromMysql() throws Exception {
        ShardwiseServer server = sample.serve(settings().withLimits(1, Duration.ZERO, settings().maxPacketSize()));
        try (Connection held = connect(server, "app", "")) {
            SQLException full = refused(server, "app", "");
            assertEquals(1040, full.getErrorCode(), full.toString());
            // what Connector/J makes of MySQL's own 1040; with a SQLSTATE marker the message would start "#08004"
            assertTrue(full.getMessage().endsWith("message from server: \"Too many connections\""), full.getMessage());
            assertEquals("08004", full.getSQLState(), "Connector/J's own SQLSTATE for 1040, as with MySQL's marker-less ERR");
        }
    }
}
