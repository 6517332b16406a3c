package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What clients and GUI tools ask when they connect and browse, through the server and on the
 * unsharded copy of the sample: information_schema over logical names, SHOW TABLE STATUS, SHOW
 * PROCESSLIST, CREATE/DROP DATABASE and the server variables read back.
 */
class InformationSchemaTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("infoschema");

    /** Labels, then rows as text (sorted unless {@code ordered}), columns in {@code blanked} shown as "?". */
    private static List<String> table(Connection c, String sql, boolean ordered, int... blanked) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder labels = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.append(md.getColumnLabel(i)).append('|');
            }
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    final int column = i;
                    row.append(Arrays.stream(blanked).anyMatch(b -> b == column) ? "?" : rs.getString(i)).append('|');
                }
                rows.add(row.toString().replace(sample.whole, "shop"));
            }
            if (!ordered) {
                Collections.sort(rows);
            }
            rows.add(0, labels.toString());
            return rows;
        }
    }

    private static void sameAsUnsharded(String sql, int... blanked) throws SQLException {
        try (Connection proxied = sample.connect("app", ""); Connection plain = sample.direct()) {
            boolean ordered = sql.toUpperCase(java.util.Locale.ROOT).contains("ORDER BY");
            List<String> expected = table(plain, sql.replaceAll("\\bshop\\b", sample.whole), ordered, blanked);
            assertTrue(expected.size() > 1, "the statement returns rows: " + sql);
            assertEquals(expected, table(proxied, sql, ordered, blanked), sql);
        }
    }

    @Test
    void informationSchemaTablesAnswerOverLogicalNamesAsOneServerWould() throws Exception {
        for (String sql : new String[] {
                "SELECT * FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = DATABASE()",
                "SELECT TABLE_CATALOG, TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, ENGINE, ROW_FORMAT, TABLE_COLLATION, TABLE_COMMENT"
                        + " FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' ORDER BY TABLE_NAME",
                "SELECT * FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()",
                "select column_name, data_type from `information_schema`.`columns` where table_schema = database()"
                        + " and table_name = 'orders' order by ordinal_position",
                "SELECT t.TABLE_NAME, COUNT(*) AS n FROM information_schema.TABLES t JOIN information_schema.COLUMNS AS c"
                        + " ON c.TABLE_SCHEMA = t.TABLE_SCHEMA AND c.TABLE_NAME = t.TABLE_NAME WHERE t.TABLE_SCHEMA = DATABASE()"
                        + " GROUP BY t.TABLE_NAME ORDER BY t.TABLE_NAME",
                "SELECT information_schema.TABLES.TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME LIKE 'order%'",
                "SELECT TABLE_SCHEMA, TABLE_NAME, NON_UNIQUE, INDEX_SCHEMA, INDEX_NAME, SEQ_IN_INDEX, COLUMN_NAME, COLLATION, NULLABLE,"
                        + " INDEX_TYPE FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()",
                "SELECT * FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = DATABASE()",
                "SELECT * FROM information_schema.TABLE_CONSTRAINTS WHERE TABLE_SCHEMA = 'shop'",
                "SELECT * FROM information_schema.COLLATIONS WHERE COLLATION_NAME LIKE 'utf8mb4_general%'"}) {
            sameAsUnsharded(sql);
        }
    }

    @Test
    void physicalNamesNeverShowAndUnansweredTablesAreRefusedWith1235() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            List<String> tables = table(c, "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA <> 'information_schema'", false);
            List<String> shown = table(c, "SHOW TABLES", false);
            assertEquals(shown.size(), tables.size(), "one row per logical table: " + tables);
            for (String row : tables) {
                assertFalse(row.contains(sample.target.databasePrefix()) || row.matches(".*_[01]\\|$"), row);
            }
            assertEquals(List.of("SCHEMA_NAME|", "information_schema|", "shop|"), table(c, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA", false));
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_NAME = 'orders_0'")) {
                assertTrue(rs.next());
                assertEquals(0, rs.getInt(1), "shard tables are not there under their physical names");
            }
            // PARTITIONS, like TRIGGERS and FILES (what dumps read), lists logical tables only
            try (ResultSet rs = s.executeQuery("SELECT DISTINCT TABLE_NAME FROM information_schema.PARTITIONS"
                    + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME LIKE 'orders%'")) {
                assertTrue(rs.next());
                assertEquals("orders", rs.getString(1));
                assertFalse(rs.next(), "one row per logical table, no physical one");
            }
            for (String table : new String[] {"VIEWS", "PROCESSLIST"}) {
                SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM information_schema." + table));
                assertEquals(1235, e.getErrorCode());
                assertTrue(e.getMessage().contains("information_schema." + table), e.getMessage());
            }
        }
    }

    @Test
    void showTableStatusListsLogicalTablesWithTheirFirstPhysicalTablesFigures() throws Exception {
        // Rows .. Update_time and Checksum are the first physical table's (or differ by creation): not compared
        int[] figures = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 19};
        sameAsUnsharded("SHOW TABLE STATUS", figures);
        sameAsUnsharded("SHOW TABLE STATUS LIKE 'order%'", figures);
        sameAsUnsharded("show table status from shop like 'promotions'", figures);
    }

    @Test
    void showProcesslistListsTheServersOwnSessionsOfThatUser() throws Exception {
        try (Connection first = sample.connect("app", ""); Connection second = sample.connect("app", "")) {
            long firstId;
            long secondId;
            try (ResultSet rs = first.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                firstId = rs.getLong(1);
            }
            try (ResultSet rs = second.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
                rs.next();
                secondId = rs.getLong(1);
            }
            List<String> rows = table(first, "SHOW FULL PROCESSLIST", false, 6);
            assertEquals("Id|User|Host|db|Command|Time|State|Info|", rows.getFirst());
            assertTrue(rows.contains(firstId + "|app|127.0.0.1|shop|Query|?|executing|SHOW FULL PROCESSLIST|"), rows.toString());
            assertTrue(rows.contains(secondId + "|app|127.0.0.1|shop|Sleep|?||null|"), rows.toString());
            second.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (table(first, "SHOW PROCESSLIST", false).stream().anyMatch(r -> r.startsWith(secondId + "|"))) {
                assertTrue(System.nanoTime() < deadline, "a closed session leaves the list");
                Thread.sleep(20);
            }
        }
    }

    @Test
    void createAndDropDatabaseAnswerAsAServerHoldingOnlyTheLogicalSchema() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            assertEquals(1007, assertThrows(SQLException.class, () -> s.execute("CREATE DATABASE shop")).getErrorCode());
            s.execute("CREATE DATABASE IF NOT EXISTS shop");
            assertEquals(1235, assertThrows(SQLException.class, () -> s.execute("DROP SCHEMA shop")).getErrorCode());
            assertEquals(1235, assertThrows(SQLException.class, () -> s.execute("CREATE SCHEMA `other`")).getErrorCode());
        }
        try (Connection plain = sample.direct(); ResultSet rs = plain.createStatement().executeQuery("SHOW DATABASES LIKE 'shop'")) {
            assertFalse(rs.next(), "no physical database named like the logical schema was created");
        }
    }

    @Test
    void aClientConnectedWithoutADatabaseGets1046UntilItSelectsOne() throws Exception {
        String url = "jdbc:mysql://127.0.0.1:" + sample.server.address().getPort()
                + "/?user=app&password=app&sslMode=DISABLED&allowPublicKeyRetrieval=true";
        try (Connection c = java.sql.DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (String sql : List.of("SELECT * FROM orders", "CREATE TABLE t (id INT)", "INSERT INTO countries VALUES ('xx', 'x')")) {
                SQLException e = assertThrows(SQLException.class, () -> s.execute(sql), sql);
                assertEquals(1046, e.getErrorCode(), sql);
                assertEquals("3D000", e.getSQLState(), sql);
                assertEquals("No database selected", e.getMessage(), sql);
            }
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM shop.orders")) {
                assertTrue(rs.next());
            }
            c.setCatalog("shop"); // Connector/J sends USE
            // a new statement: Connector/J sends a statement's own database (none here) again before each query
            try (Statement after = c.createStatement(); ResultSet rs = after.executeQuery("SELECT COUNT(*) FROM orders")) {
                assertTrue(rs.next());
            }
        }
        try (Connection ds0 = sample.backend.connect(sample.target.databasePrefix() + "_0");
             ResultSet rs = ds0.createStatement().executeQuery("SHOW TABLES LIKE 't'")) {
            assertFalse(rs.next(), "nothing ran in the default backend's database");
        }
    }

    @Test
    void comInitDbSelectsTheDatabaseForAClientThatConnectedWithout() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", null,
                io.shardwise.server.auth.NativePassword.PLUGIN)) {
            assertEquals(io.shardwise.server.protocol.OkPacket.HEADER, c.loginReply.header());
            c.command(0x03, "UPDATE countries SET name = name WHERE code = 'zz'");
            io.shardwise.server.protocol.ErrPacket none = c.readError();
            assertEquals(1046, none.errno());
            assertEquals("3D000", none.sqlState());
            c.command(0x02, "shop"); // COM_INIT_DB
            assertEquals(io.shardwise.server.protocol.OkPacket.HEADER, c.read().header());
            c.command(0x03, "UPDATE countries SET name = name WHERE code = 'zz'");
            assertEquals(io.shardwise.server.protocol.OkPacket.HEADER, c.read().header());
            c.command(0x02, "other");
            assertEquals(1049, c.readError().errno());
        }
    }

    @Test
    void backendErrorsReadAsOneDatabaseWithoutPhysicalNames() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM no_such_table"));
            assertEquals(1146, e.getErrorCode());
            assertEquals("42S02", e.getSQLState());
            assertEquals("Table 'shop.no_such_table' doesn't exist", e.getMessage());
            String sql = "SELECT orders.nope FROM orders WHERE user_id = 1";
            e = assertThrows(SQLException.class, () -> s.executeQuery(sql));
            try (Connection plain = sample.direct()) {
                SQLException expected = assertThrows(SQLException.class, () -> plain.createStatement().executeQuery(sql));
                assertEquals(expected.getMessage(), e.getMessage());
                assertEquals(expected.getErrorCode(), e.getErrorCode());
            }
        }
    }

    @Test
    void variablesReadBackAreTheBackendsWhereTheBackendDecidesThem() throws Exception {
        String sql = "SELECT @@sql_mode, @@time_zone, @@transaction_isolation, @@lower_case_table_names, @@auto_increment_increment,"
                + " @@div_precision_increment, @@sql_auto_is_null";
        sameAsUnsharded(sql);
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            s.execute("SET sql_mode = 'ANSI_QUOTES'");
            assertEquals(List.of("@@sql_mode|", "ANSI_QUOTES|"), table(c, "SELECT @@sql_mode", true));
            s.execute("SET sql_mode = DEFAULT");
            try (Connection plain = sample.direct()) {
                assertEquals(table(plain, "SELECT @@sql_mode", true), table(c, "SELECT @@sql_mode", true));
            }
        }
    }
}
