package io.shardwise.core.config;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of the server face only: where it listens, who may connect and how, and the limits on
 * clients.
 *
 * @param maxConnections clients served at once; the next one gets ERR 1040
 * @param idleTimeout a client idle this long is disconnected with ERR 4031; {@link Duration#ZERO} for never
 * @param maxPacketSize the largest client message in bytes (MySQL's max_allowed_packet); a longer one gets ERR 1153
 * @param defaultAuthPlugin the plugin every client authenticates with, one of {@link #AUTH_PLUGINS}
 * @param relay whether eligible reads (a cached single-unit or plain-scatter SELECT, in a session at
 *     its baseline) relay the backends' packets instead of running through the JDBC executor
 * @param version the server version announced (handshake, {@code @@version}, {@code VERSION()}, and the gate of
 *     versioned executable comments) in place of the default backend's, e.g. {@code 10.11.6-MariaDB}; null for the backend's
 * @param connectTimeout a client not authenticated this long after it connected is disconnected (MySQL's connect_timeout)
 * @param maxConnectErrors failed connection attempts in a row (wrong password, bad handshake, timeout) after which an
 *     address gets ERR 1129 until the server restarts (MySQL's max_connect_errors); a successful login resets the count
 * @param shutdownTimeout how long a stopping server (SIGTERM) lets running statements and open transactions finish
 *     before it closes the connections left, which rolls their transactions back
 */
public record ServerConfig(String bind, int port, List<UserConfig> users, int maxConnections, Duration idleTimeout,
                           int maxPacketSize, TlsConfig tls, String defaultAuthPlugin, boolean relay, String version,
                           Duration connectTimeout, int maxConnectErrors, Duration shutdownTimeout) {
    public static final String NATIVE_PASSWORD = "mysql_native_password";
    public static final String CACHING_SHA2_PASSWORD = "caching_sha2_password";
    public static final List<String> AUTH_PLUGINS = List.of(NATIVE_PASSWORD, CACHING_SHA2_PASSWORD);
    /** MySQL's own max_allowed_packet range. */
    public static final int MIN_PACKET_SIZE = 1024;
    public static final int MAX_PACKET_SIZE = 1 << 30;

    /** What a server version looks like: {@code 8.0.36}, {@code 11.4.5-MariaDB-log}. */
    public static final java.util.regex.Pattern VERSION = java.util.regex.Pattern.compile("\\d{1,2}\\.\\d{1,2}\\.\\d{1,3}([-.+~][\\x21-\\x7e]*)?");

    /** MySQL's connect_timeout and max_connect_errors defaults. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_CONNECT_FAILURE_LIMIT = 100;
    /** Long enough for the statements and short transactions of an OLTP application; within Kubernetes' default grace period (30 s). */
    public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(20);

    public static final ServerConfig DEFAULT = new ServerConfig("127.0.0.1", 3307, List.of(), 1000, Duration.ZERO,
            64 << 20, TlsConfig.GENERATED, NATIVE_PASSWORD, true, null, DEFAULT_CONNECT_TIMEOUT, DEFAULT_CONNECT_FAILURE_LIMIT,
            DEFAULT_SHUTDOWN_TIMEOUT);

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(tls, "tls");
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        users = List.copyOf(users);
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative: " + idleTimeout);
        }
        if (maxPacketSize < MIN_PACKET_SIZE || maxPacketSize > MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("maxPacketSize must be from " + MIN_PACKET_SIZE + " to " + MAX_PACKET_SIZE + ": " + maxPacketSize);
        }
        if (!AUTH_PLUGINS.contains(defaultAuthPlugin)) {
            throw new IllegalArgumentException("defaultAuthPlugin must be one of " + AUTH_PLUGINS + ": " + defaultAuthPlugin);
        }
        if (version != null && !VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException("version must be major.minor.patch with an optional suffix (8.0.36, 10.11.6-MariaDB): " + version);
        }
        if (connectTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("connectTimeout must be at least 1ms: " + connectTimeout);
        }
        if (maxConnectErrors < 1) {
            throw new IllegalArgumentException("maxConnectErrors must be at least 1: " + maxConnectErrors);
        }
        if (shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("shutdownTimeout must not be negative: " + shutdownTimeout);
        }
    }

    /** The settings with the default shutdown timeout. */
    public ServerConfig(String bind, int port, List<UserConfig> users, int maxConnections, Duration idleTimeout,
                        int maxPacketSize, TlsConfig tls, String defaultAuthPlugin, boolean relay, String version,
                        Duration connectTimeout, int maxConnectErrors) {
        this(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, version,
                connectTimeout, maxConnectErrors, DEFAULT_SHUTDOWN_TIMEOUT);
    }

    /** The settings with MySQL's connect_timeout and max_connect_errors. */
    public ServerConfig(String bind, int port, List<UserConfig> users, int maxConnections, Duration idleTimeout,
                        int maxPacketSize, TlsConfig tls, String defaultAuthPlugin, boolean relay, String version) {
        this(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, version,
                DEFAULT_CONNECT_TIMEOUT, DEFAULT_CONNECT_FAILURE_LIMIT);
    }

    /** The settings announcing the default backend's version. */
    public ServerConfig(String bind, int port, List<UserConfig> users, int maxConnections, Duration idleTimeout,
                        int maxPacketSize, TlsConfig tls, String defaultAuthPlugin, boolean relay) {
        this(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, null);
    }

    /** The settings with the packet relay on (the default). */
    public ServerConfig(String bind, int port, List<UserConfig> users, int maxConnections, Duration idleTimeout,
                        int maxPacketSize, TlsConfig tls, String defaultAuthPlugin) {
        this(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, true);
    }

    public ServerConfig withRelay(boolean on) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, on, version, connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withUsers(List<UserConfig> newUsers) {
        return new ServerConfig(bind, port, newUsers, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, version, connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withLimits(int newMaxConnections, Duration newIdleTimeout, int newMaxPacketSize) {
        return new ServerConfig(bind, port, users, newMaxConnections, newIdleTimeout, newMaxPacketSize, tls, defaultAuthPlugin, relay, version, connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withTls(TlsConfig newTls) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, newTls, defaultAuthPlugin, relay, version, connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withDefaultAuthPlugin(String plugin) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, plugin, relay, version, connectTimeout, maxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withVersion(String newVersion) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, newVersion, connectTimeout, maxConnectErrors);
    }

    /** The connection-phase guards: the handshake deadline and the failed attempts after which an address is blocked. */
    public ServerConfig withConnectGuards(Duration newConnectTimeout, int newMaxConnectErrors) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, version,
                newConnectTimeout, newMaxConnectErrors, shutdownTimeout);
    }

    public ServerConfig withShutdownTimeout(Duration timeout) {
        return new ServerConfig(bind, port, users, maxConnections, idleTimeout, maxPacketSize, tls, defaultAuthPlugin, relay, version,
                connectTimeout, maxConnectErrors, timeout);
    }
}
