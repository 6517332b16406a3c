package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mysql.cj.NativeSession;
import com.mysql.cj.jdbc.JdbcConnection;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Warnings and errors through the server compared with the unsharded copy: the count in the OK
 * and EOF packets, Connector/J's {@code getWarnings()} chain, SHOW WARNINGS / ERRORS / COUNT(*)
 * and {@code @@warning_count}. Conditions of a scatter statement are compared as a multiset (each
 * shard reports its own rows' conditions, in unit order rather than the single table's scan order).
 */
class WarningsServerTest {
    /** Rows on every shard of orders (orders is sharded by user_id, so order_id picks no shard). */
    private static final String SOME_ORDERS = "order_id BETWEEN 100001 AND 100012";
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("warn");

    /** One side of the comparison: what a client sees after each step. */
    private record Seen(int packetCount, List<String> chain, List<String> show, String counts) {}

    @Test
    void scatterUpdateReportsEveryShardsWarnings() throws Exception {
        String update = "UPDATE orders SET status = status WHERE " + SOME_ORDERS
                + " AND CAST(CONCAT(order_id, 'x') AS SIGNED) > 0";
        Seen through = run(sample.connect("app", ""), update, false);
        Seen direct = run(sample.direct(), update, false);
        assertEquals(12, direct.packetCount());
        assertSameConditions(direct, through);
    }

    @Test
    void crossShardSelectReportsItsWarningsAfterTheRows() throws Exception {
        String select = "SELECT order_id, CAST(CONCAT(order_id, 'y') AS SIGNED) FROM orders WHERE " + SOME_ORDERS
                + " ORDER BY order_id";
        Seen through = run(sample.connect("app", ""), select, true);
        Seen direct = run(sample.direct(), select, true);
        assertEquals(12, direct.packetCount());
        assertSameConditions(direct, through);
    }

    @Test
    void singleBackendSelectListsWarningsInOrderAndHonoursLimit() throws Exception {
        String select = "SELECT CAST('1a' AS SIGNED), CAST('2b' AS SIGNED)";
        for (String show : List.of("SHOW WARNINGS", "SHOW WARNINGS LIMIT 1", "SHOW WARNINGS LIMIT 1, 1",
                "SHOW COUNT(*) WARNINGS", "SHOW ERRORS", "SHOW COUNT(*) ERRORS")) {
            List<List<String>> seen = new ArrayList<>();
            for (Connection c : List.of(sample.direct(), sample.connect("app", ""))) {
                try (c; Statement s = c.createStatement()) {
                    try (ResultSet rs = s.executeQuery(select)) {
                        rs.next();
                    }
                    seen.add(rows(s, show));
                }
            }
            assertEquals(seen.get(0), seen.get(1), show);
        }
    }

    @Test
    void nextStatementClearsButDiagnosticStatementsDoNot() throws Exception {
        List<List<String>> seen = new ArrayList<>();
        for (Connection c : List.of(sample.direct(), sample.connect("app", ""))) {
            try (c; Statement s = c.createStatement()) {
                List<String> steps = new ArrayList<>();
                s.executeQuery("SELECT CAST('1a' AS SIGNED)").close();
                steps.addAll(rows(s, "SHOW WARNINGS"));
                steps.addAll(rows(s, "SELECT @@warning_count, @@error_count"));
                steps.addAll(rows(s, "SHOW COUNT(*) WARNINGS"));
                steps.addAll(rows(s, "SHOW WARNINGS"));
                steps.add("--");
                steps.addAll(rows(s, "SELECT COUNT(*) FROM orders"));
                steps.addAll(rows(s, "SHOW WARNINGS"));
                steps.addAll(rows(s, "SELECT @@warning_count"));
                seen.add(steps);
            }
        }
        assertEquals(seen.get(0), seen.get(1));
    }

    @Test
    void backendErrorIsListedBySHOW_ERRORS() throws Exception {
        List<List<String>> seen = new ArrayList<>();
        for (Connection c : List.of(sample.direct(), sample.connect("app", ""))) {
            try (c; Statement s = c.createStatement()) {
                SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table"));
                List<String> steps = new ArrayList<>(List.of(e.getErrorCode() + " " + e.getSQLState()));
                for (String row : rows(s, "SHOW ERRORS")) {
                    steps.add(row.substring(0, row.lastIndexOf('|'))); // the message names the database, physical or logical
                }
                steps.addAll(rows(s, "SELECT @@error_count, @@warning_count"));
                steps.addAll(rows(s, "SHOW COUNT(*) ERRORS"));
                seen.add(steps);
            }
        }
        assertEquals(seen.get(0), seen.get(1));
        assertEquals(List.of("1146 42S02", "Error|1146", "1|1", "1"), seen.get(1));
    }

    @Test
    void shardwisesOwnErrorIsListedAsMySqlListsErrors() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute("UPDATE IGNORE orders SET user_id = 5 WHERE order_id = 1"));
            assertEquals(1235, e.getErrorCode());
            assertEquals(List.of("Error|1235|" + e.getMessage()), rows(s, "SHOW WARNINGS"));
            assertEquals(List.of("Error|1235|" + e.getMessage()), rows(s, "SHOW ERRORS"));
            assertEquals(List.of("1|1"), rows(s, "SELECT @@warning_count, @@error_count"));
            s.executeQuery("SELECT 1").close();
            assertEquals(List.of(), rows(s, "SHOW ERRORS"));
        }
    }

    @Test
    void warningsNameLogicalTables() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS no_such_table_w");
            List<String> notes = rows(s, "SHOW WARNINGS");
            assertEquals(List.of("Note|1051|Unknown table 'shop.no_such_table_w'"), notes);
        }
    }

    private static Seen run(Connection c, String sql, boolean rows) throws SQLException {
        try (c; Statement s = c.createStatement()) {
            s.execute("SET sql_mode = ''"); // strict mode turns an UPDATE's truncation warnings into an error
            if (rows) {
                try (ResultSet rs = s.executeQuery(sql)) {
                    while (rs.next()) {
                        rs.getLong(1);
                    }
                }
            } else {
                s.executeUpdate(sql);
            }
            int packet = ((NativeSession) c.unwrap(JdbcConnection.class).getSession()).getProtocol().getWarningCount();
            List<String> chain = new ArrayList<>();
            for (SQLWarning w = s.getWarnings(); w != null; w = w.getNextWarning()) {
                chain.add(w.getErrorCode() + "|" + w.getSQLState() + "|" + w.getMessage());
            }
            List<String> show = rows(s, "SHOW WARNINGS");
            String counts = String.join(",", rows(s, "SELECT @@warning_count, @@error_count"));
            return new Seen(packet, chain, show, counts);
        }
    }

    private static void assertSameConditions(Seen direct, Seen through) {
        assertEquals(direct.packetCount(), through.packetCount(), "warning count in the OK/EOF packet");
        assertEquals(sorted(direct.chain()), sorted(through.chain()), "getWarnings()");
        assertEquals(sorted(direct.show()), sorted(through.show()), "SHOW WARNINGS");
        assertEquals(direct.counts(), through.counts(), "@@warning_count, @@error_count");
        assertTrue(!direct.show().isEmpty());
    }

    private static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        s.sort(null);
        return s;
    }

    private static List<String> rows(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }
}
