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
 * the sample schema to Connector/J, and SIGTERM stops it cleanly (clients disconnected, engine closed).
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
                assertEquals(143, process.exitValue(), "128 + SIGTERM, after the shutdown hook ran");
                assertTrue(Files.readString(out, StandardCharsets.UTF_8).contains("Shardwise stopped"), Files.readString(out));
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1").close(), "the client was disconnected");
            }
        } finally {
            process.destroyForcibly();
            backend.dropSchema(prefix + "_0");
            backend.dropSchema(prefix + "_1");
        }
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
