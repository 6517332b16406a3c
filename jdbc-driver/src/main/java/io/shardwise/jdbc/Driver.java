package io.shardwise.jdbc;

import io.shardwise.core.Engine;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The Shardwise JDBC driver: {@code jdbc:shardwise:<config location>[?property=value&...]}, where
 * the location is a YAML configuration file path, a {@code file:} URI or
 * {@code classpath:<resource>}. Registered through {@code META-INF/services/java.sql.Driver} and on
 * class initialisation.
 *
 * <p>Properties (URL query or {@link Properties}; the latter win): {@code useAffectedRows}
 * (default false: update counts are matched rows, as Connector/J). {@code user} and
 * {@code password} are accepted and ignored: the engine runs in-process and reaches its backends
 * with the credentials of the configuration. A property named as a configuration path
 * ({@code backends.ds0.pool.max=4}) overrides that value of the file, checked as the file is.
 *
 * <p>All connections to one location with the same overrides share one engine (backend pools, plan
 * cache), started by the first connection and kept for the JVM's life or until
 * {@link #shutdown(String)}.
 */
public final class Driver implements java.sql.Driver {
    public static final int MAJOR_VERSION = 0;
    public static final int MINOR_VERSION = 1;
    static final String NAME = "Shardwise JDBC Driver";
    static final String VERSION = MAJOR_VERSION + "." + MINOR_VERSION + ".0-SNAPSHOT";

    static {
        try {
            DriverManager.registerDriver(new Driver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null; // DriverManager's contract: another driver may take it
        }
        ConnectionUrl parsed = ConnectionUrl.parse(url, info);
        try {
            // an engine that cannot start (xa mode without its decision log) fails with its own code
            Engine engine = EngineRegistry.engineFor(parsed);
            ShardwiseConnection connection = new ShardwiseConnection(engine, url, parsed.useAffectedRows());
            if (parsed.allowLoadLocalInfile()) {
                connection.allowLocalFiles();
            }
            return connection;
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    @Override
    public boolean acceptsURL(String url) {
        return ConnectionUrl.accepts(url);
    }

    /**
     * Closes the engine serving this URL's configuration with its overrides (the configuration
     * properties in the URL), and its backend pools. Connections still open on it fail from then on;
     * the next connection starts a new engine. False when no engine was running for it.
     */
    public static boolean shutdown(String url) throws SQLException {
        return EngineRegistry.shutdown(ConnectionUrl.parse(url, null));
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        DriverPropertyInfo affected = new DriverPropertyInfo("useAffectedRows",
                info == null ? "false" : info.getProperty("useAffectedRows", "false"));
        affected.description = "Report changed rows rather than matched rows as update counts";
        affected.choices = new String[] {"true", "false"};
        return new DriverPropertyInfo[] {affected};
    }

    @Override
    public int getMajorVersion() {
        return MAJOR_VERSION;
    }

    @Override
    public int getMinorVersion() {
        return MINOR_VERSION;
    }

    /** Not yet: the JDBC compliance test suite has not been run. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlErrors.unsupported("java.util.logging");
    }
}
