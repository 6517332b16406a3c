package io.shardwise.core.execute;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * What a backend's pool opens its connections with: the backend's URL and driver properties (its
 * account included), through {@link BackendConnections#connect}. Its login timeout is its own: the
 * pool sets it, and it reaches nothing else (Connector/J's connectTimeout property is what bounds a
 * connect). Thread-safe: immutable but for that unused timeout.
 */
final class BackendDataSource implements DataSource {
    private final String url;
    private final Properties properties;
    private volatile int loginTimeoutSeconds;

    BackendDataSource(String url, Properties properties) {
        this.url = url;
        this.properties = (Properties) properties.clone();
    }

    @Override
    public Connection getConnection() throws SQLException {
        return BackendConnections.connect(url, properties);
    }

    /** The pool never asks for another account; this one refuses to open a connection as one. */
    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("a backend's connections use its configured account");
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {}

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeoutSeconds = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeoutSeconds;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("not a wrapper of " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
