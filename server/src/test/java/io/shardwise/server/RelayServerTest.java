package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.testkit.Await;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The packet relay against the JDBC path: the fixture's server relays (the default), a second
 * server over the same engine does not, and a client must not tell them apart, byte for byte, in
 * any packet of the response or of the SHOW WARNINGS that follows. The plan cache is shared, so
 * running a statement on the plain server first makes it a cache hit, which is what the relay takes.
 */
class RelayServerTest {
    private static final int COM_QUERY = 0x03;
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("relay");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    /** Statements over every table shape the relay takes: point, broadcast, single table, multi-point and plain scatter. */
    private static final List<String> RELAYED = List.of(
            "SELECT * FROM orders WHERE user_id = 7",
            "SELECT * FROM users WHERE user_id = 3",
            "SELECT * FROM users WHERE user_id IN (1, 2, 3, 4, 5, 6, 7, 8)",
            "SELECT order_id, amount, status FROM orders WHERE user_id = 999999",
            "SELECT * FROM countries",
            "SELECT c.code, c.name AS label FROM countries c WHERE c.code > 'M'",
            "SELECT * FROM promotions",
            "SELECT id, category FROM small WHERE small.category='books' /* Added */ /* some */ /* comments */",
            "SELECT * FROM events WHERE created_at = '2025-03-01 00:00:00'",
            "SELECT * FROM sbtest1 WHERE id = 5",
            "SELECT id, k, c FROM sbtest2 WHERE id BETWEEN 1 AND 40",
            "SELECT order_id, amount * 2, NULL AS nothing, status FROM orders WHERE user_id = 7",
            "SELECT order_id FROM orders WHERE user_id = 7 AND CAST(CONCAT(order_id, 'x') AS SIGNED) > 0",
            "SELECT id FROM small WHERE CAST(CONCAT(id, 'x') AS SIGNED) > 0",
            "SELECT nope FROM orders WHERE user_id = 7",
            "SELECT * FROM no_such_table WHERE user_id = 7");

    @Test
    void relayedResponsesAreByteForByteThoseOfTheJdbcPath() throws Exception {
        for (Capabilities caps : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF & ~Capabilities.FOUND_ROWS))) {
            try (RawClient viaJdbc = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, caps);
                 RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop",
                         NativePassword.PLUGIN, caps)) {
                for (String sql : RELAYED) {
                    List<String> expected = exchange(viaJdbc, sql);
                    long before = sample.server.relayedStatements();
                    List<String> actual = exchange(viaRelay, sql);
                    assertEquals(before + 1, sample.server.relayedStatements(), "relayed: " + sql);
                    assertEquals(expected, actual, sql);
                    for (String after : List.of("SHOW WARNINGS", "SHOW ERRORS", "SELECT @@warning_count, @@error_count")) {
                        assertEquals(exchange(viaJdbc, after), exchange(viaRelay, after), after + " after " + sql);
                    }
                }
            }
        }
    }

    /**
     * A connection's relay remembers the column definitions it made logical last time and copies them
     * when the backend sends the same bytes again: statements repeated and interleaved on one connection
     * (other columns, other physical tables, an alias, other shards) still get exactly the JDBC path's bytes.
     */
    @Test
    void repeatedAndInterleavedStatementsGetTheirOwnColumnDefinitionsEveryTime() throws Exception {
        List<String> statements = List.of("SELECT * FROM orders WHERE user_id = 7", "SELECT * FROM orders WHERE user_id = 8",
                "SELECT c.code, c.name AS label FROM countries c WHERE c.code > 'M'", "SELECT * FROM sbtest1 WHERE id = 5",
                "SELECT order_id, amount * 2, NULL AS nothing, status FROM orders WHERE user_id = 7",
                "SELECT * FROM users WHERE user_id = 3", "SELECT * FROM sbtest1 WHERE id = 6");
        try (RawClient viaJdbc = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            for (int lap = 0; lap < 3; lap++) {
                for (String sql : statements) {
                    List<String> expected = exchange(viaJdbc, sql);
                    long before = sample.server.relayedStatements();
                    assertEquals(expected, exchange(viaRelay, sql), "lap " + lap + ": " + sql);
                    assertEquals(before + 1, sample.server.relayedStatements(), "relayed: " + sql);
                }
            }
        }
    }

    /**
     * The JDBC path can only guess an integer expression's display width (see ColumnDefinitions);
     * the relay sends the backend's own definition, as one MySQL would.
     */
    @Test
    void expressionColumnsAreDescribedAsTheBackendDescribesThem() throws Exception {
        String sql = "SELECT amount * 2, status IS NULL, COUNT(*) FROM orders WHERE user_id = 7 GROUP BY order_id ORDER BY order_id";
        try (RawClient viaJdbc = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient direct = RawClient.connect(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole,
                     NativePassword.PLUGIN)) {
            exchange(viaJdbc, sql);
            long before = sample.server.relayedStatements();
            List<String> relayed = exchange(viaRelay, sql);
            assertEquals(before + 1, sample.server.relayedStatements());
            List<String> mysql = exchange(direct, sql);
            assertEquals(mysql.subList(0, 4), relayed.subList(0, 4), "column count and definitions");
            assertEquals(mysql.size(), relayed.size());
        }
    }

    @Test
    void aSessionsSettingsTravelToItsRelayConnections() throws Exception {
        String sql = "SELECT status || '!' AS s, order_id FROM orders WHERE user_id = 7";
        try (RawClient viaJdbc = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            for (RawClient c : List.of(viaJdbc, viaRelay)) {
                assertEquals(0x00, firstHeader(exchange(c, "SET sql_mode = 'PIPES_AS_CONCAT'")));
            }
            List<String> expected = exchange(viaJdbc, sql);
            long before = sample.server.relayedStatements();
            List<String> actual = exchange(viaRelay, sql);
            assertEquals(before + 1, sample.server.relayedStatements());
            assertEquals(expected, actual);
            assertTrue(actual.get(3).contains(java.util.HexFormat.of().formatHex("!".getBytes())), "|| concatenated: " + actual.get(3));
        }
    }

    /**
     * A client that logs in, runs relayed statements and quits is served on the event loop alone:
     * no session thread starts for it (connection set-up for clients that connect per request), and
     * its session is still closed and unregistered when it leaves.
     */
    @Test
    void aClientThatOnlyRunsRelayedStatementsAndQuitsStartsNoSessionThread() throws Exception {
        String sql = "SELECT * FROM orders WHERE user_id = 7";
        try (RawClient viaJdbc = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            exchange(viaJdbc, sql); // now a plan-cache hit, which the relay takes
        }
        int clientsBefore = sample.server.clientCount();
        long threadsBefore = sample.server.sessionThreads();
        long relayedBefore = sample.server.relayedStatements();
        for (int i = 0; i < 3; i++) {
            try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                exchange(client, sql);
                exchange(client, sql);
                client.command(0x01, ""); // COM_QUIT: the server closes without a word
                assertTrue(client.closedByServer(), "closed after COM_QUIT");
            }
        }
        assertEquals(relayedBefore + 6, sample.server.relayedStatements());
        assertEquals(threadsBefore, sample.server.sessionThreads(), "no session thread for relayed statements and COM_QUIT");
        Await.until("the clients are gone", () -> sample.server.clientCount() == clientsBefore);
        // a command the relay does not take starts the thread, once per connection
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            exchange(client, sql);
            exchange(client, "SELECT @@version_comment");
            exchange(client, "SELECT DATABASE()");
            assertEquals(threadsBefore + 1, sample.server.sessionThreads());
        }
    }

    private static int firstHeader(List<String> packets) {
        String hex = packets.get(0).substring(packets.get(0).indexOf(':') + 1);
        return Integer.parseInt(hex.substring(0, 2), 16);
    }

    @Test
    void whatTheServerAnswersItselfOrCannotRelayTakesTheJdbcPath() throws Exception {
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            for (String sql : List.of("SELECT @@version_comment", "SELECT DATABASE()", "SHOW TABLES",
                    "SELECT order_id FROM orders ORDER BY order_id LIMIT 3", "SELECT COUNT(*) FROM orders",
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'shop' AND table_name = 'small'")) {
                exchange(client, sql);
                long before = sample.server.relayedStatements();
                exchange(client, sql);
                assertEquals(before, sample.server.relayedStatements(), sql);
            }
            exchange(client, "BEGIN");
            exchange(client, "SELECT * FROM orders WHERE user_id = 7");
            long before = sample.server.relayedStatements();
            exchange(client, "SELECT * FROM orders WHERE user_id = 7");
            assertEquals(before + 1, sample.server.relayedStatements(), "relayed inside a transaction, on its pinned connection");
            assertEquals(1, sample.server.pinnedConnections());
            exchange(client, "ROLLBACK");
            assertEquals(0, sample.server.pinnedConnections());
            exchange(client, "SELECT * FROM orders WHERE user_id = 7");
            assertEquals(before + 2, sample.server.relayedStatements(), "relayed after it, on a pooled connection");
        }
    }

    @Test
    void aClientLeavingMidResultClosesTheRelayAndTheServerGoesOn() throws Exception {
        String scatter = "SELECT * FROM sbtest1";
        try (RawClient warm = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            exchange(warm, scatter);
        }
        for (int i = 0; i < 3; i++) {
            RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
            client.command(COM_QUERY, scatter);
            client.read();
            client.read();
            client.close();
        }
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            long before = sample.server.relayedStatements();
            assertEquals(2 + 4 + 1000, exchange(client, scatter).size(), "count, 4 columns, 1000 rows, end");
            assertEquals(before + 1, sample.server.relayedStatements());
        }
    }

    @Test
    void aClientThatDoesNotReadHoldsTheBackendBackInsteadOfBufferingTheResult() throws Exception {
        String big = "SELECT REPEAT('x', 60000) AS pad, order_id FROM orders";
        try (RawClient warm = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            exchange(warm, big);
        }
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             Connection other = sample.connect("app", ""); Statement s = other.createStatement()) {
            long before = sample.server.relayedStatements();
            client.command(COM_QUERY, big);
            Await.until("the statement is relayed", () -> sample.server.relayedStatements() == before + 1);
            // 60 MB, far more than the sockets buffer: had the relay kept reading into memory, the backend would
            // never block on its socket
            awaitBackendBlockedWriting("SELECT REPEAT");
            boolean running = false;
            try (ResultSet rs = s.executeQuery("SHOW PROCESSLIST")) {
                while (rs.next()) {
                    running |= "Query".equals(rs.getString("Command")) && String.valueOf(rs.getString("Info")).startsWith("SELECT REPEAT");
                }
            }
            assertTrue(running, "the relayed statement waits for the client");
            assertEquals(2 + 2 + 1000, readResponse(client).size());
        }
    }

    @Test
    void aSlowReaderGetsEveryRowOfALargeResult() throws Exception {
        String scatter = "SELECT a.* FROM sbtest3 a";
        try (RawClient warm = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            exchange(warm, scatter);
        }
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            long before = sample.server.relayedStatements();
            client.command(COM_QUERY, scatter);
            // the client reads nothing until every backend has handed over its part: the response outgrows the
            // socket buffers, so the relay must stop reading, then resume
            Await.until("the statement is relayed", () -> sample.server.relayedStatements() == before + 1);
            Await.until("the backends have sent everything", () -> backendStates("SELECT a.").isEmpty());
            List<String> response = readResponse(client);
            assertEquals(2 + 4 + 1000, response.size());
            assertEquals(before + 1, sample.server.relayedStatements());
            assertEquals(exchange(client, "SELECT 1 FROM orders WHERE user_id = 7").size(), exchange(client,
                    "SELECT 1 FROM orders WHERE user_id = 7").size(), "the connection goes on");
        }
    }

    @Test
    void killQueryInterruptsARelayedStatement() throws Exception {
        try (Connection warm = sample.connect("app", ""); Statement s = warm.createStatement()) {
            s.execute("SELECT SLEEP(0), order_id FROM orders WHERE user_id = 7"); // caches the plan
        }
        try (Connection victim = sample.connect("app", ""); Connection killer = sample.connect("app", "");
             Statement vs = victim.createStatement(); Statement ks = killer.createStatement()) {
            long id;
            try (ResultSet rs = vs.executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                id = rs.getLong(1);
            }
            long before = sample.server.relayedStatements();
            CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() -> assertThrows(SQLException.class,
                    () -> vs.executeQuery("SELECT SLEEP(20), order_id FROM orders WHERE user_id = 7")));
            Await.until("the statement is relayed", () -> sample.server.relayedStatements() == before + 1);
            Await.until("a backend runs the SLEEP", () -> !backendStates("SELECT SLEEP(20)").isEmpty());
            ks.execute("KILL QUERY " + id);
            SQLException e = failure.get(10, TimeUnit.SECONDS);
            assertEquals(1317, e.getErrorCode());
            assertEquals("70100", e.getSQLState());
            try (ResultSet rs = vs.executeQuery("SELECT order_id FROM orders WHERE user_id = 7 ORDER BY order_id")) {
                assertTrue(rs.next(), "the session goes on");
            }
        }
    }

    @Test
    void connectorJSeesTheSameRowsThroughTheRelay() throws Exception {
        String sql = "SELECT * FROM orders WHERE user_id = 7";
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            List<String> first = rows(s, sql);
            long before = sample.server.relayedStatements();
            List<String> second = rows(s, sql);
            assertEquals(before + 1, sample.server.relayedStatements());
            assertEquals(first, second);
            assertTrue(!second.isEmpty());
        }
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                out.add(row.toString());
            }
        }
        return out;
    }

    /** Sends a COM_QUERY and returns every packet of its response as "seq:hex". */
    static List<String> exchange(RawClient client, String sql) throws IOException {
        client.command(COM_QUERY, sql);
        return readResponse(client);
    }

    static List<String> readResponse(RawClient client) throws IOException {
        List<String> packets = new ArrayList<>();
        RawClient.Reply first = client.read();
        packets.add(text(first));
        int header = first.header();
        if (header == 0x00 || header == ErrPacket.HEADER) {
            return packets;
        }
        // column definitions, perhaps an EOF, rows, then an EOF/OK (0xFE, short) or an ERR
        boolean afterColumns = false;
        while (true) {
            RawClient.Reply r = client.read();
            packets.add(text(r));
            boolean end = r.header() == 0xFE && r.payload().length < 0xFFFFFF;
            if (r.header() == ErrPacket.HEADER) {
                return packets;
            }
            if (end && (afterColumns || r.payload().length > 5)) {
                return packets;
            }
            if (end) {
                afterColumns = true; // the EOF after the column definitions of a client without DEPRECATE_EOF
            }
        }
    }

    private static String text(RawClient.Reply r) {
        return r.sequenceId() + ":" + HexFormat.of().formatHex(r.payload());
    }

    /** Each statement of {@code script} over one connection, as {@code "sql -> " + exchange(...)}. */
    static List<String> wireAnswers(int port, String user, String password, String database, List<String> script) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient client = RawClient.connect(port, user, password, database, NativePassword.PLUGIN)) {
            for (String sql : script) {
                out.add(sql + " -> " + exchange(client, sql));
            }
        }
        return out;
    }

    /** An answer of {@link #wireAnswers}, a result set's rows left out (the rounds start from different data). */
    static String withoutRows(String answer) {
        String packets = answer.substring(answer.indexOf(" -> [") + 5);
        String first = packets.substring(packets.indexOf(':') + 1, packets.indexOf(':') + 3);
        return first.equals("00") || first.equals("ff") ? answer : answer.substring(0, answer.indexOf(" -> [")) + " -> rows";
    }

    /**
     * What one MariaDB and Shardwise must agree on in an answer of {@link #wireAnswers}: an OK's IN_TRANS and
     * AUTOCOMMIT flags, an ERR's errno, a result's last row (column definitions name other schemas).
     */
    static String outcome(String answer) {
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

    /** The states of the backend's threads running a statement that starts with {@code prefix}. */
    private static List<String> backendStates(String prefix) {
        try (Connection c = sample.backend.connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT STATE FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE '"
                     + prefix.replace("'", "''") + "%'")) {
            List<String> states = new ArrayList<>();
            while (rs.next()) {
                states.add(String.valueOf(rs.getString(1)));
            }
            return states;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until a backend thread running the statement waits for its client: the relay has stopped reading it. */
    private static void awaitBackendBlockedWriting(String prefix) {
        List<List<String>> seen = new java.util.ArrayList<>(List.of(List.of()));
        Await.until("a backend blocks writing " + prefix + "...", Await.DEFAULT, () -> {
            List<String> states = backendStates(prefix);
            seen.set(0, states);
            return states.stream().anyMatch(st -> st.equals("Writing to net") || st.equals("Sending to client"));
        }, () -> seen.get(0).toString());
    }
}
