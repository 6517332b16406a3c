package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a client sees reads as one unsharded database: errors in logical names, 1046 with no
 * database selected, and database statements answered for the logical schema only. Each backend
 * error is checked against the same statement on an unsharded copy of the data.
 */
class SingleDatabaseFaceTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("face");
    private static MysqlServer server;
    private static SampleTarget target;
    private static String whole;
    private static Engine engine;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        whole = SAMPLE.whole();
        engine = SAMPLE.engine();
    }

    /** The error of {@code sql} through the engine, message compared with the unsharded database's (named "shop" there). */
    private static BackendException sameErrorAsOneDatabase(String sql) throws SQLException {
        SQLException expected;
        try (Connection c = server.connect(whole); Statement s = c.createStatement()) {
            expected = assertThrows(SQLException.class, () -> s.execute(sql), sql);
        }
        BackendException actual;
        try (EngineSession s = engine.openSession()) {
            actual = assertThrows(BackendException.class, () -> drain(s.execute(sql)), sql);
        }
        assertEquals(expected.getErrorCode(), actual.errno(), sql);
        assertEquals(expected.getSQLState(), actual.sqlState(), sql);
        assertEquals(expected.getMessage().replace(whole, "shop"), actual.getMessage(), sql);
        return actual;
    }

    private static void drain(StatementResult r) {
        if (r instanceof StatementResult.Rows rows) {
            try (ResultCursor c = rows.cursor()) {
                while (c.next()) {
                    // reading on: an error may come with the rows
                }
            }
        }
    }

    @Test
    void backendErrorsReadAsTheSameStatementOnOneDatabase() throws SQLException {
        BackendException missing = sameErrorAsOneDatabase("select * from no_such_table");
        assertEquals("Table 'shop.no_such_table' doesn't exist", missing.getMessage());
        assertEquals("ds0", missing.backend(), "the backend is still known, for logs");
        assertFalse(missing.getCause().getMessage().contains("'shop."), "the cause keeps the backend's own text");
        sameErrorAsOneDatabase("select nope from orders where user_id = 1");
        sameErrorAsOneDatabase("select * from orders where nope = 1");
        sameErrorAsOneDatabase("select o.nope from orders o where o.user_id = 2");
        sameErrorAsOneDatabase("select * from orders where user_id = 3 and orders.nope = 1");
        sameErrorAsOneDatabase("select count(*) from orders where nope = 1");
        sameErrorAsOneDatabase("update orders set nope = 1 where user_id = 5");
        sameErrorAsOneDatabase("create table orders (id int)");
        sameErrorAsOneDatabase("insert into orders (order_id, user_id, nope) values (1, 1, 1)");
        sameErrorAsOneDatabase("selec * from orders");
    }

    @Test
    void duplicateKeysNameTheLogicalKey() throws SQLException {
        long order;
        long user;
        try (Connection c = server.connect(whole); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select order_id, user_id from orders order by order_id limit 1")) {
            assertTrue(rs.next());
            order = rs.getLong(1);
            user = rs.getLong(2);
        }
        BackendException e = sameErrorAsOneDatabase("insert into orders (order_id, user_id, created_at) values (" + order + ", " + user + ", '2025-01-01')");
        assertEquals(1062, e.errno());
    }

    @Test
    void withNoDatabaseSelectedUnqualifiedTablesFailWith1046AndQualifiedOnesWork() {
        try (EngineSession s = engine.openSession(true, null)) {
            assertNull(s.schema());
            for (String sql : new String[] {"select * from orders", "select * from promotions", "select * from t",
                    "create table t (id int)", "insert into t values (1)", "update users set name = 'x' where user_id = 1",
                    "delete from orders where user_id = 1", "drop table t", "select * from shop.orders o join order_items i using (user_id)"}) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> drain(s.execute(sql)), sql);
                assertEquals(ErrorCode.NO_DATABASE_SELECTED, e.code(), sql + ": " + e.getMessage());
                assertEquals(1046, e.errno());
                assertEquals("3D000", e.sqlState());
                assertEquals("No database selected", e.getMessage());
            }
            assertEquals(ErrorCode.NO_DATABASE_SELECTED,
                    assertThrows(ShardwiseException.class, () -> s.describe("select * from orders where user_id = ?")).code());
            drain(s.execute("select 1"));
            drain(s.execute("with x as (select 1 as a) select * from x")); // a CTE's name is no table of a database
            assertEquals(1, count(s, "select count(*) from shop.orders where user_id = 1") >= 0 ? 1 : 0);
            assertEquals(count(s, "select count(*) from SHOP.orders"), count(s, "select count(*) from `shop`.`orders`"));
            assertEquals(ErrorCode.UNKNOWN_DATABASE, assertThrows(ShardwiseException.class, () -> s.execute("use other")).code());
            assertNull(s.schema(), "a failed USE leaves no database selected");
            s.execute("use shop");
            assertEquals("shop", s.schema());
            assertEquals(count(s, "select count(*) from shop.orders"), count(s, "select count(*) from orders"));
        }
        assertEquals(ErrorCode.UNKNOWN_DATABASE, assertThrows(ShardwiseException.class, () -> engine.openSession(true, "other")).code());
        try (EngineSession s = engine.openSession(true, "SHOP")) {
            assertEquals("shop", s.schema());
        }
    }

    private static long count(EngineSession s, String sql) {
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            assertTrue(c.next());
            return Long.parseLong(new String(c.get(0), java.nio.charset.StandardCharsets.US_ASCII));
        }
    }

    @Test
    void databaseStatementsNeverCreateOrDropPhysicalDatabases() throws SQLException {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException exists = assertThrows(ShardwiseException.class, () -> s.execute("CREATE DATABASE shop"));
            assertEquals(1007, exists.errno());
            assertEquals("Can't create database 'shop'; database exists", exists.getMessage());
            assertEquals(StatementResult.Update.OK, s.execute("CREATE SCHEMA IF NOT EXISTS shop"));
            ShardwiseException drop = assertThrows(ShardwiseException.class, () -> s.execute("DROP DATABASE shop"));
            assertEquals(1235, drop.errno());
            assertTrue(drop.getMessage().contains("DROP DATABASE shop"), drop.getMessage());
            String stray = target.databasePrefix() + "_stray";
            assertEquals(1235, assertThrows(ShardwiseException.class, () -> s.execute("CREATE DATABASE " + stray)).errno());
            assertEquals(1235, assertThrows(ShardwiseException.class, () -> s.execute("DROP SCHEMA IF EXISTS " + stray)).errno());
            try (Connection c = server.connect(null); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SHOW DATABASES LIKE '" + stray + "'")) {
                assertFalse(rs.next(), "no physical database was created");
            }
            assertTrue(count(s, "select count(*) from orders") > 0, "the shards are still there");
        }
    }
}
