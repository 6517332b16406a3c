package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.Engine;
import io.shardwise.core.sample.SampleData;
import io.shardwise.it.jdbc.Fixture;
import io.shardwise.server.ShardwiseServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * A Shardwise server (in this JVM, ephemeral port) over the JDBC tests' {@link Fixture}: the
 * sharded sample plus its {@code types} and {@code autoinc} tables, with the unsharded copy as the
 * oracle. One per JVM; client URLs take the driver's own option string.
 */
final class ServerFixture {
    private static final ReentrantLock LOCK = new ReentrantLock();
    private static ServerFixture instance;

    final Fixture data;
    final Engine engine;
    final ShardwiseServer server;

    private ServerFixture(Fixture data, Engine engine, ShardwiseServer server) {
        this.data = data;
        this.engine = engine;
        this.server = server;
    }

    static ServerFixture get() {
        LOCK.lock();
        try {
            if (instance == null) {
                Fixture data = Fixture.get();
                Engine engine = Engine.start(SampleData.rule(data.target));
                ShardwiseServer server = ShardwiseServer.start(engine, "127.0.0.1", 0);
                instance = new ServerFixture(data, engine, server);
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    server.close();
                    engine.close();
                }));
            }
            return instance;
        } finally {
            LOCK.unlock();
        }
    }

    /** Connector/J through the Shardwise server; {@code options} are URL parameters ("" for none). */
    Connection connectorJ(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
                + (options.isEmpty() ? "" : "&" + options));
    }

    /** Connector/J straight to the unsharded copy with the same options: what one MySQL-compatible server answers. */
    Connection directConnectorJ(String options) throws SQLException {
        return options.isEmpty() ? data.direct() : data.direct(options);
    }

    /** MariaDB Connector/J through the Shardwise server. */
    Connection mariadb(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + server.address().getPort()
                + "/shop?user=app&password=app" + (options.isEmpty() ? "" : "&" + options));
    }

    /**
     * MariaDB Connector/J straight to the unsharded copy, without the bulk protocol (a MariaDB-only
     * extension the Shardwise server does not offer, which changes how a failing batch entry ends).
     */
    Connection directMariadb(String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://" + data.server.host() + ":" + data.server.port() + "/" + data.whole
                + "?user=" + data.server.user() + "&password=" + data.server.password()
                + "&useBulkStmts=false&useBulkStmtsForInserts=false" + (options.isEmpty() ? "" : "&" + options));
    }

    /** Opens a connection with a driver option string. */
    interface Connect {
        Connection open(String options) throws SQLException;
    }

    /**
     * Runs {@code scenario} on a direct connection, then through the server, with the same options,
     * and asserts the two transcripts (after {@code normalize}) are equal.
     */
    static void same(Connect direct, Connect through, String options, ClientScenarios.Scenario scenario,
                     UnaryOperator<List<String>> normalize) throws SQLException {
        List<String> expected;
        try (Connection c = direct.open(options)) {
            expected = normalize.apply(scenario.run(c));
        }
        List<String> actual;
        try (Connection c = through.open(options)) {
            actual = normalize.apply(scenario.run(c));
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    /** After each test: every backend connection back in its pool (clients closed what they opened). */
    void assertNothingBorrowed() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (engine.activeConnections() != 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a backend connection was not returned to its pool");
            }
            Thread.sleep(20);
        }
    }
}
