package io.shardwise.jmh.proxy;

import io.shardwise.core.config.PemFiles;
import io.shardwise.server.tls.GeneratedCertificate;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The backend of the proxy experiments ({@code jmh/proxy-bench}): the project's own test server
 * (embedded MariaDB 11.4, or the external server {@code SHARDWISE_TEST_MYSQL} names), with the
 * databases every variant reads laid out, and its address written to an env file the script sources.
 * Runs until SIGTERM; the JVM's shutdown hooks then drop the databases and stop an embedded server,
 * so the script stops the backend by this JVM's pid and leaves no {@code mariadbd} behind.
 *
 * <p>Databases: {@code pb_direct} holds everything whole (direct, relay, Shardwise without rules and
 * with {@code small} unpartitioned all read it); {@code pb_0} and {@code pb_1} are the two shards.
 * HSCALE's {@code small} table is created with its three rows in each layout; the sysbench tables
 * are made by sysbench's own {@code prepare}, directly and through Shardwise.
 *
 * <p>Usage: {@code java -cp jmh/target/benchmarks.jar io.shardwise.jmh.proxy.ProxyBackends ENV_FILE}
 */
public final class ProxyBackends {
    static final String DIRECT = "pb_direct";
    static final List<String> SHARDS = List.of("pb_0", "pb_1");
    /** Enough for 512 direct clients plus two Shardwise instances with pools of 512 on both shards. */
    static final int MAX_CONNECTIONS = 4000;

    private static final String SMALL_DDL = "CREATE TABLE small (id INT UNSIGNED NOT NULL,"
            + " category ENUM('books','hardware','software') NOT NULL, PRIMARY KEY(id)) ENGINE=MEMORY";

    private ProxyBackends() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: ProxyBackends ENV_FILE");
            System.exit(2);
        }
        boolean tls = Boolean.getBoolean("proxy.backend.tls");
        MysqlServer server = tls ? withTls() : TestBackends.shared();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            dropAll(server);
            if (tls) {
                server.close(); // a dedicated server: this JVM owns it (the shared one stops with its own hook)
            }
        }, "proxy-backends-cleanup"));
        layOut(server);
        writeEnv(Path.of(args[0]), server);
        System.out.println("[proxy-backends] ready: " + server.describe());
        exitWithParent();
        new CountDownLatch(1).await(); // until SIGTERM runs the shutdown hooks
    }

    /**
     * An embedded MariaDB that also offers TLS ({@code -Dproxy.backend.tls=true}): the baseline of
     * TLS on both sides, a client's TLS through the relay to the backend. Its certificate is made as
     * Shardwise makes its own when none is configured (same key type, so both sides sign alike);
     * clients that pass {@code --skip-ssl} stay in plaintext.
     */
    private static MysqlServer withTls() throws IOException {
        GeneratedCertificate generated = GeneratedCertificate.generate(java.time.Instant.now());
        Path dir = Files.createTempDirectory("proxy-backend-tls");
        Path cert = Files.writeString(dir.resolve("cert.pem"), PemFiles.pem("CERTIFICATE", encoded(generated)));
        Path key = Files.writeString(dir.resolve("key.pem"), PemFiles.pem("PRIVATE KEY", generated.key().getEncoded()));
        return TestBackends.dedicatedWithTls(cert, key);
    }

    private static byte[] encoded(GeneratedCertificate generated) {
        try {
            return generated.certificate().getEncoded();
        } catch (java.security.cert.CertificateEncodingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Exits (running the shutdown hooks, which stop mariadbd) when the script that started this JVM
     * is gone without stopping it, e.g. killed with SIGKILL, so no database outlives the run.
     */
    private static void exitWithParent() {
        ProcessHandle.current().parent().ifPresent(parent -> {
            Thread watch = new Thread(() -> {
                parent.onExit().join();
                System.err.println("[proxy-backends] the script that started me is gone: stopping");
                System.exit(0);
            }, "proxy-backends-parent-watch");
            watch.setDaemon(true);
            watch.start();
        });
    }

    static void layOut(MysqlServer server) throws SQLException {
        try (Connection c = server.connect(null); Statement s = c.createStatement()) {
            s.execute("SET GLOBAL max_connections = " + MAX_CONNECTIONS);
        } catch (SQLException e) {
            // an external server may not grant it; runs past its own limit then fail with 1040, and say so
            System.err.println("[proxy-backends] could not raise max_connections to " + MAX_CONNECTIONS + ": " + e.getMessage());
        }
        server.recreateSchema(DIRECT);
        SHARDS.forEach(server::recreateSchema);
        // HSCALE's rows; on the shards placed as `small`'s rule (mod 2 on id) places them.
        insertSmall(server, DIRECT, "(1,'books'),(2,'hardware'),(3,'software')");
        insertSmall(server, SHARDS.get(0), "(2,'hardware')");
        insertSmall(server, SHARDS.get(1), "(1,'books'),(3,'software')");
    }

    private static void insertSmall(MysqlServer server, String db, String values) throws SQLException {
        try (Connection c = server.connect(db); Statement s = c.createStatement()) {
            s.execute(SMALL_DDL);
            s.execute("INSERT INTO small VALUES " + values);
        }
    }

    /** Written to a temp file and moved, so the script never sources half a file. */
    private static void writeEnv(Path file, MysqlServer server) throws IOException {
        String env = "BACKEND_HOST='" + server.host() + "'\n"
                + "BACKEND_PORT=" + server.port() + "\n"
                + "BACKEND_USER='" + server.user() + "'\n"
                + "BACKEND_PASSWORD='" + server.password().replace("'", "'\\''") + "'\n"
                + "BACKEND_VERSION='" + server.version() + "'\n"
                + "BACKEND_KIND='" + server.kind() + "'\n";
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, env, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void dropAll(MysqlServer server) {
        try {
            server.dropSchema(DIRECT);
            SHARDS.forEach(server::dropSchema);
        } catch (RuntimeException e) {
            // an embedded server may already be stopping; its data directory goes with it
        }
    }
}
