package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.server.clients.ClientFixture.Endpoint;
import io.shardwise.it.server.clients.ClientProcess.Result;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 items 5 and 6 through real drivers on both server paths (packet relay on and off):
 * every error a client can provoke (syntax, unknown table or column, refused statements, a backend
 * error mid-rows, prepare errors, cursor errors, an empty label that used to fail with a Java
 * exception) carries a real MySQL errno and SQLSTATE and leaves the connection usable; read-only
 * transactions refuse writes with 1792 (25006) as the backend does on its own.
 */
class ErrorsAndReadOnlyIT {
    private static final Pattern SQLSTATE = Pattern.compile("[0-9A-Z]{5}");
    private static ClientFixture fixture;
    @RegisterExtension
    static final ClientFixture.Lifecycle LIFECYCLE = new ClientFixture.Lifecycle(() -> ClientFixture.start("errors"), f -> fixture = f);

    private static Path root() {
        return Path.of(System.getProperty("shardwise.root", "..")).toAbsolutePath().normalize();
    }

    @Test
    void pymysqlConnectionsSurviveEveryErrorAndReadOnlyMatchesTheBackend() {
        String python = ClientProcess.require("python3 with PyMySQL (apt-get install python3-pymysql)", "/usr/bin/python3", "python3");
        String script = root().resolve("it/src/test/python/pymysql_errors.py").toString();
        java.util.function.Function<Endpoint, Result> client = e -> ClientProcess.run(List.of(python, script, e.host(),
                Integer.toString(e.port()), e.user(), e.password(), e.database()), null, null, 120);
        Result direct = client.apply(fixture.direct());
        assertEquals(0, direct.exit(), () -> "direct: " + direct.describe());
        assertTrue(direct.out().contains("INSERT INTO countries (code, name) VALUES ('zz', 'Zedland') -> ERR 1792"), direct::describe);
        for (Endpoint e : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            Result through = client.apply(e);
            assertEquals(0, through.exit(), () -> "through Shardwise port " + e.port() + ": " + through.describe());
            assertEquals(fixture.logical(direct.out()), through.out(), "port " + e.port());
        }
    }

    @Test
    void connectorJErrorsCarryMysqlCodesAndTheConnectionGoesOn() throws SQLException {
        for (Endpoint e : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            for (String options : List.of("", "&useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=1")) {
                try (Connection c = connect(e, options); Statement s = c.createStatement()) {
                    assertEquals("", single(s, "SELECT ''"));
                    try (PreparedStatement p = c.prepareStatement("SELECT ?")) {
                        p.setString(1, "");
                        try (ResultSet rs = p.executeQuery()) {
                            assertTrue(rs.next());
                            assertEquals("", rs.getString(1));
                        }
                    }
                    assertEquals("next", single(s, "SELECT 'next'"));
                    errs(c, s, () -> s.execute("SELEC 1"), 1064);
                    errs(c, s, () -> s.execute("SELECT * FROM no_such_table"), 1146);
                    errs(c, s, () -> s.execute("SELECT no_such_column FROM countries"), 1054);
                    errs(c, s, () -> s.execute("SELECT DISTINCT status, GROUP_CONCAT(user_id) OVER () FROM orders"), 0);
                    errs(c, s, () -> {
                        try (ResultSet rs = s.executeQuery("SELECT code, IF(code > 'm', (SELECT 1 UNION SELECT 2), 0) FROM countries")) {
                            while (rs.next()) {
                                rs.getString(1);
                            }
                        }
                    }, 1242);
                    errs(c, s, () -> { // with server prepares it fails at prepare, else at execute
                        try (PreparedStatement p = c.prepareStatement("SELECT * FROM no_such_table WHERE id = ?")) {
                            p.setInt(1, 1);
                            p.executeQuery().close();
                        }
                    }, 1146);
                    errs(c, s, () -> {
                        try (PreparedStatement p = c.prepareStatement("SELECT code, IF(code > ?, (SELECT 1 UNION SELECT 2), 0) FROM countries")) {
                            p.setString(1, "m");
                            try (ResultSet rs = p.executeQuery()) {
                                while (rs.next()) {
                                    rs.getString(1);
                                }
                            }
                        }
                    }, 1242);
                    errs(c, s, () -> s.executeUpdate("INSERT INTO countries (code, name) VALUES ('zz', NULL)"), 1048);
                    errs(c, s, () -> s.execute("USE no_such_database"), 1049);
                    readOnly(c, s);
                }
            }
        }
    }

    /** Connector/J's setReadOnly sends SET SESSION TRANSACTION READ ONLY; START TRANSACTION READ ONLY too. */
    private static void readOnly(Connection c, Statement s) throws SQLException {
        c.setReadOnly(true); // Connector/J refuses writes itself then, so the server's refusal is tested by SET below
        assertEquals("1", single(s, "SELECT @@transaction_read_only"));
        c.setReadOnly(false);
        assertEquals("0", single(s, "SELECT @@transaction_read_only"));
        s.execute("SET SESSION TRANSACTION READ ONLY");
        errs(c, s, () -> s.executeUpdate("DELETE FROM countries WHERE code = 'zz'"), 1792);
        errs(c, s, () -> s.executeUpdate("UPDATE orders SET status = status"), 1792);
        s.execute("SET SESSION TRANSACTION READ WRITE");
        assertEquals("0", single(s, "SELECT @@transaction_read_only"));
        s.executeUpdate("DELETE FROM countries WHERE code = 'zz'");
        s.execute("START TRANSACTION READ ONLY");
        errs(c, s, () -> s.executeUpdate("INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')"), 1792);
        s.execute("COMMIT");
        s.executeUpdate("DELETE FROM countries WHERE code = 'zz'");
    }

    private interface Failing {
        void run() throws SQLException;
    }

    /**
     * The action fails with {@code errno} (0: any code a server could send) and a real SQLSTATE, no
     * Java text, and the next statement on the connection succeeds.
     */
    private static void errs(Connection c, Statement s, Failing action, int errno) throws SQLException {
        SQLException e = assertThrows(SQLException.class, action::run);
        String what = e.getErrorCode() + " (" + e.getSQLState() + ") " + e.getMessage();
        if (errno != 0) {
            assertEquals(errno, e.getErrorCode(), what);
        }
        assertTrue(e.getErrorCode() >= 1000 && e.getErrorCode() < 6000, what);
        assertTrue(e.getSQLState() != null && SQLSTATE.matcher(e.getSQLState()).matches() && !e.getSQLState().startsWith("S1"), what);
        for (String java : List.of("Exception", "java.", "io.shardwise", "[BUG]")) {
            assertTrue(!e.getMessage().contains(java), what);
        }
        assertEquals("next", single(s, "SELECT 'next'"), "after " + what);
        assertTrue(c.isValid(5));
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    /** SET TRANSACTION ISOLATION LEVEL without SESSION on both server paths: the next transaction only, reported as MariaDB reports it. */
    @Test
    void aNextTransactionIsolationBehavesAsOnOneMariaDb() throws SQLException {
        List<String> direct;
        try (Connection a = connect(fixture.direct(), ""); Connection b = connect(fixture.direct(), "")) {
            direct = io.shardwise.it.jdbc.NextTransactionIsolation.observe(a, b);
        }
        assertTrue(direct.contains("its read locks the row: true"), direct.toString());
        for (Endpoint e : List.of(fixture.viaServer(), fixture.viaExecutor())) {
            try (Connection a = connect(e, ""); Connection b = connect(e, "")) {
                assertEquals(direct, io.shardwise.it.jdbc.NextTransactionIsolation.observe(a, b), e.toString());
            }
        }
    }

    private static Connection connect(Endpoint e, String options) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port() + "/" + e.database()
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8" + options, e.user(), e.password());
    }
}
