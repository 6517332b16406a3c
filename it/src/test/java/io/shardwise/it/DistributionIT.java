package io.shardwise.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server distribution ({@code server/target/shardwise-VERSION.tar.gz}) as a deployment receives
 * it: {@code bin/}, {@code lib/}, {@code config/}, {@code docs/}, nothing that only tests or the demo
 * need, and, unpacked anywhere, {@code bin/shardwise} serves the example configuration.
 */
class DistributionIT {
    private static final Pattern LISTENING = Pattern.compile("Shardwise serves schema 'shop' on 127\\.0\\.0\\.1:(\\d+) \\(MySQL protocol\\)");

    private static String top() {
        return "shardwise-" + System.getProperty("shardwise.version") + "/";
    }

    private static List<String> tar(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tar"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "tar finishes");
        assertEquals(0, p.exitValue(), () -> "tar " + String.join(" ", args) + ": " + lines);
        return lines;
    }

    @Test
    void theArchiveHoldsWhatServingNeedsAndNothingForTestsOrTheDemo(@TempDir Path dir) throws Exception {
        List<String> entries = tar(dir, "-tzf", ProjectFiles.distribution().toString());
        for (String expected : List.of("bin/shardwise", "bin/find-jdk", "config/shop.example.yaml", "docs/server.md",
                "docs/configuration.md", "lib/shardwise-server-" + System.getProperty("shardwise.version") + ".jar")) {
            assertTrue(entries.contains(top() + expected), () -> expected + " missing from " + entries);
        }
        assertTrue(entries.stream().anyMatch(e -> e.startsWith(top() + "lib/shardwise-core-")), entries::toString);
        assertTrue(entries.stream().allMatch(e -> e.startsWith(top())), "one top directory: " + entries);
        List<String> testOnly = entries.stream().filter(e -> ServerJarIT.TEST_OR_DEMO_ONLY.matcher(e).find()).toList();
        assertEquals(List.of(), testOnly, "the distribution carries what only tests or the demo need");
        long bytes = Files.size(ProjectFiles.distribution());
        // 35 MB today; with the demo's embedded MariaDB it would weigh over 150 MB
        assertTrue(bytes < 60L << 20, "the distribution grew to " + (bytes >> 20) + " MB");
    }

    @Test
    void unpackedAnywhereItServesTheExampleConfigurationAndStopsOnSigterm(@TempDir Path dir) throws Exception {
        tar(dir, "-xzf", ProjectFiles.distribution().toString());
        Path home = dir.resolve(top());
        MysqlServer backend = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("dist");
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(), prefix);
        SampleData.loadSharded(SampleData.rule(target));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        // the example configuration reads its backend from these variables (config/shop.example.yaml)
        ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/shardwise").toString(),
                "--config", "config/shop.example.yaml", "--port", "0")
                .directory(home.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().putAll(Map.of("SHARDWISE_SAMPLE_HOST", backend.host(),
                "SHARDWISE_SAMPLE_PORT", Integer.toString(backend.port()), "SHARDWISE_SAMPLE_DB", prefix,
                "SHARDWISE_SAMPLE_USER", backend.user(), "SHARDWISE_SAMPLE_PASSWORD", backend.password(),
                "JAVA_HOME", System.getProperty("java.home")));
        Process process = builder.start();
        try {
            int port = awaitPort(process, out, err);
            try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port
                    + "/shop?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true");
                 Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                assertTrue(rs.next());
                assertEquals(1000, rs.getLong(1));
            }
            process.destroy(); // SIGTERM: bin/shardwise exec's java, so the signal reaches the JVM
            assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the server stops within 30 s of SIGTERM");
            assertEquals(0, process.exitValue(), "SIGTERM is a clean, drained stop");
            assertTrue(Files.readString(out).contains("Shardwise stopped"), () -> read(out));
            String errors = read(err);
            // a logging binding ships (no SLF4J "no providers" warning), and native access is allowed
            assertFalse(errors.contains("SLF4J"), errors);
            assertFalse(errors.contains("restricted method"), errors);
        } finally {
            process.destroyForcibly();
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
    }

    @Test
    void theDistributionHasNoDemoAndSaysWhereItIs(@TempDir Path dir) throws Exception {
        tar(dir, "-xzf", ProjectFiles.distribution().toString());
        Process p = new ProcessBuilder(dir.resolve(top()).resolve("bin/shardwise").toString(), "--demo", "--exit-when-ready")
                .redirectError(dir.resolve("err.txt").toFile()).redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/shardwise --demo returns at once");
        assertEquals(1, p.exitValue());
        assertTrue(read(dir.resolve("err.txt")).contains("From a source checkout, run: ./shardwise --demo"), () -> read(dir.resolve("err.txt")));
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    /** Polls the server's output for its listening line (no fixed sleep: it returns as soon as the line appears). */
    private static int awaitPort(Process process, Path out, Path err) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(read(out));
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (process.waitFor(50, TimeUnit.MILLISECONDS)) {
                fail("bin/shardwise exited with " + process.exitValue() + ": " + read(err));
            }
        }
        throw new AssertionError("bin/shardwise printed no listening line in 60 s: " + read(out) + read(err));
    }
}
