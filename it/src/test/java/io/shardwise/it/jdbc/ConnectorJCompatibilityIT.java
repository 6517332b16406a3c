package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same JDBC scenarios through plain Connector/J on the unsharded database and through the
 * Shardwise driver on the sharded layout; each test says what must agree.
 */
class ConnectorJCompatibilityIT {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    interface Scenario<T> {
        T run(Connection c) throws SQLException;
    }

    private static <T> void same(Scenario<T> scenario) throws SQLException {
        T expected;
        try (Connection c = f.direct()) {
            expected = scenario.run(c);
        }
        T actual;
        try (Connection c = f.shardwise()) {
            actual = scenario.run(c);
        }
        assertEquals(expected, actual);
    }

    private static Scenario<List<String>> query(String sql) {
        return c -> {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                List<String> out = new ArrayList<>(Outcomes.metadata(rs.getMetaData()));
                out.addAll(Outcomes.rows(rs));
                return out;
            }
        };
    }

    /** getObject values and classes, and ResultSetMetaData, of every column of each sample table (scatter, ordered). */
    @Test
    void everyColumnOfTheSampleTablesReadsAsThroughConnectorJ() throws SQLException {
        same(query("SELECT * FROM orders ORDER BY order_id LIMIT 300"));
        same(query("SELECT * FROM order_items ORDER BY item_id LIMIT 300"));
        same(query("SELECT * FROM users ORDER BY user_id LIMIT 300"));
        same(query("SELECT * FROM events ORDER BY id LIMIT 300"));
        same(query("SELECT * FROM sbtest1 ORDER BY id LIMIT 100"));
        same(query("SELECT * FROM small ORDER BY id"));
    }

    /** Metadata and values of a point query and of merged scatter aggregates (labels, types, precision, scale, nullability). */
    @Test
    void pointAndScatterQueriesDescribeTheirColumnsAlike() throws SQLException {
        same(query("SELECT order_id, user_id AS u, status, amount, created_at FROM orders WHERE user_id = 42 ORDER BY order_id"));
        same(query("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(order_id) FROM orders"
                + " GROUP BY status ORDER BY status"));
        same(query("SELECT COUNT(*) AS n, SUM(quantity) FROM order_items"));
    }

    /** Every MySQL column type (the single table {@code types}): getObject values, classes and metadata. */
    @Test
    void everyMysqlTypeMapsToTheSameJavaClasses() throws SQLException {
        same(queryIgnoringTextMetadata("SELECT * FROM types ORDER BY id"));
    }

    private static final List<Function<ResultSet, Outcomes.Call>> GETTERS = List.of(
            rs -> () -> rs.getString(1), rs -> () -> rs.getBoolean(1), rs -> () -> rs.getByte(1), rs -> () -> rs.getShort(1),
            rs -> () -> rs.getInt(1), rs -> () -> rs.getLong(1), rs -> () -> rs.getFloat(1), rs -> () -> rs.getDouble(1),
            rs -> () -> rs.getBigDecimal(1), rs -> () -> rs.getBytes(1), rs -> () -> rs.getDate(1), rs -> () -> rs.getTime(1),
            rs -> () -> rs.getTimestamp(1), rs -> () -> rs.getObject(1), rs -> () -> rs.getObject(1, LocalDate.class),
            rs -> () -> rs.getObject(1, LocalDateTime.class), rs -> () -> rs.getObject(1, LocalTime.class),
            rs -> () -> rs.getObject(1, BigInteger.class), rs -> () -> rs.getObject(1, Long.class),
            rs -> () -> rs.getObject(1, Integer.class), rs -> () -> rs.getObject(1, Boolean.class),
            rs -> () -> rs.getObject(1, BigDecimal.class), rs -> () -> rs.getObject(1, String.class), rs -> () -> rs.wasNull());

    /** Every getter on every column of every types row: the same value, or the same SQLSTATE and exception class. */
    @Test
    void everyGetterConvertsEveryTypeAsConnectorJDoes() throws SQLException {
        List<String> columns = new ArrayList<>();
        try (Connection c = f.direct(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM types")) {
            for (int i = 2; i <= rs.getMetaData().getColumnCount(); i++) {
                columns.add(rs.getMetaData().getColumnLabel(i));
            }
        }
        List<String> differences = new ArrayList<>();
        for (String column : columns) {
            String sql = "SELECT " + column + " FROM types ORDER BY id";
            List<String> expected = conversions(sql, true);
            List<String> actual = conversions(sql, false);
            for (int i = 0; i < expected.size(); i++) {
                if (!expected.get(i).equals(actual.get(i)) && !knownDivergence(expected.get(i), actual.get(i))) {
                    differences.add(column + ": Connector/J " + expected.get(i) + "\n      Shardwise   " + actual.get(i));
                }
            }
        }
        assertEquals(List.of(), differences, String.join("\n", differences));
    }

    /**
     * Where Shardwise deliberately or knowingly differs: Connector/J lets a raw NumberFormatException
     * escape from numeric getters on non-numeric strings (Shardwise throws SQLDataException 22018), and
     * its getByte on string, binary and BIT columns follows byte rules not yet mirrored (getter 2).
     */
    private static boolean knownDivergence(String expected, String actual) {
        String e = expected.substring(expected.indexOf(": ") + 2);
        String a = actual.substring(actual.indexOf(": ") + 2);
        return (e.startsWith("CRASH java.lang.NumberFormatException") && a.startsWith("ERR 22018"))
                || expected.contains(" getter 2: ");
    }

    /**
     * Known gap: TEXT and TINYTEXT columns' type name and precision (Connector/J 26 reports TEXT/16383 and
     * TINYTEXT/63 on MariaDB 11.4, Shardwise MEDIUMTEXT/65535 and TEXT/255); values and classes agree.
     */
    private static Scenario<List<String>> queryIgnoringTextMetadata(String sql) {
        Scenario<List<String>> q = query(sql);
        return c -> q.run(c).stream().filter(l -> !l.startsWith("label=t_text ") && !l.startsWith("label=t_tinytext ")).toList();
    }

    private static List<String> conversions(String sql, boolean direct) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection c = direct ? f.direct() : f.shardwise(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int row = 0;
            while (rs.next()) {
                row++;
                for (int g = 0; g < GETTERS.size(); g++) {
                    out.add("row " + row + " getter " + g + ": " + Outcomes.of(GETTERS.get(g).apply(rs)));
                }
            }
        }
        return out;
    }

    /** Expressions without a table (routed to the default backend): values and metadata of literals and casts. */
    @Test
    void literalsAndCastsAgree() throws SQLException {
        same(query("SELECT 1, 1.5, 'x', NULL, CAST(1 AS UNSIGNED), CAST('2025-01-02' AS DATE), CAST(2.5 AS DECIMAL(4,2)), 1e2"));
    }

    /** AUTO_INCREMENT keys: getGeneratedKeys values, label and type for single and multi-row inserts. */
    @Test
    void generatedKeysOfAutoIncrementAgree() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                st.executeUpdate("DELETE FROM autoinc");
                st.executeUpdate("ALTER TABLE autoinc AUTO_INCREMENT = 100");
                out.add("count " + st.executeUpdate("INSERT INTO autoinc (v) VALUES ('a')", Statement.RETURN_GENERATED_KEYS));
                try (ResultSet keys = st.getGeneratedKeys()) {
                    out.addAll(Outcomes.metadata(keys.getMetaData()));
                    out.addAll(Outcomes.rows(keys));
                }
                out.add("count " + st.executeUpdate("INSERT INTO autoinc (v) VALUES ('b'), ('c')", Statement.RETURN_GENERATED_KEYS));
                try (ResultSet keys = st.getGeneratedKeys()) {
                    out.addAll(Outcomes.rows(keys));
                }
                st.executeUpdate("INSERT INTO autoinc (v) VALUES ('d')");
                out.add(Outcomes.of(st::getGeneratedKeys));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO autoinc (v) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
                ps.setString(1, "e");
                ps.addBatch();
                ps.setString(1, "f");
                ps.addBatch();
                out.add(java.util.Arrays.toString(ps.executeBatch()));
                try (ResultSet keys = ps.getGeneratedKeys()) {
                    out.addAll(Outcomes.rows(keys));
                }
            }
            return out;
        });
    }

    /** Keys from Shardwise's snowflake generator come back through getGeneratedKeys and find their rows. */
    @Test
    void snowflakeKeysComeBackAsGeneratedKeys() throws SQLException {
        try (Connection c = f.shardwise();
             PreparedStatement ps = c.prepareStatement("INSERT INTO orders (user_id, status, amount, created_at) VALUES (?, 'new', 1.00,"
                     + " '2025-06-01 00:00:00')", Statement.RETURN_GENERATED_KEYS)) {
            List<Long> keys = new ArrayList<>();
            for (long user : new long[] {910001, 910002}) {
                ps.setLong(1, user);
                assertEquals(1, ps.executeUpdate());
                try (ResultSet rs = ps.getGeneratedKeys()) {
                    assertEquals("GENERATED_KEY", rs.getMetaData().getColumnLabel(1));
                    assertTrue(rs.next());
                    assertEquals(BigInteger.class, rs.getObject(1).getClass());
                    keys.add(rs.getLong(1));
                    assertFalse(rs.next());
                }
            }
            try (Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT user_id FROM orders WHERE order_id = " + keys.get(1))) {
                assertTrue(rs.next());
                assertEquals(910002, rs.getLong(1));
            }
            try (Statement st = c.createStatement()) {
                assertEquals(2, st.executeUpdate("DELETE FROM orders WHERE user_id IN (910001, 910002)"));
            }
        }
    }

    /** Statement and PreparedStatement batches: update counts, the rows written, and a failing entry (BatchUpdateException counts, SQLSTATE, errno). */
    @Test
    void batchesAgreeIncludingAFailingEntry() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                st.addBatch("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9900001, 920001, 'new', 1.50, '2025-01-01 00:00:00')");
                st.addBatch("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9900002, 920002, 'new', 2.50, '2025-01-01 00:00:00')");
                st.addBatch("UPDATE orders SET status = 'paid' WHERE user_id IN (920001, 920002)");
                out.add(java.util.Arrays.toString(st.executeBatch()));
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders (order_id, user_id, status, amount, created_at)"
                    + " VALUES (?, ?, 'new', ?, '2025-01-01 00:00:00')")) {
                for (long i : new long[] {9900003, 9900001, 9900004}) { // 9900001 is a duplicate key
                    ps.setLong(1, i);
                    ps.setLong(2, 920000 + (i % 10));
                    ps.setBigDecimal(3, new BigDecimal("3.25"));
                    ps.addBatch();
                }
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ps::executeBatch);
                out.add(java.util.Arrays.toString(e.getUpdateCounts()) + " " + e.getSQLState() + " " + e.getErrorCode());
            }
            out.addAll(query("SELECT * FROM orders WHERE user_id BETWEEN 920000 AND 920009 ORDER BY order_id").run(c));
            try (Statement st = c.createStatement()) {
                out.add("deleted " + st.executeUpdate("DELETE FROM orders WHERE user_id BETWEEN 920000 AND 920009"));
            }
            return out;
        });
    }

    /** Transactions: rollback undoes writes on several shards, a savepoint keeps the work before it, commit keeps it. */
    @Test
    void transactionsRollBackAndCommitAlike() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            c.setAutoCommit(false);
            out.add("autocommit " + c.getAutoCommit());
            try (Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9910001, 930001, 'new', 1, '2025-01-01')");
                st.executeUpdate("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9910002, 930002, 'new', 1, '2025-01-01')");
                c.rollback();
                out.addAll(query("SELECT COUNT(*) FROM orders WHERE user_id IN (930001, 930002)").run(c));
                st.executeUpdate("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9910003, 930003, 'new', 1, '2025-01-01')");
                Savepoint sp = c.setSavepoint("before_second");
                st.executeUpdate("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9910004, 930004, 'new', 1, '2025-01-01')");
                c.rollback(sp);
                c.commit();
                out.addAll(query("SELECT order_id FROM orders WHERE user_id BETWEEN 930001 AND 930004 ORDER BY order_id").run(c));
                out.add("deleted " + st.executeUpdate("DELETE FROM orders WHERE user_id BETWEEN 930001 AND 930004"));
                c.commit();
            }
            c.setAutoCommit(true);
            out.add(Outcomes.of(() -> {
                c.commit();
                return "committed";
            }));
            return out;
        });
    }

    /** Every setter type binds the same values: written through each driver, read back identically. */
    @Test
    void preparedStatementSettersBindEveryType() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO types (id, t_tiny, t_bool, t_utiny, t_small, t_int, t_big, t_ubig,"
                    + " t_float, t_double, t_dec, t_date, t_time, t_dt, t_dt6, t_ts, t_year, t_varchar, t_varbinary, t_blob, t_text)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                out.add(String.valueOf(ps.getParameterMetaData().getParameterCount()));
                ps.setInt(1, 100);
                ps.setByte(2, (byte) -7);
                ps.setBoolean(3, true);
                ps.setShort(4, (short) 250);
                ps.setShort(5, (short) -12345);
                ps.setInt(6, Integer.MIN_VALUE);
                ps.setLong(7, Long.MIN_VALUE);
                ps.setObject(8, new BigInteger("18446744073709551614"));
                ps.setFloat(9, 3.25f);
                ps.setDouble(10, -1.0e-7);
                ps.setBigDecimal(11, new BigDecimal("-1234.5678"));
                ps.setDate(12, java.sql.Date.valueOf("2024-02-29"));
                ps.setTime(13, java.sql.Time.valueOf("08:09:10"));
                ps.setTimestamp(14, java.sql.Timestamp.valueOf("2024-02-29 08:09:10"));
                ps.setObject(15, LocalDateTime.of(2024, 2, 29, 8, 9, 10, 123456000));
                ps.setObject(16, java.sql.Timestamp.valueOf("2030-01-02 03:04:05"));
                ps.setInt(17, 2030);
                ps.setString(18, "quote ' and \\ backslash");
                ps.setBytes(19, new byte[] {0, 1, (byte) 0xfe, 39, 92});
                ps.setObject(20, new byte[] {5, 6});
                ps.setNull(21, java.sql.Types.VARCHAR);
                out.add("count " + ps.executeUpdate());
                ps.setInt(1, 101);
                ps.setObject(2, (byte) 3);
                ps.setObject(3, false);
                ps.setObject(4, 7);
                ps.setObject(5, (short) 8);
                ps.setObject(6, 9L);
                ps.setObject(7, new BigDecimal("10"));
                ps.setObject(8, 11, java.sql.Types.BIGINT);
                ps.setObject(9, 1.5f);
                ps.setObject(10, 2.5d);
                ps.setObject(11, "3.75", java.sql.Types.DECIMAL);
                ps.setObject(12, LocalDate.of(2001, 2, 3));
                ps.setObject(13, LocalTime.of(4, 5, 6));
                ps.setObject(14, LocalDateTime.of(2001, 2, 3, 4, 5, 6));
                ps.setObject(15, java.sql.Timestamp.valueOf("2001-02-03 04:05:06.5"));
                ps.setNull(16, java.sql.Types.TIMESTAMP);
                ps.setObject(17, (short) 2001);
                ps.setObject(18, "naïve");
                ps.setBinaryStream(19, new java.io.ByteArrayInputStream(new byte[] {9, 8, 7}));
                ps.setNull(20, java.sql.Types.BLOB);
                ps.setCharacterStream(21, new java.io.StringReader("from a reader"));
                out.add("count " + ps.executeUpdate());
            }
            out.addAll(queryIgnoringTextMetadata("SELECT * FROM types WHERE id >= 100 ORDER BY id").run(c));
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM types WHERE t_big = ? OR t_dec = ? OR t_date = ? ORDER BY id")) {
                ps.setLong(1, Long.MIN_VALUE);
                ps.setBigDecimal(2, new BigDecimal("3.75"));
                ps.setObject(3, LocalDate.of(2024, 2, 29));
                try (ResultSet rs = ps.executeQuery()) {
                    out.addAll(Outcomes.rows(rs));
                }
                ps.clearParameters();
                out.add(Outcomes.of(ps::executeQuery));
            }
            try (Statement st = c.createStatement()) {
                out.add("deleted " + st.executeUpdate("DELETE FROM types WHERE id >= 100"));
            }
            return out;
        });
    }

    /** Errors: the same vendor code, SQLSTATE and exception class for syntax, unknown table/column, duplicate key and misuse. */
    @Test
    void errorsCarryTheSameCodesAndClasses() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                out.add(Outcomes.of(() -> st.executeQuery("SELEC 1")));
                out.add(Outcomes.of(() -> st.executeQuery("SELECT * FROM no_such_table")));
                out.add(Outcomes.of(() -> st.executeQuery("SELECT no_such_column FROM orders WHERE user_id = 1")));
                out.add(Outcomes.of(() -> st.executeUpdate("INSERT INTO orders (order_id, user_id, status, amount, created_at)"
                        + " VALUES (9930001, 940001, 'x', 1, '2025-01-01'), (9930001, 940001, 'x', 1, '2025-01-01')")));
                out.add(Outcomes.of(() -> st.executeQuery("DELETE FROM orders WHERE user_id = -1")));
                out.add(Outcomes.of(() -> st.executeUpdate("SELECT 1")));
                out.add(Outcomes.of(() -> st.getGeneratedKeys()));
                out.add(Outcomes.of(() -> {
                    c.rollback();
                    return "rolled back";
                }));
            }
            return out;
        });
    }

    /** useAffectedRows: matched rows by default, changed rows when asked, as Connector/J reports them. */
    @Test
    void updateCountsFollowUseAffectedRows() throws SQLException {
        String sql = "UPDATE orders SET status = status WHERE user_id = 42";
        int matched;
        int changed;
        try (Connection c = f.direct(); Statement st = c.createStatement()) {
            matched = st.executeUpdate(sql);
        }
        try (Connection c = f.direct("useAffectedRows=true"); Statement st = c.createStatement()) {
            changed = st.executeUpdate(sql);
        }
        try (Connection c = f.shardwise(); Statement st = c.createStatement()) {
            assertEquals(matched, st.executeUpdate(sql));
        }
        try (Connection c = java.sql.DriverManager.getConnection(f.url + "?useAffectedRows=true"); Statement st = c.createStatement()) {
            assertEquals(changed, st.executeUpdate(sql));
        }
        assertTrue(matched > 0);
        assertEquals(0, changed);
    }

    /** Statement result plumbing: execute/getResultSet/getUpdateCount/getMoreResults and setMaxRows agree. */
    @Test
    void statementResultPlumbingAgrees() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (Statement st = c.createStatement()) {
                out.add("execute " + st.execute("SELECT order_id FROM orders WHERE user_id = 42 ORDER BY order_id"));
                out.add("update count " + st.getUpdateCount());
                out.add("rows " + Outcomes.rows(st.getResultSet()).size());
                out.add("more " + st.getMoreResults() + " " + st.getUpdateCount() + " " + (st.getResultSet() == null));
                out.add("execute " + st.execute("UPDATE orders SET status = status WHERE user_id = 42"));
                out.add("update count " + st.getUpdateCount() + " " + (st.getResultSet() == null));
                out.add("more " + st.getMoreResults() + " " + st.getUpdateCount());
                st.setMaxRows(3);
                try (ResultSet rs = st.executeQuery("SELECT order_id FROM orders ORDER BY order_id")) {
                    out.addAll(Outcomes.rows(rs));
                }
                out.add("large " + st.executeLargeUpdate("UPDATE orders SET status = status WHERE user_id = 42"));
            }
            return out;
        });
    }

    /** Connection settings read back as through Connector/J (catalog aside: the logical name is the point). */
    @Test
    void connectionSettingsReadBackAlike() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            out.add("isolation " + c.getTransactionIsolation());
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            out.add("isolation " + c.getTransactionIsolation());
            c.setReadOnly(true);
            out.add("readOnly " + c.isReadOnly());
            out.add(Outcomes.of(() -> c.createStatement().executeUpdate("UPDATE orders SET status = status WHERE user_id = 42")));
            c.setReadOnly(false);
            out.add("valid " + c.isValid(2));
            out.add("schema " + c.getSchema());
            out.add("holdability " + c.getHoldability());
            return out;
        });
    }

    /**
     * Issue 14 item 4, the driver face: a CallableStatement on a procedure with several result sets,
     * an OUT and an INOUT parameter, run twice (the second time with other values), reads as through
     * Connector/J's own CallableStatement: every result set, the final update count, the OUT values.
     */
    @Test
    void aCallableStatementWalksResultsAndReadsOutParametersAsConnectorJs() throws SQLException {
        same(c -> {
            try (Statement s = c.createStatement()) {
                s.execute("DROP PROCEDURE IF EXISTS cs_report");
                s.execute("DROP TABLE IF EXISTS cs_notes");
                s.execute("CREATE TABLE cs_notes (id INT PRIMARY KEY, body VARCHAR(16))");
                s.execute("INSERT INTO cs_notes VALUES (1, 'one'), (2, 'two;2'), (3, 'three')");
                s.execute("CREATE PROCEDURE cs_report(IN upto INT, OUT total INT, INOUT label VARCHAR(20))\n"
                        + "BEGIN\n  SELECT id, body FROM cs_notes WHERE id <= upto ORDER BY id;\n"
                        + "  IF upto > 1 THEN SELECT COUNT(*) AS n, 'END;' AS e FROM cs_notes; END IF;\n"
                        + "  SELECT SUM(id) INTO total FROM cs_notes WHERE id <= upto;\n"
                        + "  SET label = CONCAT(label, ':', upto);\nEND");
            }
            List<String> out = new ArrayList<>();
            try (java.sql.CallableStatement cs = c.prepareCall("{call cs_report(?, ?, ?)}")) {
                for (int upto : new int[] {2, 1}) {
                    cs.setInt(1, upto);
                    cs.registerOutParameter(2, java.sql.Types.INTEGER);
                    cs.setString(3, "run");
                    cs.registerOutParameter(3, java.sql.Types.VARCHAR);
                    boolean rows = cs.execute();
                    while (true) {
                        if (rows) {
                            try (ResultSet rs = cs.getResultSet()) {
                                out.addAll(Outcomes.metadata(rs.getMetaData()));
                                out.addAll(Outcomes.rows(rs));
                            }
                        } else if (cs.getUpdateCount() == -1) {
                            break;
                        } else {
                            out.add("update " + cs.getUpdateCount());
                        }
                        rows = cs.getMoreResults();
                    }
                    out.add("total=" + cs.getInt(2) + " null=" + cs.wasNull() + " label=" + cs.getString(3) + " long=" + cs.getLong(2));
                }
            }
            try (java.sql.CallableStatement cs = c.prepareCall("CALL cs_report(0, ?, ?)")) {
                cs.registerOutParameter(1, java.sql.Types.INTEGER);
                cs.setString(2, "x");
                cs.registerOutParameter(2, java.sql.Types.VARCHAR);
                cs.execute();
                out.add("total=" + cs.getInt(1) + " null=" + cs.wasNull() + " label=" + cs.getString(2));
            }
            assertTrue(out.contains("total=3 null=false label=run:2 long=3") && out.contains("update 1")
                    && out.contains("total=0 null=true label=x:0"), out::toString);
            return out;
        });
    }
}
