package io.shardwise.it.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.config.ConfigOverrides;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.it.jdbc.Fixture;
import io.shardwise.server.ShardwiseServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The transaction pool deadlock (issue 17) at small scale, through both faces: two connections per
 * backend pool and {@value #CLIENTS} clients, each running {@value #TRANSACTIONS} transactions
 * that read a row on ds0 and one on ds1, half of them in the opposite order, all released at once.
 * Without admission the first four transactions to start take both pools' connections, each then
 * waits for the other backend, and after {@code connectionTimeout} clients get 1105 "Shard … is
 * unavailable … Connection is not available": reliably, since sixteen clients start together
 * against four connections. With admission every transaction ends and the pools end empty.
 *
 * <p>Reads only (no row locks, so nothing but the pools can make clients wait) of the shared
 * sample's {@code users}: user_id mod 4 places 0 on ds0 and 2 on ds1.
 */
class TransactionAdmissionIT {
    private static final int CLIENTS = 16;
    private static final int TRANSACTIONS = 8;
    /** Long enough that a slow CI machine never times out a transaction waiting its turn; short enough to fail fast. */
    private static final String TIMEOUT = "5s";
    private static final Map<String, String> SMALL_POOLS = Map.of(
            "backends.ds0.pool.max", "2", "backends.ds1.pool.max", "2",
            "backends.ds0.pool.connectionTimeout", TIMEOUT, "backends.ds1.pool.connectionTimeout", TIMEOUT);
    private static Fixture data;

    @BeforeAll
    static void data() {
        data = Fixture.get();
    }

    /** Opens a client connection (no backend connection is taken until a transaction reads). */
    private interface Connect {
        Connection open() throws SQLException;
    }

    /** What a client does in one transaction, given the user ids in the order it reads them. */
    private interface Transaction {
        void run(Connection c, int first, int second) throws SQLException;
    }

    @Test
    void crossShardTransactionsInOppositeOrdersAllCompleteThroughTheDriver() throws Exception {
        String url = "jdbc:shardwise:" + data.configFile() + "?" + SMALL_POOLS.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).sorted().collect(Collectors.joining("&"));
        Engine engine;
        try (Connection c = DriverManager.getConnection(url)) {
            engine = c.unwrap(Engine.class);
        }
        runLoad(() -> DriverManager.getConnection(url), (c, first, second) -> {
            c.setAutoCommit(false);
            read(c, first);
            read(c, second);
            c.commit();
        }, engine::activeConnections);
    }

    @Test
    void crossShardTransactionsInOppositeOrdersAllCompleteThroughTheServer() throws Exception {
        ShardingRule rule = ShardingRule.load(data.configFile(), System::getenv, ConfigOverrides.of(SMALL_POOLS));
        try (Engine engine = Engine.start(rule); ShardwiseServer server = ShardwiseServer.start(engine, "127.0.0.1", 0)) {
            String url = "jdbc:mysql://127.0.0.1:" + server.address().getPort()
                    + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true";
            runLoad(() -> DriverManager.getConnection(url), (c, first, second) -> {
                try (Statement s = c.createStatement()) {
                    s.execute("START TRANSACTION"); // as sysbench's oltp scripts begin
                }
                read(c, first);
                read(c, second);
                try (Statement s = c.createStatement()) {
                    s.execute("COMMIT");
                }
            }, engine::activeConnections);
        }
    }

    private static void read(Connection c, int userId) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT name FROM users WHERE user_id = " + userId)) {
            while (rs.next()) {
                rs.getString(1);
            }
        }
    }

    private static void runLoad(Connect connect, Transaction transaction, IntSupplier activeConnections) throws Exception {
        List<Connection> clients = new ArrayList<>();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                clients.add(connect.open());
            }
            for (int i = 0; i < CLIENTS; i++) {
                Connection c = clients.get(i);
                // even clients read ds0 then ds1, odd ones ds1 then ds0
                int first = i % 2 == 0 ? 0 : 2;
                int second = 2 - first;
                threads.add(Thread.ofPlatform().name("client-" + i).start(() -> {
                    try {
                        start.await();
                        for (int t = 0; t < TRANSACTIONS; t++) {
                            transaction.run(c, first, second);
                        }
                    } catch (SQLException e) {
                        errors.add(e.getErrorCode() + " " + e.getMessage());
                    } catch (InterruptedException e) {
                        errors.add("interrupted");
                    }
                }));
            }
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                assertTrue(!t.isAlive(), t.getName() + " still running after 90 s");
            }
        } finally {
            for (Connection c : clients) {
                c.close();
            }
        }
        assertEquals(List.of(), List.copyOf(errors), "every transaction completes");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (activeConnections.getAsInt() != 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertEquals(0, activeConnections.getAsInt(), "every backend connection back in its pool");
    }
}
