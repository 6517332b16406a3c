package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged server as users run it: {@code java -jar shardwise-server.jar --config FILE} serves
 * the sample schema to Connector/J, and SIGTERM stops it cleanly (clients disconnected, engine closed):
 * running statements and open transactions drain within {@code server.shutdownTimeout}, what is
 * still open then is rolled back, and the process exits 0.
 */
class ServerProcessIT {
    private static final Pattern LISTENING = Pattern.compile("Shardwise serves schema 'shop' on 127\\.0\\.0\\.1:(\\d+) \\(MySQL protocol\\)");

    private static Path serverJar() {
        String root = System.getProperty("shardwise.root");
        if (root == null) {
            throw new IllegalStateException("system property shardwise.root is not set; run through Maven (./mvnw verify)");
        }
        Path jar = Path.of(root).resolve("server/target/shardwise-server.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing; the server module packages it before these tests run");
        return jar;
    }

    private static String configFor(MysqlServer backend, String prefix) {
        return SampleData.configYaml()
                .replace("${env:SHARDWISE_SAMPLE_HOST:-127.0.0.1}", backend.host())
                .replace("${env:SHARDWISE_SAMPLE_PORT:-3306}", Integer.toString(backend.port()))
                .replace("${env:SHARDWISE_SAMPLE_DB:-shop}", prefix)
                .replace("${env:SHARDWISE_SAMPLE_USER:-root}", backend.user())
                .replace("${env:SHARDWISE_SAMPLE_PASSWORD:-}", backend.password());
    }

    @Test
    void theJarServesAConfigurationAndStopsGracefullyOnSigterm(@TempDir Path dir) throws Exception {
        MysqlServer backend = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("serverjar");
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(), prefix);
        SampleData.loadSharded(SampleData.rule(target));
        Path config = dir.resolve("shop.yaml");
        Files.writeString(config, configFor(backend, prefix));
        Path out = dir.resolve("out.txt");
        Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                serverJar().toString(), "--config", config.toString(), "--port", "0"))
                .redirectOutput(out.toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        try {
            int port = awaitPort(process, out);
            try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port
                    + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true");
                 Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                    assertTrue(rs.next());
                    assertEquals(1000, rs.getLong(1));
                }
                process.destroy(); // SIGTERM
                assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server stops within 30 s of SIGTERM");
                assertEquals(0, process.exitValue(), "a drained stop is a success");
                assertTrue(Files.readString(out, StandardCharsets.UTF_8).contains("Shardwise stopped"), Files.readString(out));
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1").close(), "the client was disconnected");
            }
        } finally {
            process.destroyForcibly();
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    @Test
    void sigtermDrainsRunningStatementsAndTransactionsThenRollsBackWhatOutlivesTheTimeout(@TempDir Path dir) throws Exception {
        MysqlServer backend = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("drain");
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(), prefix);
        SampleData.loadSharded(SampleData.rule(target));
        Path config = dir.resolve("shop.yaml");
        Files.writeString(config, configFor(backend, prefix).replace("server:\n  port: 3307\n", "server:\n  port: 3307\n  shutdownTimeout: 8s\n"));
        Path out = dir.resolve("out.txt");
        Process process = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                serverJar().toString(), "--config", config.toString(), "--port", "0"))
                .redirectOutput(out.toFile()).redirectError(dir.resolve("err.txt").toFile()).start();
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();
        try {
            int port = awaitPort(process, out);
            String url = "jdbc:mysql://127.0.0.1:" + port + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true";
            try (Connection running = DriverManager.getConnection(url); Connection committing = DriverManager.getConnection(url);
                 Connection idle = DriverManager.getConnection(url); Connection forgotten = DriverManager.getConnection(url);
                 Connection direct = DriverManager.getConnection("jdbc:mysql://" + backend.host() + ":" + backend.port()
                         + "/?sslMode=DISABLED", backend.user(), backend.password())) {
                committing.setAutoCommit(false);
                committing.createStatement().executeUpdate("UPDATE orders SET status = 'drained' WHERE user_id = 1");
                forgotten.setAutoCommit(false); // a transaction over both shards its client never ends
                forgotten.createStatement().executeUpdate("UPDATE orders SET status = 'cut' WHERE user_id IN (2, 4)"); // ds1.orders_0 and ds0.orders_0: no row lock shared with user 1 (ds0.orders_1)
                java.util.concurrent.Future<Long> statement = threads.submit(() -> {
                    try (ResultSet rs = running.createStatement().executeQuery("SELECT SLEEP(3) AS drain_marker")) {
                        assertTrue(rs.next());
                        return rs.getLong(1);
                    }
                });
                io.shardwise.testkit.Await.until("the SLEEP runs on the backend", () -> sleeping(direct));

                process.destroy(); // SIGTERM, mid-statement
                io.shardwise.testkit.Await.until("new connections are refused once SIGTERM arrived", () -> {
                    try (Connection late = DriverManager.getConnection(url + "&connectTimeout=2000")) {
                        return false;
                    } catch (SQLException refused) {
                        return true;
                    }
                });
                assertEquals(0L, statement.get(60, TimeUnit.SECONDS), "the running statement completes (SLEEP returns 0 when not interrupted)");
                io.shardwise.testkit.Await.until("an idle client is disconnected at once", () -> isClosed(idle));
                // a transaction under way may go on and commit while the server drains
                committing.createStatement().executeUpdate("UPDATE orders SET amount = amount + 1 WHERE user_id = 1");
                committing.commit();
                assertTrue(process.isAlive(), "the forgotten transaction keeps the server draining until shutdownTimeout");

                assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server stops after its 8 s shutdownTimeout");
                assertEquals(0, process.exitValue(), "a clean stop exits 0");
                String printed = Files.readString(out, StandardCharsets.UTF_8);
                assertTrue(printed.contains("Shardwise stopped: 1 session(s) still busy were cut off and rolled back"), printed);
                assertTrue(isClosed(forgotten), "the forgotten transaction's client was disconnected");
                for (Connection gone : List.of(running, committing, idle, forgotten)) {
                    gone.abort(Runnable::run); // close() would try a rollback over the closed socket
                }
            }
            try (io.shardwise.core.Engine engine = io.shardwise.core.Engine.start(SampleData.rule(target));
                 io.shardwise.core.EngineSession check = engine.openSession()) {
                assertEquals("drained", status(check, 1), "the transaction committed while draining is durable");
                String cut = status(check, 2) + "," + status(check, 4);
                assertTrue(!cut.isEmpty() && !cut.contains("cut"), "the transaction cut off at the deadline was rolled back on both shards: " + cut);
            }
        } finally {
            threads.shutdownNow();
            process.destroyForcibly();
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    private static boolean sleeping(Connection direct) {
        try (ResultSet rs = direct.createStatement().executeQuery(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE 'SELECT SLEEP(3) AS drain_marker%'")) {
            return rs.next() && rs.getLong(1) > 0;
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean isClosed(Connection c) {
        try {
            return !c.isValid(2);
        } catch (SQLException e) {
            return true;
        }
    }

    /** Every distinct status of a user's orders, joined: one value when the user's orders all agree. */
    private static String status(io.shardwise.core.EngineSession s, int user) {
        io.shardwise.core.StatementResult r = s.execute("SELECT DISTINCT status FROM orders WHERE user_id = " + user);
        StringBuilder seen = new StringBuilder();
        try (io.shardwise.core.execute.ResultCursor c = ((io.shardwise.core.StatementResult.Rows) r).cursor()) {
            while (c.next()) {
                byte[] v = c.get(0);
                seen.append(seen.isEmpty() ? "" : ",").append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8));
            }
        }
        return seen.toString();
    }

    private static int awaitPort(Process process, Path out) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(Files.readString(out, StandardCharsets.UTF_8));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                fail("the server exited with " + process.exitValue() + ": " + Files.readString(out.resolveSibling("err.txt")));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server printed no listening line in 60 s: " + Files.readString(out));
    }
}
