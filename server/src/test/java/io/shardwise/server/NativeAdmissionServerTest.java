package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
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
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Admission of native transactions when every relay connection is taken ({@code pool.max: 1}, so one
 * open transaction holds each backend's whole relay budget): the next transaction waits for its
 * reservation — it neither leaves the native path for the JDBC executor nor holds a connection while
 * it waits — and runs natively once one comes free; a wait beyond {@code pool.connectionTimeout} fails
 * its statement with 1205 and the transaction goes on.
 */
class NativeAdmissionServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("nativeadmit");

    private static final String READ_DS0 = "SELECT status FROM orders WHERE user_id = 1";
    private static final String READ_DS1 = "SELECT status FROM orders WHERE user_id = 3";

    @Test
    void aTransactionWaitsForItsRelayConnectionsAndThenRunsNatively() throws Exception {
        withServers("30s", (engine, on, off) -> {
            try (Connection a = connect(on); Statement sa = a.createStatement();
                 Connection b = connect(on); Statement sb = b.createStatement()) {
                List<String> expected = rows(sa, READ_DS1);
                a.setAutoCommit(false);
                rows(sa, READ_DS0); // A's transaction reserves both backends' only relay connection
                assertEquals(1, on.pinnedConnections());
                b.setAutoCommit(false);
                CompletableFuture<List<String>> read = CompletableFuture.supplyAsync(() -> {
                    try {
                        return rows(sb, READ_DS1);
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                });
                Await.until("B's transaction waits for admission", () -> on.waitingTransactions() == 1);
                assertFalse(read.isDone(), "B waits while A holds the relay connections");
                assertEquals(0, engine.activeConnections(), "B is not on the JDBC executor");
                a.commit();
                assertEquals(expected, read.get(), "B reads once A's connections came back");
                assertEquals(1, on.pinnedConnections(), "B's transaction is native: it holds ds1's relay connection");
                assertEquals(0, engine.activeConnections());
                b.commit();
                assertEquals(0, on.pinnedConnections());
                assertEquals(0, on.waitingTransactions());
            }
        });
    }

    @Test
    void aWaitBeyondTheConnectionTimeoutFailsItsStatementWith1205AndTheTransactionGoesOn() throws Exception {
        withServers("1s", (engine, on, off) -> {
            try (Connection a = connect(on); Statement sa = a.createStatement();
                 Connection b = connect(on); Statement sb = b.createStatement()) {
                List<String> expected = rows(sa, READ_DS1);
                a.setAutoCommit(false);
                rows(sa, READ_DS0);
                b.setAutoCommit(false);
                SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> rows(sb, READ_DS1));
                assertEquals(1205, e.getErrorCode(), e::getMessage);
                // the SQLSTATE on the wire is HY000, as MySQL's; Connector/J reports 1205 as 40001 whatever the server sends
                assertTrue(e.getMessage().contains("no relay connection came free"), e::getMessage);
                assertEquals(0, on.waitingTransactions());
                a.commit();
                assertEquals(expected, rows(sb, READ_DS1), "the same transaction goes on once connections are free");
                assertEquals(1, on.pinnedConnections());
                b.commit();
                assertEquals(0, on.pinnedConnections());
            }
        });
    }

    /**
     * A client that leaves while its transaction waits is out of the queue at once, and takes nothing
     * with it: the next transaction is admitted when the first ends.
     */
    @Test
    void aClientGoneWhileWaitingLeavesTheQueue() throws Exception {
        withServers("30s", (engine, on, off) -> {
            try (Connection a = connect(on); Statement sa = a.createStatement(); Connection c = connect(on); Statement sc = c.createStatement()) {
                a.setAutoCommit(false);
                rows(sa, READ_DS0);
                Connection b = connect(on);
                b.setAutoCommit(false);
                Statement sb = b.createStatement();
                CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
                    try {
                        rows(sb, READ_DS1);
                    } catch (SQLException ignored) {
                        // the connection is aborted under it
                    }
                });
                Await.until("B waits", () -> on.waitingTransactions() == 1);
                b.abort(Runnable::run);
                Await.until("B left the queue", () -> on.waitingTransactions() == 0);
                waiting.handle((v, t) -> null).get();
                a.commit();
                c.setAutoCommit(false);
                rows(sc, READ_DS1);
                assertEquals(1, on.pinnedConnections());
                c.commit();
                assertEquals(0, on.pinnedConnections());
            }
        });
    }

    /** A server-side prepared statement's execute that begins the transaction waits for admission as a text statement does. */
    @Test
    void aPreparedExecuteThatBeginsATransactionWaitsForItsRelayConnectionsToo() throws Exception {
        withServers("30s", (engine, on, off) -> {
            try (Connection a = connect(on); Statement sa = a.createStatement();
                 Connection b = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + on.address().getPort()
                         + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true&useServerPrepStmts=true");
                 java.sql.PreparedStatement read = b.prepareStatement("SELECT status FROM orders WHERE user_id = ?")) {
                List<String> expected = rows(sa, READ_DS1);
                read.setInt(1, 3);
                read.executeQuery().close(); // the prepared shape into the plan cache: only a hit relays
                a.setAutoCommit(false);
                rows(sa, READ_DS0); // A's transaction holds both backends' only relay connection
                b.setAutoCommit(false);
                long relayed = on.relayedStatements();
                CompletableFuture<List<String>> waited = CompletableFuture.supplyAsync(() -> {
                    List<String> out = new ArrayList<>();
                    try (ResultSet rs = read.executeQuery()) {
                        while (rs.next()) {
                            out.add(rs.getString(1));
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    return out;
                });
                Await.until("B's execute waits for admission", () -> on.waitingTransactions() == 1);
                assertEquals(0, engine.activeConnections(), "B is not on the JDBC executor");
                a.commit();
                assertEquals(expected, waited.get());
                assertEquals(relayed + 1, on.relayedStatements(), "the execute relayed once admitted");
                assertEquals(1, on.pinnedConnections(), "B's transaction is native");
                assertEquals(0, engine.activeConnections());
                b.commit();
                assertEquals(0, on.pinnedConnections());
            }
        });
    }

    /**
     * KILL QUERY reaches a statement whose transaction waits for admission: it leaves the queue at once
     * (not after pool.connectionTimeout) and fails with MySQL's 1317; its transaction goes on.
     */
    @Test
    void killQueryTakesAWaitingTransactionOutOfTheQueueWith1317() throws Exception {
        withServers("60s", (engine, on, off) -> {
            try (Connection a = connect(on); Statement sa = a.createStatement();
                 Connection b = connect(on); Statement sb = b.createStatement();
                 Connection killer = connect(on); Statement sk = killer.createStatement()) {
                List<String> expected = rows(sa, READ_DS1);
                String id = rows(sb, "SELECT CONNECTION_ID()").get(0);
                a.setAutoCommit(false);
                rows(sa, READ_DS0);
                b.setAutoCommit(false);
                CompletableFuture<Integer> read = CompletableFuture.supplyAsync(() -> {
                    try {
                        rows(sb, READ_DS1);
                        return 0;
                    } catch (SQLException e) {
                        return e.getErrorCode();
                    }
                });
                Await.until("B's transaction waits for admission", () -> on.waitingTransactions() == 1);
                sk.execute("KILL QUERY " + id);
                assertEquals(1317, read.get(), "killed while it waited: Query execution was interrupted");
                assertEquals(0, on.waitingTransactions(), "out of the queue");
                a.commit();
                assertEquals(expected, rows(sb, READ_DS1), "the transaction goes on");
                b.commit();
                assertEquals(0, on.pinnedConnections());
            }
        });
    }

    private interface ServersBody {
        void run(Engine engine, ShardwiseServer on, ShardwiseServer off) throws Exception;
    }

    /** An engine whose backends allow one relay connection each, served with the relay on and off. */
    private static void withServers(String connectionTimeout, ServersBody body) throws Exception {
        MysqlServer backend = sample.backend;
        String prefix = TestBackends.uniqueSchemaName("admit");
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(), prefix);
        ShardingRule rule = SampleData.rule(target, yaml -> yaml.replace("    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n",
                "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n    pool: { max: 1, minIdle: 0, connectionTimeout: "
                        + connectionTimeout + " }\n"));
        SampleData.loadSharded(rule);
        try (Engine engine = Engine.start(rule);
             ShardwiseServer on = ShardwiseServer.start(engine, "127.0.0.1", 0);
             ShardwiseServer off = ShardwiseServer.start(engine, engine.rule().config().server().withRelay(false), 0)) {
            try (Connection c = connect(off); Statement s = c.createStatement()) {
                rows(s, READ_DS0); // the shapes into the plan cache through the JDBC path: only a hit relays
                rows(s, READ_DS1);
            }
            Await.until("the JDBC path's connection back", () -> engine.activeConnections() == 0);
            body.run(engine, on, off);
            Await.until("nothing pinned", () -> on.pinnedConnections() == 0);
        } finally {
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    private static Connection connect(ShardwiseServer server) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true");
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
