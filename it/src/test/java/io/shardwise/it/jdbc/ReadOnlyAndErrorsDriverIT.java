package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 items 5 and 6 on the JDBC driver face: an empty column label and a refused SET no longer
 * break the connection, errors carry MySQL's codes, and {@code Connection.setReadOnly(true)} and
 * the read-only statements refuse writes as Connector/J against one MySQL does: its own S1009 after
 * {@code setReadOnly(true)}, the server's 1792 (25006) after the SQL statements.
 */
class ReadOnlyAndErrorsDriverIT {
    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

    private static void fails(Statement s, String sql, int errno, String sqlState) throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> s.execute(sql), sql);
        assertEquals(errno, e.getErrorCode(), sql + ": " + e.getMessage());
        assertEquals(sqlState, e.getSQLState(), sql);
        assertFalse(e.getMessage().contains("Exception"), e.getMessage());
        assertEquals("next", single(s, "SELECT 'next'"), "after " + sql);
    }

    @Test
    void emptyLabelsAndRefusedStatementsLeaveTheConnectionUsable() throws SQLException {
        Fixture f = Fixture.get();
        try (Connection c = f.shardwise(); Statement s = c.createStatement()) {
            for (int run = 0; run < 2; run++) {
                assertEquals("", single(s, "SELECT ''"));
                try (PreparedStatement p = c.prepareStatement("SELECT ?")) {
                    p.setString(1, "");
                    try (ResultSet rs = p.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals("", rs.getString(1));
                    }
                }
                fails(s, "SELEC 1", 1064, "42000");
                fails(s, "SELECT * FROM no_such_table", 1146, "42S02");
                fails(s, "SELECT no_such_column FROM countries", 1054, "42S22");
                fails(s, "SET @@session.no_such_variable = 1", 1193, "HY000");
                c.setAutoCommit(false);
                fails(s, "SELECT ''' FROM countries", 1064, "42000");
                assertEquals("", single(s, "SELECT '' FROM countries LIMIT 1"));
                c.rollback();
                c.setAutoCommit(true);
            }
        }
    }

    @Test
    void readOnlyConnectionsAndTransactionsRefuseWrites() throws SQLException {
        Fixture f = Fixture.get();
        try (Connection c = f.shardwise(); Statement s = c.createStatement()) {
            c.setReadOnly(true);
            assertTrue(c.isReadOnly());
            assertEquals("1", single(s, "SELECT @@transaction_read_only"));
            // Connector/J refuses these itself on a connection the application made read-only: errno 0, S1009
            fails(s, "DELETE FROM countries WHERE code = 'zz'", 0, "S1009");
            fails(s, "UPDATE orders SET status = status", 0, "S1009");
            fails(s, "CREATE TABLE ro_never (a INT)", 0, "S1009");
            c.setAutoCommit(false);
            fails(s, "INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')", 0, "S1009");
            c.rollback();
            c.setAutoCommit(true);
            c.setReadOnly(false);
            assertFalse(c.isReadOnly());
            assertEquals("0", single(s, "SELECT @@transaction_read_only"));
            s.executeUpdate("DELETE FROM countries WHERE code = 'zz'");

            s.execute("START TRANSACTION READ ONLY");
            fails(s, "INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')", 1792, "25006");
            s.execute("COMMIT");
            s.execute("SET TRANSACTION READ ONLY");
            fails(s, "DELETE FROM countries WHERE code = 'zz'", 1792, "25006");
            s.executeUpdate("DELETE FROM countries WHERE code = 'zz'");
            s.execute("SET tx_read_only = 1");
            fails(s, "REPLACE INTO countries (code, name) VALUES ('zz', 'Zedland')", 1792, "25006");
            s.execute("SET transaction_read_only = 0");
            s.executeUpdate("DELETE FROM countries WHERE code = 'zz'");
        }
    }

    /** SET TRANSACTION ISOLATION LEVEL without SESSION: the next transaction only, reported as MariaDB reports it. */
    @Test
    void aNextTransactionIsolationBehavesAsOnOneMariaDb() throws SQLException {
        Fixture f = Fixture.get();
        java.util.List<String> direct;
        try (Connection a = f.direct(); Connection b = f.direct()) {
            direct = NextTransactionIsolation.observe(a, b);
        }
        assertTrue(direct.contains("its read locks the row: true"), direct.toString());
        try (Connection a = f.shardwise(); Connection b = f.shardwise()) {
            assertEquals(direct, NextTransactionIsolation.observe(a, b));
        }
    }
}
