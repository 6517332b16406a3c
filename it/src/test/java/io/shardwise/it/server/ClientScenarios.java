package io.shardwise.it.server;

import io.shardwise.it.jdbc.Outcomes;
import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JDBC scenarios that any driver runs the same way, each returning what it saw as comparable text
 * (rows with classes, metadata, update counts, generated keys, SQLSTATE and vendor codes). Run once
 * straight against the unsharded database and once through the Shardwise server with the same
 * driver and options, the two lists must be equal. Every scenario leaves the data as it found it.
 */
final class ClientScenarios {
    interface Scenario {
        List<String> run(Connection c) throws SQLException;
    }

    private static final String ORDER = "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES ";

    private ClientScenarios() {}

    static List<String> query(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return describe(rs);
        }
    }

    static List<String> prepared(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return describe(rs);
            }
        }
    }

    /**
     * Metadata and rows. Known gap (as in ConnectorJCompatibilityIT): TEXT and TINYTEXT columns' type name
     * and precision differ (the engine reports them from the merged column); their values agree.
     */
    private static List<String> describe(ResultSet rs) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String column : Outcomes.metadata(rs.getMetaData())) {
            if (!column.startsWith("label=t_text ") && !column.startsWith("label=t_tinytext ")) {
                out.add(column);
            }
        }
        out.addAll(Outcomes.rows(rs));
        return out;
    }

    /** Point and scatter selects, text and prepared, a prepared statement run twice with other values. */
    static List<String> selects(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        out.addAll(query(c, "SELECT * FROM orders WHERE user_id = 42 ORDER BY order_id"));
        out.addAll(query(c, "SELECT status, COUNT(*), SUM(amount), MIN(created_at), MAX(order_id) FROM orders GROUP BY status ORDER BY status"));
        out.addAll(query(c, "SELECT order_id, user_id, amount FROM orders ORDER BY order_id LIMIT 40"));
        out.addAll(prepared(c, "SELECT * FROM orders WHERE user_id = ? ORDER BY order_id", 42L));
        out.addAll(prepared(c, "SELECT order_id, amount FROM orders WHERE amount > ? ORDER BY order_id LIMIT 30", new BigDecimal("400")));
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id, status FROM orders WHERE user_id IN (?, ?) ORDER BY order_id")) {
            for (long[] users : new long[][] {{7, 8}, {9, 10}}) {
                ps.setLong(1, users[0]);
                ps.setLong(2, users[1]);
                try (ResultSet rs = ps.executeQuery()) {
                    out.addAll(describe(rs));
                }
            }
        }
        return out;
    }

    /** Every column type of the sample tables and of {@code types}, text and prepared. */
    static List<String> columnTypes(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        out.addAll(query(c, "SELECT * FROM types ORDER BY id"));
        out.addAll(prepared(c, "SELECT * FROM types WHERE id > ? ORDER BY id", 0));
        for (String table : new String[] {"users ORDER BY user_id", "orders ORDER BY order_id", "order_items ORDER BY item_id",
                "events ORDER BY id", "countries ORDER BY code", "sbtest1 ORDER BY id", "small ORDER BY id"}) {
            out.addAll(query(c, "SELECT * FROM " + table + " LIMIT 60"));
            out.addAll(prepared(c, "SELECT * FROM " + table + " LIMIT ?", 25));
        }
        return out;
    }

    /** INSERT, UPDATE and DELETE as statements and prepared statements: counts, rows, AUTO_INCREMENT keys. */
    static List<String> writes(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            out.add("insert " + st.executeUpdate(ORDER + "(9960001, 960001, 'new', 1.50, '2025-01-01 00:00:00'),"
                    + " (9960002, 960002, 'new', 2.50, '2025-01-02 00:00:00')"));
            out.add("update " + st.executeUpdate("UPDATE orders SET status = 'paid' WHERE user_id IN (960001, 960002)"));
            out.add("same " + st.executeUpdate("UPDATE orders SET status = 'paid' WHERE user_id = 960001"));
        }
        try (PreparedStatement ps = c.prepareStatement(ORDER + "(?, ?, ?, ?, ?)")) {
            ps.setLong(1, 9960003);
            ps.setLong(2, 960003);
            ps.setString(3, "new");
            ps.setBigDecimal(4, new BigDecimal("3.75"));
            ps.setObject(5, java.time.LocalDateTime.of(2025, 3, 4, 5, 6, 7));
            out.add("prepared insert " + ps.executeUpdate());
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET amount = amount + ? WHERE user_id BETWEEN ? AND ?")) {
            ps.setInt(1, 1);
            ps.setLong(2, 960001);
            ps.setLong(3, 960003);
            out.add("prepared update " + ps.executeUpdate());
        }
        out.addAll(query(c, "SELECT * FROM orders WHERE user_id BETWEEN 960001 AND 960003 ORDER BY order_id"));
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM orders WHERE user_id BETWEEN ? AND ?")) {
            ps.setLong(1, 960001);
            ps.setLong(2, 960003);
            out.add("prepared delete " + ps.executeUpdate());
        }
        try (Statement st = c.createStatement()) {
            st.executeUpdate("DELETE FROM autoinc");
            st.executeUpdate("ALTER TABLE autoinc AUTO_INCREMENT = 500");
            out.add("keyed " + st.executeUpdate("INSERT INTO autoinc (v) VALUES ('a'), ('b')", Statement.RETURN_GENERATED_KEYS));
            try (ResultSet keys = st.getGeneratedKeys()) {
                out.addAll(Outcomes.rows(keys));
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO autoinc (v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            ps.setString(1, "c");
            out.add("keyed prepared " + ps.executeUpdate());
            try (ResultSet keys = ps.getGeneratedKeys()) {
                out.addAll(Outcomes.rows(keys));
            }
        }
        out.addAll(query(c, "SELECT * FROM autoinc ORDER BY id"));
        return out;
    }

    /**
     * Statement and PreparedStatement batches, with a failing entry; with rewriteBatchedStatements the
     * INSERT batches become one multi-row INSERT and the UPDATE/DELETE batches one multi-statement query.
     */
    static List<String> batches(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            st.addBatch(ORDER + "(9970001, 970001, 'new', 1.50, '2025-01-01 00:00:00')");
            st.addBatch(ORDER + "(9970002, 970002, 'new', 2.50, '2025-01-01 00:00:00')");
            st.addBatch("UPDATE orders SET status = 'paid' WHERE user_id IN (970001, 970002)");
            out.add("statement batch " + Arrays.toString(st.executeBatch()));
            st.addBatch("UPDATE orders SET status = 'shipped' WHERE user_id = 970001");
            st.addBatch(ORDER + "(9970001, 970001, 'dup', 1, '2025-01-01 00:00:00')");
            st.addBatch("UPDATE orders SET status = 'late' WHERE user_id = 970002");
            out.add("failing statement batch " + failure(st::executeBatch));
        }
        try (PreparedStatement ps = c.prepareStatement(ORDER + "(?, ?, 'new', ?, '2025-01-01 00:00:00')")) {
            for (long id : new long[] {9970003, 9970004}) {
                ps.setLong(1, id);
                ps.setLong(2, id - 9000000);
                ps.setBigDecimal(3, new BigDecimal("3.25"));
                ps.addBatch();
            }
            out.add("prepared insert batch " + Arrays.toString(ps.executeBatch()));
            for (long id : new long[] {9970005, 9970003, 9970006}) { // 9970003 is a duplicate key
                ps.setLong(1, id);
                ps.setLong(2, id - 9000000);
                ps.setBigDecimal(3, new BigDecimal("4.25"));
                ps.addBatch();
            }
            out.add("failing prepared insert batch " + failure(ps::executeBatch));
        }
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET amount = amount * ? WHERE user_id = ?")) {
            for (long user : new long[] {970001, 970003, 970004, 979999}) {
                ps.setInt(1, 2);
                ps.setLong(2, user);
                ps.addBatch();
            }
            out.add("prepared update batch " + Arrays.toString(ps.executeBatch()));
        }
        out.addAll(query(c, "SELECT * FROM orders WHERE user_id BETWEEN 970000 AND 979999 ORDER BY order_id"));
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM orders WHERE user_id = ?")) {
            for (long user = 970001; user <= 970006; user++) {
                ps.setLong(1, user);
                ps.addBatch();
            }
            out.add("prepared delete batch " + Arrays.toString(ps.executeBatch()));
        }
        out.addAll(query(c, "SELECT COUNT(*) FROM orders WHERE user_id BETWEEN 970000 AND 979999"));
        return out;
    }

    private interface Batch {
        int[] run() throws SQLException;
    }

    private static String failure(Batch batch) {
        try {
            return "succeeded " + Arrays.toString(batch.run());
        } catch (BatchUpdateException e) {
            return Arrays.toString(e.getUpdateCounts()) + " " + e.getSQLState() + " " + e.getErrorCode();
        } catch (SQLException e) {
            return "ERR " + e.getSQLState() + " " + e.getErrorCode() + " " + e.getClass().getSimpleName();
        }
    }

    /** Rollback undoes writes on several shards, commit keeps them; autocommit comes back on. */
    static List<String> transactions(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.executeUpdate(ORDER + "(9980001, 980001, 'new', 1, '2025-01-01')");
            st.executeUpdate(ORDER + "(9980002, 980002, 'new', 1, '2025-01-01')");
            c.rollback();
            out.addAll(query(c, "SELECT COUNT(*) FROM orders WHERE user_id IN (980001, 980002)"));
            try (PreparedStatement ps = c.prepareStatement(ORDER + "(?, ?, 'new', 1, '2025-01-01')")) {
                ps.setLong(1, 9980003);
                ps.setLong(2, 980003);
                out.add("in transaction " + ps.executeUpdate());
            }
            c.commit();
            st.executeUpdate("DELETE FROM orders WHERE user_id = 980003");
            out.addAll(query(c, "SELECT COUNT(*) FROM orders WHERE user_id BETWEEN 980001 AND 980003"));
            c.rollback();
            out.addAll(query(c, "SELECT order_id FROM orders WHERE user_id BETWEEN 980001 AND 980003"));
            out.add("deleted " + st.executeUpdate("DELETE FROM orders WHERE user_id BETWEEN 980001 AND 980003"));
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
        out.addAll(query(c, "SELECT @@autocommit"));
        return out;
    }

    /** The same vendor code, SQLSTATE and exception class for syntax errors, unknown tables and columns, duplicate keys. */
    static List<String> errors(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            out.add(Outcomes.of(() -> st.executeQuery("SELEC 1")));
            out.add(Outcomes.of(() -> st.executeQuery("SELECT * FROM no_such_table")));
            out.add(Outcomes.of(() -> st.executeQuery("SELECT no_such_column FROM orders WHERE user_id = 1")));
            out.add(Outcomes.of(() -> st.executeUpdate(ORDER + "(9990001, 990001, 'x', 1, '2025-01-01'), (9990001, 990001, 'x', 1, '2025-01-01')")));
        }
        out.add(Outcomes.of(() -> c.prepareStatement("SELECT * FROM no_such_table WHERE id = ?").executeQuery()));
        return out;
    }

    /**
     * Several statements in one {@code execute}: each result set or update count in order, and an error
     * that stops the rest. Without allowMultiQueries both sides refuse it with the same syntax error.
     */
    static List<String> multiStatements(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        out.addAll(results(c, "SELECT COUNT(*) FROM orders; SELECT order_id FROM orders WHERE user_id = 42 ORDER BY order_id;"
                + " UPDATE orders SET status = status WHERE user_id = 42"));
        out.addAll(results(c, ORDER + "(9990101, 990101, 'new', 1, '2025-01-01'); UPDATE orders SET status = 'paid' WHERE user_id = 990101;"
                + " SELECT order_id, status FROM orders WHERE user_id = 990101; DELETE FROM orders WHERE user_id = 990101"));
        out.addAll(results(c, "SELECT 'a;b' AS `c;d`; SELECT * FROM no_such_table; SELECT 3"));
        out.addAll(results(c, "SELECT 1;"));
        out.addAll(query(c, "SELECT COUNT(*) FROM orders WHERE user_id = 990101"));
        return out;
    }

    static List<String> results(Connection c, String sql) {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement()) {
            boolean isResultSet = st.execute(sql);
            while (true) {
                if (isResultSet) {
                    try (ResultSet rs = st.getResultSet()) {
                        out.addAll(describe(rs));
                    }
                } else {
                    int count = st.getUpdateCount();
                    if (count == -1) {
                        break;
                    }
                    out.add("count " + count);
                }
                isResultSet = st.getMoreResults();
            }
        } catch (SQLException e) {
            out.add("ERR " + e.getSQLState() + " " + e.getErrorCode() + " " + e.getClass().getSimpleName());
        }
        return out;
    }
}
