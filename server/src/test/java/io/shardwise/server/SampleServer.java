package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.Await;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the server's end-to-end tests stand on: the sample data sharded (databases prefix_0 and
 * prefix_1) and whole (prefix_whole, the oracle) on the shared test server, an engine over the
 * sharded layout, and a Shardwise server on an ephemeral port. {@link #close} stops both and drops
 * the databases.
 */
final class SampleServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback, AfterEachCallback {
    private final String prefix;
    MysqlServer backend;
    SampleTarget target;
    String whole;
    Engine engine;
    ShardwiseServer server;
    private final List<ShardwiseServer> served = new ArrayList<>();

    private SampleServer(String prefix) {
        this.prefix = prefix;
    }

    /**
     * The fixture of a test class, as {@code @RegisterExtension static final SampleServer sample =
     * SampleServer.forClass("prefix")}: started before the class's tests, checked clean after each
     * ({@link #assertClean}), closed after the last.
     */
    static SampleServer forClass(String prefix) {
        return new SampleServer(prefix);
    }

    /** A fixture started now, for a test that manages its own lifecycle; close it when done. */
    static SampleServer start(String prefix) {
        SampleServer s = new SampleServer(prefix);
        s.startNow();
        return s;
    }

    private void startNow() {
        backend = TestBackends.shared();
        target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(),
                TestBackends.uniqueSchemaName(prefix));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        whole = target.databasePrefix() + "_whole";
        SampleData.loadUnsharded(target, whole);
        engine = Engine.start(rule);
        server = ShardwiseServer.start(engine, "127.0.0.1", 0);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        startNow();
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        closeServed();
        assertClean();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /**
     * A server of its own over this fixture's engine, with {@code settings} (for a test that needs other settings or
     * fresh per-server state); closed after the test, before the fixture is checked clean.
     */
    ShardwiseServer serve(ServerConfig settings) {
        ShardwiseServer s = ShardwiseServer.start(engine, settings, 0);
        served.add(s);
        return s;
    }

    private void closeServed() {
        served.forEach(ShardwiseServer::close);
        served.clear();
    }

    /** A Connector/J connection through {@code server} as {@code app}; {@code options} are the rest of the URL's parameters. */
    static Connection connect(ShardwiseServer server, String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort() + "/shop?user=app&password="
                + password + options);
    }

    /** Counts the orders over {@code connection} (then closes it): {@code expected}, the unsharded copy's count. */
    static void assertOrders(Connection connection, long expected) throws SQLException {
        try (Connection c = connection; Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
            assertTrue(rs.next());
            assertEquals(expected, rs.getLong(1));
        }
    }

    /** The first column of {@code sql}'s first row on the unsharded copy, as a long (a count). */
    long directLong(String sql) throws SQLException {
        try (Connection c = direct(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** A Connector/J connection through the Shardwise server as {@code app}; {@code options} are extra URL parameters. */
    Connection connect(String password, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort() + "/shop?user=app&password="
                + password + "&sslMode=DISABLED&allowPublicKeyRetrieval=true" + options);
    }

    /** The first column of {@code sql}'s rows as a new client of the server reads them (as {@code app}). */
    List<String> column(String sql) throws SQLException {
        try (Connection c = connect("app", ""); Statement s = c.createStatement()) {
            return column(s, sql);
        }
    }

    /** The first column of {@code sql}'s rows, as text. */
    static List<String> column(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /** A connection straight to the unsharded copy: what one MySQL would answer. */
    Connection direct() throws SQLException {
        return backend.connect(whole);
    }

    /**
     * Runs {@code script} over the wire ({@link RelayServerTest#wireAnswers}) on one MariaDB's unsharded copy, then
     * through Shardwise, in two rounds: this fixture's server (relay on), then a relay-off server over the same engine
     * (the JDBC executor). Each round's status flags, errors and rows must be one MariaDB's, and {@code read} must
     * read what it reads on one MariaDB; the relay's answers must be the JDBC executor's. With {@code relayedMessage},
     * the relay-on round must relay statements (asserted with that message).
     */
    void assertScriptAsOneMariaDbAndTheRelayOffServer(List<String> script, String read, String relayedMessage) throws Exception {
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(engine, engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer round : List.of(server, plain)) {
                // each round runs on one MariaDB's unsharded copy, then on Shardwise's shards, from the same data
                List<String> mariaDb = RelayServerTest.wireAnswers(backend.port(), backend.user(), backend.password(), whole, script);
                long relayed = server.relayedStatements();
                List<String> shardwise = RelayServerTest.wireAnswers(round.address().getPort(), "app", "app", "shop", script);
                if (relayedMessage != null && round == server) {
                    assertTrue(server.relayedStatements() > relayed, relayedMessage);
                }
                assertEquals(String.join("\n", mariaDb.stream().map(RelayServerTest::outcome).toList()),
                        String.join("\n", shardwise.stream().map(RelayServerTest::outcome).toList()),
                        "status flags, errors and rows as one MariaDB's");
                List<String> direct;
                try (Connection c = direct(); Statement s = c.createStatement()) {
                    direct = column(s, read);
                }
                assertEquals(direct, column(read), "what was committed and what rolled back, as on one MariaDB");
                assertEquals(0, server.pinnedConnections());
                answers.add(shardwise.stream().map(RelayServerTest::withoutRows).toList());
            }
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the relay's answers are the JDBC executor's");
    }

    /** A step over the wire, as a lambda. */
    interface WireStep {
        void run() throws Exception;
    }

    /**
     * A client that leaves while the session loop waits for a merge's units: {@code send} starts a statement whose units
     * run a SLEEP ({@code sleeping}, a LIKE pattern of their text) on both shards, then {@code client} closes; the
     * units are killed, no session thread wakes, every relay connection comes back.
     */
    void assertLeavingMidMergeKillsTheUnits(RawClient client, String sleeping, WireStep send) throws Exception {
        try {
            long hops = server.sessionCommands();
            send.run();
            Await.until("the units run the SLEEP", () -> backendQueriesLike(sleeping) >= 2);
            assertEquals(hops, server.sessionCommands(), "the loop waits for the units");
        } finally {
            client.close();
        }
        Await.until("the units were killed", () -> backendQueriesLike(sleeping) == 0);
        Await.until("every relay connection back in its pool or closed", () -> server.busyRelayConnections() == 0);
    }

    /** How many backend threads run a query whose text is LIKE {@code pattern}. */
    int backendQueriesLike(String pattern) {
        try (Connection c = backend.connect(null); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Query' AND INFO LIKE '"
                     + pattern.replace("'", "''") + "' AND INFO NOT LIKE '%PROCESSLIST%'")) {
            rs.next();
            return rs.getInt(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An id of sbtest1 on the other shard than {@code id}'s. */
    long idOnOtherShard(long id) throws SQLException {
        String prefix = target.databasePrefix();
        try (Connection c = backend.connect(null); Statement st = c.createStatement()) {
            String shard;
            try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + prefix + "_0.sbtest1 WHERE id = " + id)) {
                rs.next();
                shard = rs.getInt(1) == 1 ? "_1" : "_0";
            }
            try (ResultSet rs = st.executeQuery("SELECT MIN(id) FROM " + prefix + shard + ".sbtest1")) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * After every test (STYLE 25): every backend connection back in its pool, no leaked buffer, and new
     * clients still accepted.
     */
    void assertClean() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (engine.activeConnections() != 0 || server.pinnedConnections() != 0) {
            if (System.nanoTime() > deadline) {
                fail("a backend connection was not returned to its pool");
            }
            Thread.sleep(20);
        }
        Leaks.assertNone();
        try (Connection c = connect("app", "")) {
            assertTrue(c.isValid(5), "new connections are still accepted");
        }
    }

    @Override
    public void close() {
        closeServed();
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
        if (target != null) {
            backend.dropSchema(target.databasePrefix() + "_0");
            backend.dropSchema(target.databasePrefix() + "_1");
            backend.dropSchema(whole);
        }
    }
}
