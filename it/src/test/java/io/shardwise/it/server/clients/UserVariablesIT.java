package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.jdbc.Fixture;
import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 items 9 and 12: user variables with MySQL's session semantics whichever shards a statement
 * reaches, and LOCK TABLES on logical tables, through PyMySQL and Connector/J on both server paths
 * (packet relay on and off) and through the JDBC driver, each transcript equal to the same client's
 * against one MariaDB holding the same data.
 */
class UserVariablesIT {
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("uvars"), f -> fixture = f);

    private static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    @Test
    void pymysqlReadsUserVariablesAndLocksOnEveryPath() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_user_variables.py").toString();
        java.util.function.Function<Endpoint, Result> client = e -> ClientProcess.run(List.of(python, script, e.host(),
                Integer.toString(e.port()), e.user(), e.password(), e.database()), null, null, 120);
        Result direct = client.apply(fixture.direct());
        assertEquals(0, direct.exit(), direct::describe);
        assertTrue(direct.out().contains("## not locked: error 1100 Table 'users' was not locked with LOCK TABLES"), direct::describe);
        long relayedBefore = fixture.relayedStatements();
        Result relay = client.apply(fixture.viaServer());
        assertEquals(0, relay.exit(), relay::describe);
        assertEquals(fixture.logical(direct.out()), relay.out(), "relay on");
        assertTrue(fixture.relayedStatements() > relayedBefore, "the relay-on server relayed none of the statements");
        Result executor = client.apply(fixture.viaExecutor());
        assertEquals(0, executor.exit(), executor::describe);
        assertEquals(fixture.logical(direct.out()), executor.out(), "relay off");
    }

    @Test
    void connectorJPreparedStatementsReadTheVariablesOfEachExecution() throws SQLException {
        for (String options : List.of("", "useServerPrepStmts=true")) {
            List<String> direct = scenario(connect(fixture.direct(), options));
            assertTrue(direct.contains("unlocked read: 1100 Table 'users' was not locked with LOCK TABLES"), direct::toString);
            assertEquals(direct, scenario(connect(fixture.viaServer(), options)), "relay on, " + options);
            assertEquals(direct, scenario(connect(fixture.viaExecutor(), options)), "relay off, " + options);
        }
    }

    @Test
    void theJdbcDriverKeepsUserVariablesInItsSession() throws SQLException {
        Fixture data = Fixture.get();
        assertEquals(scenario(data.direct()), scenario(data.shardwise()));
    }

    private static Connection connect(Endpoint e, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8" + (options.isEmpty() ? "" : "&" + options),
                e.user(), e.password());
    }

    /** The same statements on any connection, as a transcript; closes the connection. */
    private static List<String> scenario(Connection connection) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = connection; Statement s = c.createStatement();
             PreparedStatement byKey = c.prepareStatement("SELECT COUNT(*), MIN(order_id), SUM(amount) FROM orders WHERE user_id = @u")) {
            for (int user : new int[] {7, 8, 3}) {
                s.execute("SET @u = " + user);
                try (ResultSet rs = byKey.executeQuery()) { // prepared once, executed with each value
                    rs.next();
                    out.add("user " + user + ": " + rs.getLong(1) + " " + rs.getString(2) + " " + rs.getString(3));
                }
            }
            s.execute("SET @d = 2.50, @s = 'x''y', @n = NULL");
            read(s, "SELECT @u, @d, @s, @n, @unset", out);
            s.execute("SELECT COUNT(*), MAX(amount) INTO @c, @m FROM orders WHERE user_id IN (@u, 7)");
            read(s, "SELECT @c, @m", out);
            try (PreparedStatement p = c.prepareStatement("SELECT user_id INTO @c FROM users WHERE user_id = ?")) {
                p.setLong(1, 7);
                p.execute();
            }
            read(s, "SELECT @c", out);
            s.execute("LOCK TABLES orders READ");
            read(s, "SELECT COUNT(*) FROM orders WHERE user_id = @u", out);
            try {
                s.executeQuery("SELECT COUNT(*) FROM users").close();
                out.add("unlocked read: no error");
            } catch (SQLException e) {
                out.add("unlocked read: " + e.getErrorCode() + " " + e.getMessage());
            }
            s.execute("UNLOCK TABLES");
            read(s, "SELECT COUNT(*) FROM users WHERE user_id = @u", out);
        }
        return out;
    }

    private static void read(Statement s, String sql, List<String> out) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder line = new StringBuilder(sql).append(':');
            while (rs.next()) {
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    line.append(' ').append(md.getColumnLabel(i)).append('=').append(rs.getString(i));
                }
            }
            out.add(line.toString());
        }
    }
}
