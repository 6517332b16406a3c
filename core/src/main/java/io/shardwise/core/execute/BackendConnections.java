package io.shardwise.core.execute;

import io.shardwise.core.config.BackendConfig;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * How Shardwise opens a JDBC connection to a backend: the driver properties every pooled
 * connection carries ({@link BackendPools}), and unpooled side connections with the very same
 * properties — the pool's connect timeout, the URL's TLS settings, the session variables — for work
 * that must not wait for a pool the statements themselves may have exhausted (KILL QUERY) or that
 * reads metadata outside any session. Stateless.
 */
public final class BackendConnections {
    private BackendConnections() {}

    /**
     * A new connection outside any pool, counting matched rows as the main pool does; the caller
     * closes it. Never open a backend connection with {@link DriverManager} directly: it would lose
     * the pool's timeouts and settings.
     */
    public static Connection openUnpooled(BackendConfig config) throws SQLException {
        Properties p = driverProperties(config, true);
        p.setProperty("user", config.user());
        p.setProperty("password", config.password());
        return connect(config.url(), p);
    }

    /**
     * As {@link #openUnpooled} (the pool's timeouts, the URL's TLS), but in the session a fresh client
     * of the backend gets: results in each column's own character set ({@code character_set_results}
     * NULL, Connector/J's default) rather than utf8mb4, and the server's {@code net_write_timeout}.
     * For answers passed on as the backend's bytes (SHOW, information_schema, the variables clients
     * read back), which a client of one MySQL gets unconverted and unchanged.
     */
    public static Connection openUnpooledRaw(BackendConfig config) throws SQLException {
        Properties p = driverProperties(config, true);
        p.remove("characterSetResults");
        p.remove("sessionVariables");
        p.setProperty("user", config.user());
        p.setProperty("password", config.password());
        return connect(config.url(), p);
    }

    /**
     * Connector/J's own driver, not {@link DriverManager}: the engine runs inside applications (the JDBC
     * face), whose other drivers DriverManager would consult, and whose JVM-wide DriverManager state it
     * must neither read nor change.
     */
    static Connection connect(String url, Properties properties) throws SQLException {
        Connection c = DRIVER.connect(url, properties);
        if (c == null) {
            throw new SQLException("not a MySQL JDBC URL: " + url, "08001");
        }
        return c;
    }

    private static final java.sql.Driver DRIVER = newDriver();

    private static java.sql.Driver newDriver() {
        try {
            return new com.mysql.cj.jdbc.Driver();
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static Properties driverProperties(BackendConfig config, boolean foundRows) {
        Properties p = new Properties();
        p.setProperty("useServerPrepStmts", "false");
        // every unit prepares its rendered text anew; Connector/J parsing that text was the largest
        // single cost of a point select through the JDBC face, and these texts repeat (one per plan)
        p.setProperty("cachePrepStmts", "true");
        p.setProperty("prepStmtCacheSize", "256");
        p.setProperty("prepStmtCacheSqlLimit", "4096");
        p.setProperty("useAffectedRows", Boolean.toString(!foundRows));
        p.setProperty("jdbcCompliantTruncation", "false");
        p.setProperty("useLocalSessionState", "true");
        // results in utf8mb4 unless a session says otherwise, as a client whose handshake named utf8mb4 gets them
        p.setProperty("characterSetResults", "UTF-8");
        // Connector/J wraps every streaming query in two SETs of net_write_timeout; set it once per connection instead,
        // so a client that pauses reading (back-pressure) has ten minutes before the backend gives up on it
        p.setProperty("netTimeoutForStreamingResults", "0");
        p.setProperty("sessionVariables", "net_write_timeout=600");
        // no timestamp per packet: it is only used to word communication errors
        p.setProperty("maintainTimeStats", "false");
        // CLIENT_LOCAL_FILES in the handshake, so LOAD DATA LOCAL can stream a client's rows (LocalData), while
        // no backend can make Shardwise read a file of its host: allowLoadLocalInfile stays false except
        // around a LocalData unit, and this path names no directory that exists
        p.setProperty("allowLoadLocalInfileInPath", LocalData.NO_FILES);
        // sockets an idle pooled connection can be checked on without a round trip (see Pool.acquire)
        p.setProperty("socketFactory", PeekableSocketFactory.class.getName());
        p.setProperty("connectTimeout", Long.toString(Math.max(250, config.pool().connectionTimeout().toMillis())));
        return p;
    }
}
