package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JDBC driver face reads an application's statements in the session's sql_mode, as one MySQL
 * does: after {@code SET sql_mode} with NO_BACKSLASH_ESCAPES a backslash in a literal is an ordinary
 * character ({@code 'x\'} is a whole string), with ANSI_QUOTES {@code "orders"} names a table (routed
 * and rewritten like any name). Each scenario runs through the driver and on the unsharded copy with
 * Connector/J, and the rows must match.
 */
class EscapingModesIT {
    private static final String INJECTION = "é' OR 1=1 -- \\";

    @Test
    void noBackslashEscapesMakesABackslashAnOrdinaryCharacterForLiteralsAndBoundValues() throws SQLException {
        Fixture f = Fixture.get();
        try (Connection shardwise = f.shardwise(); Connection direct = f.direct()) {
            List<String> expected = noBackslashScenario(direct, false);
            assertTrue(expected.contains("1|615C62|785C"), expected::toString);
            assertTrue(expected.contains("2|C3A927204F5220313D31202D2D205C|C3A927204F5220313D31202D2D205C"), expected::toString);
            assertEquals(expected, noBackslashScenario(shardwise, true));
        }
    }

    /**
     * @param bind whether to bind the value with setString: Connector/J itself escapes a bound string by
     *             the sql_mode it read at connect, so straight to a server (the oracle) it gets this wrong
     *             after SET sql_mode and the oracle writes the same value as a literal instead
     */
    private static List<String> noBackslashScenario(Connection c, boolean bind) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS safety_jdbc");
            s.execute("CREATE TABLE safety_jdbc (id INT PRIMARY KEY, a VARCHAR(64), b VARBINARY(64)) DEFAULT CHARSET utf8mb4");
            s.execute("SET sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
            // by default 'x\' would not end: here it is the two characters x and backslash
            s.executeUpdate("INSERT INTO safety_jdbc (id, a, b) VALUES (1, 'a\\b', 'x\\')");
            if (bind) {
                try (PreparedStatement p = c.prepareStatement("INSERT INTO safety_jdbc (id, a, b) VALUES (?, ?, ?)")) {
                    p.setInt(1, 2);
                    p.setString(2, INJECTION);
                    p.setBytes(3, INJECTION.getBytes(StandardCharsets.UTF_8));
                    p.executeUpdate();
                }
            } else {
                s.executeUpdate("INSERT INTO safety_jdbc (id, a, b) VALUES (2, 'é'' OR 1=1 -- \\', 'é'' OR 1=1 -- \\')");
            }
            rows(s, "SELECT id, HEX(a), HEX(b) FROM safety_jdbc WHERE a = 'a\\b' OR a = 'é'' OR 1=1 -- \\' ORDER BY id", out);
            try (PreparedStatement p = c.prepareStatement("SELECT id, HEX(a), HEX(b) FROM safety_jdbc WHERE a = ? OR id = ?")) {
                p.setString(1, bind ? INJECTION : "none");
                p.setInt(2, bind ? 0 : 2);
                try (ResultSet rs = p.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getString(1) + "|" + rs.getString(2) + "|" + rs.getString(3));
                    }
                }
            }
            s.execute("SET sql_mode = DEFAULT");
            rows(s, "SELECT id, 'x\\'' FROM safety_jdbc WHERE id = 1", out); // escapes on again: \' is a quote
            s.execute("DROP TABLE safety_jdbc");
        }
        return out;
    }

    @Test
    void ansiQuotesMakeDoubleQuotedNamesIdentifiersOnShardedTables() throws SQLException {
        Fixture f = Fixture.get();
        try (Connection shardwise = f.shardwise(); Connection direct = f.direct()) {
            List<String> expected = ansiScenario(direct);
            assertTrue(expected.size() > 2, expected::toString);
            assertEquals(expected, ansiScenario(shardwise));
        }
    }

    private static List<String> ansiScenario(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            s.execute("SET sql_mode = 'ANSI_QUOTES'");
            rows(s, "SELECT \"order_id\", \"status\" FROM \"orders\" WHERE \"user_id\" = 7 ORDER BY \"order_id\"", out);
            rows(s, "SELECT COUNT(*), 'text' FROM orders o WHERE o.\"user_id\" IN (1, 2, 3)", out);
            s.execute("SET sql_mode = DEFAULT");
            rows(s, "SELECT \"order_id\" FROM orders WHERE user_id = 7 LIMIT 1", out); // a string again
        }
        return out;
    }

    private static void rows(Statement s, String sql, List<String> out) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder line = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    line.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(line.toString());
            }
        }
    }
}
