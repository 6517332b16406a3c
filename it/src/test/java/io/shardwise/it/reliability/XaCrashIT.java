package io.shardwise.it.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.testkit.Await;
import io.shardwise.testkit.FaultProxy;
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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transaction mode xa when Shardwise itself dies: the packaged server, a real process, is killed
 * with SIGKILL after it logged a commit decision and committed on ds0, while ds1's XA COMMIT is
 * held in a {@link FaultProxy}; ds1's branch is left prepared. A second instance (its own id and
 * log, same backends) starts and must leave that branch alone; the first instance, restarted,
 * completes it from its log. Afterwards every backend holds all or none of each transaction.
 */
class XaCrashIT {
    private static final Pattern LISTENING = Pattern.compile("Shardwise serves schema 'bank' on 127\\.0\\.0\\.1:(\\d+) \\(MySQL protocol\\)");

    @Test
    void aCommitDecidedBeforeSigkillIsCompletedOnEveryBackendAfterRestart(@TempDir Path dir) throws Exception {
        MysqlServer real = TestBackends.shared();
        String s0 = TestBackends.uniqueSchemaName("xacrash0");
        String s1 = TestBackends.uniqueSchemaName("xacrash1");
        try (FaultProxy proxy = FaultProxy.to(real.host(), real.port())) {
            for (String s : List.of(s0, s1)) {
                real.createSchema(s);
                try (Connection c = real.connect(s); Statement st = c.createStatement()) {
                    st.execute("CREATE TABLE acct (id INT PRIMARY KEY, v INT) ENGINE=InnoDB");
                }
            }
            Path first = config(dir, "first", real.jdbcUrl(s0), proxy.view(real).jdbcUrl(s1), real);
            Process one = start(first, dir.resolve("first"));
            int port = awaitPort(one, dir.resolve("first"));
            try (Connection c = client(port); Statement st = c.createStatement()) {
                for (int k = 0; k < 5; k++) { // committed transactions, each over both backends (id mod 2)
                    c.setAutoCommit(false);
                    st.executeUpdate("INSERT INTO acct (id, v) VALUES (" + (2 * k) + ", 1), (" + (2 * k + 1) + ", 1)");
                    c.commit();
                }
                proxy.arm("XA COMMIT", FaultProxy.Fault.FREEZE);
                st.executeUpdate("INSERT INTO acct (id, v) VALUES (100, 1), (101, 1)");
                CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                    try {
                        c.commit();
                    } catch (SQLException e) {
                        // the server dies under it
                    }
                });
                Await.until("ds1's XA COMMIT reached the proxy (after the decision was logged)", () -> proxy.fired() == 1);
                assertTrue(Files.readString(dir.resolve("first.log")).startsWith("C sw.first."), "the decision is on disk");
                one.destroyForcibly(); // SIGKILL: no shutdown hook, no rollback
                assertTrue(one.waitFor(30, TimeUnit.SECONDS));
                commit.exceptionally(e -> null).get(30, TimeUnit.SECONDS);
            }
            proxy.cutAll(); // the frozen connection to ds1 closes; its prepared branch stays
            assertEquals("100", ids(real, s0, 100), "ds0 committed before the crash");
            assertEquals("", ids(real, s1, 100), "ds1's branch is in doubt");
            assertEquals(1, prepared(real, "sw.first.").size());

            Path second = config(dir, "second", real.jdbcUrl(s0), real.jdbcUrl(s1), real);
            Process two = start(second, dir.resolve("second"));
            try {
                awaitPort(two, dir.resolve("second"));
                Await.until("the second instance ran its start-up recovery",
                        () -> log(dir.resolve("second")).contains("XA recovery of instance second at start"));
                assertEquals(1, prepared(real, "sw.first.").size(), "another instance never resolves first's branches");
            } finally {
                two.destroy();
                two.waitFor(30, TimeUnit.SECONDS);
            }

            Process again = start(first, dir.resolve("again"));
            try {
                int p = awaitPort(again, dir.resolve("again"));
                Await.until("the restarted instance resolved its branch", () -> prepared(real, "sw.first.").isEmpty());
                assertEquals("101", ids(real, s1, 100), "recovery committed ds1's branch from the logged decision");
                try (Connection c = client(p); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM acct")) {
                    rs.next();
                    assertEquals(12, rs.getInt(1));
                }
            } finally {
                again.destroy();
                again.waitFor(30, TimeUnit.SECONDS);
            }
            // all or none: every transaction put ids 2k and 2k+1 on the two backends
            assertEquals("0,2,4,6,8,100", ids(real, s0, -1));
            assertEquals("1,3,5,7,9,101", ids(real, s1, -1));
        } finally {
            real.dropSchema(s0);
            real.dropSchema(s1);
        }
    }

    private static Path config(Path dir, String instance, String url0, String url1, MysqlServer real) throws Exception {
        String yaml = """
                schema: bank
                backends:
                  ds0: { url: "%s", user: "%s", password: "%s" }
                  ds1: { url: "%s", user: "%s", password: "%s" }
                defaultBackend: ds0
                tables:
                  acct: { nodes: "ds${0..1}.acct", key: id, algorithm: { type: mod } }
                transaction: { mode: xa, log: "%s", instanceId: %s, recoveryInterval: 500ms }
                server:
                  users: [ { name: app, password: app } ]
                """.formatted(url0, real.user(), real.password(), url1, real.user(), real.password(),
                dir.resolve(instance + ".log"), instance);
        Path file = dir.resolve(instance + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static Process start(Path config, Path out) throws Exception {
        String root = System.getProperty("shardwise.root");
        if (root == null) {
            throw new IllegalStateException("system property shardwise.root is not set; run through Maven (./mvnw verify)");
        }
        Path jar = Path.of(root).resolve("server/target/shardwise-server.jar");
        assertTrue(Files.isRegularFile(jar), jar + " is missing");
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-jar",
                jar.toString(), "--config", config.toString(), "--port", "0"))
                .redirectOutput(out.resolveSibling(out.getFileName() + ".out").toFile())
                .redirectError(out.resolveSibling(out.getFileName() + ".err").toFile()).start();
    }

    private static String log(Path out) {
        try {
            return Files.readString(out.resolveSibling(out.getFileName() + ".out"), StandardCharsets.UTF_8)
                    + Files.readString(out.resolveSibling(out.getFileName() + ".err"), StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static int awaitPort(Process process, Path out) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(log(out));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!process.isAlive()) {
                fail("the server exited with " + process.exitValue() + ": " + log(out));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the server printed no listening line in 60 s: " + log(out));
    }

    private static Connection client(int port) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port
                + "/bank?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true");
    }

    /** Ids on one backend's schema, read directly: those from {@code from} on, or all for -1. */
    private static String ids(MysqlServer real, String schema, int from) {
        try (Connection c = real.connect(schema); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT COALESCE(GROUP_CONCAT(id ORDER BY id), '') FROM acct WHERE id >= " + Math.max(from, 0))) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> prepared(MysqlServer real, String prefix) {
        List<String> xids = new ArrayList<>();
        try (Connection c = real.connect(null); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                String gtrid = new String(rs.getBytes(4), 0, rs.getInt(2), StandardCharsets.US_ASCII);
                if (gtrid.startsWith(prefix)) {
                    xids.add(gtrid);
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        return xids;
    }
}
