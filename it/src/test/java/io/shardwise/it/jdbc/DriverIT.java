package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.jdbc.Driver;
import io.shardwise.jdbc.ShardwiseDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The driver's own contract against a real server: engine sharing, resource release, timeouts, PREVIEW. */
class DriverIT {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    @Test
    void connectionsToOneConfigurationShareOneEngineUntilShutdown() throws SQLException {
        String url = "jdbc:shardwise:file:" + f.config.toAbsolutePath();
        try (Connection a = DriverManager.getConnection(url); Connection b = f.shardwise()) {
            assertSame(a.unwrap(Engine.class), b.unwrap(Engine.class));
        }
        ShardwiseDataSource ds = new ShardwiseDataSource();
        ds.setUrl(f.url);
        Engine before;
        try (Connection c = ds.getConnection()) {
            before = c.unwrap(Engine.class);
        }
        try (Connection c = ds.getConnection()) {
            assertSame(before, c.unwrap(Engine.class), "kept after the last connection closed");
        }
        assertTrue(Driver.shutdown(f.url));
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            assertNotSame(before, c.unwrap(Engine.class));
            assertTrue(rs.next());
        }
    }

    @Test
    void urlsWithDifferentOverridesGetDifferentEnginesEachWithItsValues() throws SQLException {
        String small = f.url + "?backends.ds0.pool.max=2&backends.ds0.pool.minIdle=0";
        // the sample's server user names the schema, and is checked against it as in the file
        String renamed = f.url + "?schema=store&server.users%5B0%5D.schemas%5B0%5D=store";
        java.util.Properties sameAsSmall = new java.util.Properties();
        sameAsSmall.setProperty("backends.ds0.pool.minIdle", "0");
        sameAsSmall.setProperty("backends.ds0.pool.max", "2");
        try (Connection plain = f.shardwise(); Connection a = DriverManager.getConnection(small);
                Connection b = DriverManager.getConnection(renamed); Connection a2 = DriverManager.getConnection(f.url, sameAsSmall)) {
            Engine e = plain.unwrap(Engine.class);
            Engine ea = a.unwrap(Engine.class);
            Engine eb = b.unwrap(Engine.class);
            assertNotSame(e, ea);
            assertNotSame(e, eb);
            assertNotSame(ea, eb);
            assertSame(ea, a2.unwrap(Engine.class), "the same overrides through Properties, in another order, share the engine");
            assertEquals(2, ea.rule().config().backends().get("ds0").pool().max());
            assertEquals(32, e.rule().config().backends().get("ds0").pool().max(), "the file's value where no property overrides it");
            assertEquals("shop", plain.getCatalog());
            assertEquals("store", b.getCatalog());
            try (Statement st = b.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders WHERE user_id = 42")) {
                assertTrue(rs.next());
                assertTrue(rs.getLong(1) > 0, "the overridden engine reaches the same backends");
            }
        } finally {
            Driver.shutdown(small);
            Driver.shutdown(renamed);
        }
    }

    @Test
    void databaseStatementsAnswerForTheLogicalSchemaAndCreateNoPhysicalDatabase() throws SQLException {
        String stray = f.target.databasePrefix() + "_stray";
        try (Connection c = f.shardwise(); Statement st = c.createStatement()) {
            SQLException exists = assertThrows(SQLException.class, () -> st.execute("CREATE DATABASE shop"));
            assertEquals(1007, exists.getErrorCode());
            assertEquals("HY000", exists.getSQLState());
            assertEquals("Can't create database 'shop'; database exists", exists.getMessage());
            assertFalse(st.execute("CREATE SCHEMA IF NOT EXISTS shop"));
            SQLException drop = assertThrows(SQLException.class, () -> st.execute("DROP DATABASE shop"));
            assertEquals(1235, drop.getErrorCode());
            assertTrue(drop.getMessage().contains("DROP DATABASE shop"), drop.getMessage());
            assertEquals(1235, assertThrows(SQLException.class, () -> st.execute("CREATE DATABASE " + stray)).getErrorCode());
            assertEquals(1235, assertThrows(SQLException.class, () -> st.execute("CREATE DATABASE IF NOT EXISTS shop_other")).getErrorCode());
        }
        try (Connection plain = f.direct(); ResultSet rs = plain.createStatement().executeQuery(
                "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name IN ('shop', 'shop_other', '" + stray + "')")) {
            assertTrue(rs.next());
            assertEquals(0, rs.getInt(1), "no physical database was created");
        }
    }

    @Test
    void aBadOverrideFailsTheConnectionNamingTheProperty() {
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(f.url + "?backends.ds0.pool.max_size=4"));
        assertEquals(1105, e.getErrorCode());
        assertTrue(e.getMessage().contains("backends.ds0.pool.max_size (set by a property): unknown key 'max_size'. Did you mean 'max'?"),
                e.getMessage());
    }

    @Test
    void backendErrorsReadAsOneDatabase() throws SQLException {
        try (Connection c = f.shardwise(); Statement st = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT * FROM no_such_table"));
            assertEquals(1146, e.getErrorCode());
            assertEquals("42S02", e.getSQLState());
            assertEquals("Table 'shop.no_such_table' doesn't exist", e.getMessage());
        }
    }

    @Test
    void closingAConnectionInATransactionReleasesEveryBackendConnection() throws SQLException {
        Connection c = f.shardwise();
        var engine = c.unwrap(Engine.class);
        c.setAutoCommit(false);
        try (Statement st = c.createStatement()) {
            st.executeUpdate("UPDATE orders SET status = status WHERE user_id IN (1, 2, 3)");
        }
        assertTrue(engine.activeConnections() > 0);
        c.close();
        assertEquals(0, engine.activeConnections());
        assertThrows(SQLException.class, c::createStatement);
    }

    @Test
    void aResultReadInsideATransactionSurvivesAnUpdateOnTheSameConnection() throws SQLException {
        try (Connection c = f.shardwise(); Statement read = c.createStatement(); Statement write = c.createStatement()) {
            c.setAutoCommit(false);
            int seen = 0;
            try (ResultSet rs = read.executeQuery("SELECT order_id FROM orders WHERE user_id = 42 ORDER BY order_id")) {
                while (rs.next()) {
                    write.executeUpdate("UPDATE orders SET status = status WHERE order_id = " + rs.getLong(1) + " AND user_id = 42");
                    seen++;
                }
            }
            c.rollback();
            assertTrue(seen > 1, "rows kept coming after the first update");
        }
    }

    @Test
    void queryTimeoutCancelsTheStatement() throws SQLException {
        try (Connection c = f.shardwise(); Statement st = c.createStatement()) {
            st.setQueryTimeout(1);
            // SLEEP(10) returns 0 unless cancelled: the SQLTimeoutException is the timeout's doing (not timed here)
            assertThrows(SQLTimeoutException.class, () -> st.executeQuery("SELECT SLEEP(10)").next());
            st.setQueryTimeout(0);
            try (ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next(), "the connection is usable after a timeout");
            }
        }
    }

    @Test
    void previewReturnsTheRoutePlanAsRows() throws SQLException {
        try (Connection c = f.shardwise(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("PREVIEW SELECT * FROM orders WHERE user_id = 42")) {
            assertEquals("backend", rs.getMetaData().getColumnLabel(1));
            assertTrue(rs.next());
            assertEquals("POINT", rs.getString("route"));
            assertFalse(rs.next());
        }
    }

    @Test
    void explainOfAOneShardStatementReadsAsOneDatabasesAndOfAScatterAsShardwisesPlan() throws SQLException {
        String one = "EXPLAIN SELECT * FROM orders WHERE user_id = ? AND status = 'paid'";
        try (Connection direct = f.direct(); Connection shardwise = f.shardwise();
             java.sql.PreparedStatement d = direct.prepareStatement(one); java.sql.PreparedStatement s = shardwise.prepareStatement(one)) {
            d.setLong(1, 42);
            s.setLong(1, 42);
            assertEquals(describe(d.getMetaData()), describe(s.getMetaData()), "known before it runs, as one database's");
            try (ResultSet e = d.executeQuery(); ResultSet a = s.executeQuery()) {
                assertEquals(describe(e.getMetaData()), describe(a.getMetaData()));
                assertTrue(e.next());
                assertTrue(a.next());
                for (String column : new String[] {"id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "Extra"}) {
                    assertEquals(e.getString(column), a.getString(column), column);
                }
                assertEquals("orders", a.getString("table"));
                assertFalse(a.next());
            }
        }
        try (Connection c = f.shardwise(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("EXPLAIN SELECT COUNT(*) FROM orders")) {
                assertEquals("id", rs.getMetaData().getColumnLabel(1));
                assertEquals("tier", rs.getMetaData().getColumnLabel(2));
                assertTrue(rs.next());
                assertEquals("merger", rs.getString("tier"));
                assertEquals("read", rs.getString("step"));
                assertEquals(1, rs.getLong("id"));
            }
            try (ResultSet rs = st.executeQuery("EXPLAIN FORMAT=JSON SELECT COUNT(*) FROM orders")) {
                assertEquals("EXPLAIN", rs.getMetaData().getColumnLabel(1));
                assertTrue(rs.next());
                assertTrue(rs.getString(1).contains("\"tier\": \"merger\""), rs.getString(1));
                assertFalse(rs.next());
            }
            assertEquals(1235, org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> st.executeQuery("EXPLAIN ANALYZE SELECT COUNT(*) FROM orders")).getErrorCode());
        }
    }

    @Test
    void preparedStatementMetadataBeforeExecutingMatchesOneDatabase() throws SQLException {
        String[] statements = {
                "SELECT * FROM orders WHERE user_id = ? ORDER BY order_id",
                "SELECT status, COUNT(*) AS n, SUM(amount), AVG(amount) FROM orders WHERE order_id > ? GROUP BY status ORDER BY status",
                "SELECT order_id FROM orders WHERE order_id > ? ORDER BY created_at LIMIT 3",
                "UPDATE orders SET status = status WHERE order_id = ?",
        };
        try (Connection direct = f.direct(); Connection shardwise = f.shardwise()) {
            for (String sql : statements) {
                try (java.sql.PreparedStatement d = direct.prepareStatement(sql); java.sql.PreparedStatement s = shardwise.prepareStatement(sql)) {
                    d.setLong(1, 1); // Connector/J's client-side prepare runs the statement to describe it
                    assertEquals(describe(d.getMetaData()), describe(s.getMetaData()), sql);
                }
            }
        }
    }

    private static String describe(java.sql.ResultSetMetaData md) throws SQLException {
        if (md == null) {
            return "no metadata";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            sb.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append('(').append(md.getPrecision(i))
                    .append(',').append(md.getScale(i)).append(")|");
        }
        return sb.toString();
    }
}
