package io.shardwise.it.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.Await;
import io.shardwise.testkit.ControllableServer;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Sustained load with a backend killed and restarted under it (issue 17). Connector/J clients run a
 * mixed workload through the server — point reads, scatter counts, autocommit inserts, and
 * transactions inserting on both backends — while ds1, a MariaDB of its own, is killed (SIGKILL) a
 * third of the way through and started again at half time. A ledger keeps every write the server
 * acknowledged. Afterwards: every acknowledged write is present; statements that failed did so with
 * a MySQL error, within the configured timeouts, on connections that went on serving; writes to ds1
 * succeed again after its restart without any action (the pools recovered); and nothing leaked —
 * no borrowed connection, backend connections within the pools' bounds (counted on each backend's
 * {@code information_schema.PROCESSLIST}), JVM threads, file descriptors and heap after GC back
 * where they started. Prints {@code soak: N statements, N acknowledged, 0 lost, 0 leaked connections}.
 *
 * <p>Short by default ({@code -Dsoak.connections=16 -Dsoak.seconds=20}); {@code -Pbench} runs 256
 * connections for 3 minutes: {@code ./mvnw -pl it -am verify -Pbench -Dtest=none
 * -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=SoakIT}.
 */
class SoakIT {
    private static final int CONNECTIONS = Integer.getInteger("soak.connections", 16);
    private static final int SECONDS = Integer.getInteger("soak.seconds", 20);
    private static final int POOL_MAX = 16;
    private static final String CONNECTION_TIMEOUT = "5s";
    private static final long FIRST_ID = 1_000_000_000L;

    /** What the load generator saw; thread-safe. */
    private static final class Ledger {
        final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
        final AtomicLong statements = new AtomicLong();
        final AtomicLong ds1WritesAfterRestart = new AtomicLong();
        final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
        final List<String> unclean = java.util.Collections.synchronizedList(new ArrayList<>());
        final LongAccumulator slowestFailureMillis = new LongAccumulator(Math::max, 0);
    }

    @Test
    void mixedLoadWithABackendKilledAndRestartedLosesNoAcknowledgedWriteAndLeaksNothing() throws Exception {
        MysqlServer shared = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("soak");
        try (ControllableServer ds1 = TestBackends.dedicated()) {
            SampleTarget target = new SampleTarget(shared.host(), shared.port(), shared.user(), shared.password(), prefix);
            ShardingRule rule = SampleData.rule(target, yaml -> yaml
                    .replace("${env:SHARDWISE_SAMPLE_HOST:-127.0.0.1}:${env:SHARDWISE_SAMPLE_PORT:-3306}/${env:SHARDWISE_SAMPLE_DB:-shop}_1",
                            ds1.host() + ":" + ds1.port() + "/" + prefix + "_1")
                    .replace("    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n",
                            "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n    pool: { max: " + POOL_MAX
                                    + ", connectionTimeout: " + CONNECTION_TIMEOUT + " }\n"));
            SampleData.loadSharded(rule);
            try (Engine engine = Engine.start(rule); ShardwiseServer server = ShardwiseServer.start(engine, "127.0.0.1", 0)) {
                String url = "jdbc:mysql://127.0.0.1:" + server.address().getPort()
                        + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true";
                warmUp(url);
                java.util.function.LongSupplier pooled = () -> backendConnections(shared, prefix + "_0") + backendConnections(ds1, prefix + "_1");
                Usage before = Usage.now(pooled);
                Ledger ledger = new Ledger();
                run(url, ds1, ledger);
                Await.until("every backend connection is back in its pool", () -> engine.activeConnections() == 0);
                long ds0Connections = backendConnections(shared, prefix + "_0");
                long ds1Connections = backendConnections(ds1, prefix + "_1");
                Usage after = Usage.settled(before, pooled);

                Set<Long> present = soakRows(engine);
                Set<Long> lost = new HashSet<>(ledger.acknowledged);
                lost.removeAll(present);
                // per backend: the JDBC pool and the server's relay connections, up to pool.max each
                // (configuration.md §3); Connector/J asks for found rows, so the changed-rows pool stays empty
                long bound = 2L * POOL_MAX;
                long leaked = Math.max(0, ds0Connections - bound) + Math.max(0, ds1Connections - bound) + engine.activeConnections();
                System.out.println("soak: " + ledger.statements.get() + " statements, " + ledger.acknowledged.size() + " acknowledged, "
                        + lost.size() + " lost, " + leaked + " leaked connections");
                System.out.println("soak: " + CONNECTIONS + " connections, " + SECONDS + " s; errors " + new TreeMap<>(ledger.errors)
                        + "; slowest failure " + ledger.slowestFailureMillis.get() + " ms; ds1 writes after its restart "
                        + ledger.ds1WritesAfterRestart.get() + "; backend connections ds0 " + ds0Connections + ", ds1 " + ds1Connections
                        + "; " + before + " -> " + after);

                assertEquals(Set.of(), lost, "every acknowledged write is present");
                assertEquals(0, leaked, "no backend connection leaked");
                assertTrue(ledger.unclean.isEmpty(), () -> "failures that were no MySQL error:\n" + String.join("\n", ledger.unclean));
                assertTrue(ledger.slowestFailureMillis.get() < 3 * Duration.parse("PT" + CONNECTION_TIMEOUT).toMillis(),
                        "a failed statement failed within the configured timeouts (pool.connectionTimeout " + CONNECTION_TIMEOUT + ")");
                assertTrue(ledger.ds1WritesAfterRestart.get() > 0, "ds1 serves writes again after its restart, with no action taken");
                assertTrue(ledger.acknowledged.size() > CONNECTIONS, "the load ran: " + ledger.acknowledged.size());
                try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
                     ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                    assertTrue(rs.next(), "the server still serves new clients");
                }
            } finally {
                shared.dropSchema(prefix + "_0");
            }
        }
    }

    /** One statement of each kind, so pools, plan cache and class loading are in place before the baseline is taken. */
    private static void warmUp(String url) throws SQLException {
        for (int i = 0; i < 3; i++) {
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                s.executeQuery("SELECT status FROM orders WHERE user_id = " + i).close();
                s.executeQuery("SELECT COUNT(*) FROM orders").close();
            }
        }
    }

    private static void run(String url, ControllableServer ds1, Ledger ledger) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong restartedAt = new AtomicLong(Long.MAX_VALUE);
        AtomicLong ids = new AtomicLong(FIRST_ID);
        List<Future<?>> clients = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int n = 0; n < CONNECTIONS; n++) {
                long seed = n;
                clients.add(threads.submit(() -> client(url, new SplittableRandom(seed), ids, ledger, stop, restartedAt)));
            }
            long start = System.nanoTime();
            sleepUntil(start, SECONDS * 1000L / 3);
            ds1.kill(); // SIGKILL under load
            sleepUntil(start, SECONDS * 1000L / 2);
            ds1.start();
            restartedAt.set(System.nanoTime());
            sleepUntil(start, SECONDS * 1000L);
            stop.set(true);
            for (Future<?> f : clients) {
                f.get(5, TimeUnit.MINUTES);
            }
        }
    }

    /** The load's own schedule (not a wait for a condition): phases of a fixed length. */
    private static void sleepUntil(long start, long millis) throws InterruptedException {
        long left = millis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        if (left > 0) {
            Thread.sleep(left);
        }
    }

    private static Void client(String url, SplittableRandom random, AtomicLong ids, Ledger ledger, AtomicBoolean stop,
                               AtomicLong restartedAt) throws SQLException {
        try (Connection c = connect(url, ledger); Statement s = c.createStatement()) {
            while (!stop.get()) {
                int user = random.nextInt(1, 200);
                int kind = random.nextInt(10);
                long t0 = System.nanoTime();
                List<Long> written = new ArrayList<>(2);
                ledger.statements.incrementAndGet();
                try {
                    if (kind < 5) {
                        s.executeQuery("SELECT status FROM orders WHERE user_id = " + user).close();
                    } else if (kind < 6) {
                        s.executeQuery("SELECT COUNT(*) FROM orders").close();
                    } else if (kind < 9) {
                        long id = ids.incrementAndGet();
                        s.executeUpdate(insert(id, user));
                        written.add(id);
                    } else {
                        long a = ids.incrementAndGet();
                        long b = ids.incrementAndGet();
                        c.setAutoCommit(false);
                        try {
                            s.executeUpdate(insert(a, user));
                            s.executeUpdate(insert(b, user + 2)); // user + 2 lives on the other backend (mod 4 over ds0, ds0, ds1, ds1)
                            c.commit();
                        } finally {
                            rollbackQuietly(c);
                        }
                        written.add(a);
                        written.add(b);
                        user += 2;
                    }
                    ledger.acknowledged.addAll(written);
                    if (!written.isEmpty() && System.nanoTime() > restartedAt.get() && user % 4 >= 2) {
                        ledger.ds1WritesAfterRestart.incrementAndGet();
                    }
                } catch (SQLException e) {
                    ledger.slowestFailureMillis.accumulate(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                    ledger.errors.computeIfAbsent(Integer.toString(e.getErrorCode()), k -> new AtomicLong()).incrementAndGet();
                    String m = String.valueOf(e.getMessage());
                    if (e.getErrorCode() < 1000 || m.contains("[BUG]") || m.contains("Exception") || c.isClosed()) {
                        ledger.unclean.add(e.getErrorCode() + " " + e.getSQLState() + " " + m);
                        return null;
                    }
                }
            }
        }
        return null;
    }

    /**
     * A client's login, retried as a load generator would: hundreds of clients logging in at once on a
     * shared machine may outlast a connect or handshake deadline. Retries are counted, not failures.
     */
    private static Connection connect(String url, Ledger ledger) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return DriverManager.getConnection(url + "&connectTimeout=30000");
            } catch (SQLException e) {
                if (attempt == 5) {
                    throw e;
                }
                ledger.errors.computeIfAbsent("login retried", k -> new AtomicLong()).incrementAndGet();
            }
        }
    }

    private static String insert(long id, int user) {
        return "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (" + id + ", " + user
                + ", 'soak', 1.00, '2026-11-26 12:00:00')";
    }

    private static void rollbackQuietly(Connection c) {
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
        } catch (SQLException ignored) {
            // the failure that brought us here is what the ledger records
        }
    }

    private static Set<Long> soakRows(Engine engine) {
        Set<Long> ids = new HashSet<>();
        try (EngineSession s = engine.openSession()) {
            StatementResult r = s.execute("SELECT order_id FROM orders WHERE status = 'soak'");
            try (ResultCursor c = ((StatementResult.Rows) r).cursor()) {
                while (c.next()) {
                    ids.add(Long.parseLong(new String(c.get(0), StandardCharsets.US_ASCII)));
                }
            }
        }
        return ids;
    }

    /** Connections to {@code schema} open on the backend now, as the backend counts them. */
    private static long backendConnections(MysqlServer backend, String schema) {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + backend.host() + ":" + backend.port() + "/?sslMode=DISABLED",
                backend.user(), backend.password());
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE DB = '" + schema + "'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError("cannot count connections on " + backend.host() + ":" + backend.port(), e);
        }
    }

    /**
     * Platform threads, open file descriptors other than the pools' backend connections (the pools
     * keep up to {@code max} idle connections between the baseline and the end, by design; whether
     * they stay within it is checked on the backends), and heap used after a GC.
     */
    private record Usage(int threads, long fds, long heapMiB) {
        static Usage now(java.util.function.LongSupplier pooled) {
            System.gc();
            long fds;
            try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
                fds = open.count() - pooled.getAsLong();
            } catch (java.io.IOException e) {
                fds = -1;
            }
            return new Usage(ManagementFactory.getThreadMXBean().getThreadCount(), fds,
                    ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() >> 20);
        }

        /**
         * Usage once it is back within a small margin of {@code before} (threads and sockets of the
         * load close asynchronously); fails if it never is. The margins cover what a JVM starts on its
         * own (a JIT or GC thread), not anything per connection or per statement.
         */
        static Usage settled(Usage before, java.util.function.LongSupplier pooled) {
            Usage[] last = {null};
            Await.until("threads, file descriptors and heap back to where they started", Duration.ofSeconds(60), () -> {
                last[0] = now(pooled);
                return last[0].threads <= before.threads + 4 && last[0].fds <= before.fds + 16
                        && last[0].heapMiB <= before.heapMiB + 64;
            }, () -> before + " -> " + last[0]);
            return last[0];
        }

        @Override
        public String toString() {
            return "threads " + threads + ", fds (without pooled backend connections) " + fds + ", heap after GC " + heapMiB + " MiB";
        }
    }
}
