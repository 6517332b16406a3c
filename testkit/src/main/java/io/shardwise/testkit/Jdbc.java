package io.shardwise.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** JDBC plumbing shared by every kind of server: URL, connect, one-off statements. */
final class Jdbc {

    /** Short enough that a dead server fails a test quickly, long enough for a loaded CI machine. */
    private static final int CONNECT_TIMEOUT_MS = 5_000;

    private Jdbc() {}

    static String url(String host, int port, String schema) {
        String path = schema == null ? "" : schema;
        return "jdbc:mysql://" + hostPort(host, port) + "/" + path
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8"
                + "&connectTimeout=" + CONNECT_TIMEOUT_MS;
    }

    static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    static Connection connect(String url, String user, String password) throws SQLException {
        // Properties rather than URL parameters: passwords may hold '&', '=' or '%'.
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        return DriverManager.getConnection(url, props);
    }

    /** Runs statements on one connection without a default schema; SQL errors become unchecked. */
    static void execute(MysqlServer server, String... sqls) {
        try (Connection c = server.connect(null); Statement s = c.createStatement()) {
            for (String sql : sqls) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "on " + server.kind() + " " + hostPort(server.host(), server.port()) + ": " + String.join("; ", sqls)
                            + " failed: " + e.getMessage(), e);
        }
    }

    static String queryVersion(String host, int port, String user, String password) throws SQLException {
        try (Connection c = connect(url(host, port, null), user, password);
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** Backtick-quotes a schema name, rejecting the names MySQL would reject or misread. */
    static String quoteIdentifier(String name) {
        if (name == null || name.isEmpty() || name.length() > 64 || name.indexOf('`') >= 0
                || name.endsWith(" ") || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("not a usable schema name (1-64 chars, no backtick, NUL or trailing space): '"
                    + name + "'");
        }
        return "`" + name + "`";
    }
}
