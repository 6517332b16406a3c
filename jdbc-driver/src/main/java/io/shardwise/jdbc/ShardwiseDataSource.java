package io.shardwise.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} for frameworks that configure one: {@code setUrl("jdbc:shardwise:...")}, then
 * {@link #getConnection()}. It pools nothing itself (the engine's backend pools do); wrap it in
 * HikariCP for a pool of JDBC connections. Connections share the engine of their configuration,
 * exactly as through {@link Driver}.
 */
public class ShardwiseDataSource implements DataSource {
    private static final Driver DRIVER = new Driver();
    private volatile String url;
    private final Properties properties = new Properties();
    private volatile int loginTimeout;
    private volatile PrintWriter logWriter;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    /** A connection property (as in the URL query), such as {@code useAffectedRows}. */
    public void setProperty(String name, String value) {
        synchronized (properties) {
            properties.setProperty(name, value);
        }
    }

    @Override
    public Connection getConnection() throws SQLException {
        String u = url;
        if (u == null) {
            throw new SQLException("ShardwiseDataSource has no URL: call setUrl(\"jdbc:shardwise:<config location>\")", "08001");
        }
        Properties copy;
        synchronized (properties) {
            copy = (Properties) properties.clone();
        }
        Connection c = DRIVER.connect(u, copy);
        if (c == null) {
            throw new SQLException("not a Shardwise URL: '" + u + "'", "08001");
        }
        return c;
    }

    /** The credentials are ignored: backends are reached with those of the configuration. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw SqlErrors.unsupported("java.util.logging");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlErrors.unwrapSelf(this, iface, "ShardwiseDataSource");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
