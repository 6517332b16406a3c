package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statements the engine's session answers itself (SHOW, DESCRIBE, EXPLAIN, variable selects,
 * diagnostics, information_schema, KILL) read the same through the JDBC driver as through the
 * server: one engine answers both faces, so labels, values and errors agree. (The version variables
 * differ on purpose: the server announces its own identity, the driver reports the backend's.)
 */
class FacesAgreeIT {
    private static final List<String> STATEMENTS = List.of(
            "SHOW TABLES", "SHOW FULL TABLES", "SHOW TABLES LIKE 'order%'", "SHOW CREATE TABLE orders",
            "SHOW CREATE TABLE types", "DESCRIBE orders", "DESC order_items", "EXPLAIN orders",
            "SHOW COLUMNS FROM orders LIKE 'user%'", "SHOW INDEX FROM orders", "SHOW DATABASES",
            "SELECT DATABASE()", "SELECT DATABASE() AS db, @@autocommit, @@session.transaction_isolation",
            "SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() ORDER BY TABLE_NAME",
            "SHOW TABLES FROM nowhere", "DESCRIBE no_such_table", "SHOW WARNINGS", "SHOW COUNT(*) WARNINGS",
            "EXPLAIN SELECT * FROM orders", "EXPLAIN SELECT * FROM orders WHERE user_id = 3", "EXPLAIN FORMAT=JSON SELECT * FROM orders",
            "EXPLAIN FORMAT=JSON SELECT * FROM orders WHERE user_id = 3", "EXPLAIN ANALYZE SELECT * FROM orders", "KILL 999999");

    private static ServerFixture f;

    @BeforeAll
    static void start() {
        f = ServerFixture.get();
    }

    @AfterEach
    void nothingBorrowed() throws InterruptedException {
        f.assertNothingBorrowed();
    }

    @Test
    void sessionAnsweredStatementsReadTheSameThroughTheDriverAsThroughTheServer() throws SQLException {
        List<String> server;
        try (Connection c = f.connectorJ("")) {
            server = run(c);
        }
        List<String> driver;
        try (Connection c = f.data.shardwise()) {
            driver = run(c);
        }
        assertEquals(String.join("\n", server), String.join("\n", driver));
    }

    @Test
    void warningsOfTheLastStatementListAlikeThroughBothFaces() throws SQLException {
        List<String> script = List.of("SELECT CAST('12x' AS SIGNED) FROM orders WHERE user_id = 1 LIMIT 1", "SHOW WARNINGS",
                "SELECT @@warning_count", "SHOW WARNINGS", "SELECT 1", "SHOW WARNINGS");
        List<String> server;
        try (Connection c = f.connectorJ("")) {
            server = run(c, script);
        }
        List<String> driver;
        try (Connection c = f.data.shardwise()) {
            driver = run(c, script);
        }
        assertEquals(String.join("\n", server), String.join("\n", driver));
    }

    private static List<String> run(Connection c) throws SQLException {
        return run(c, STATEMENTS);
    }

    /** Each statement, then its labels and rows, or its error code. */
    private static List<String> run(Connection c, List<String> statements) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String sql : statements) {
            out.add("> " + sql);
            try (Statement s = c.createStatement()) {
                if (!s.execute(sql)) {
                    out.add("OK " + s.getUpdateCount());
                    continue;
                }
                ResultSet rs = s.getResultSet();
                ResultSetMetaData md = rs.getMetaData();
                List<String> labels = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    labels.add(md.getColumnLabel(i));
                }
                out.add(String.join("|", labels));
                while (rs.next()) {
                    List<String> row = new ArrayList<>();
                    for (int i = 1; i <= md.getColumnCount(); i++) {
                        row.add(rs.getString(i));
                    }
                    out.add(String.join("|", row));
                }
            } catch (SQLException e) {
                out.add("ERR " + e.getErrorCode() + " " + e.getSQLState());
            }
        }
        return out;
    }
}
