package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SharedServerTest {

    private static MysqlServer server;

    @BeforeAll
    static void printBackend() {
        server = TestBackends.shared();
        System.out.println("SharedServerTest runs on " + server.describe());
    }

    @Test
    void sharedServerRunsSqlEndToEnd() throws SQLException {
        String schema = TestBackends.uniqueSchemaName("shared_sql");
        server.createSchema(schema);
        try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR(20) CHARACTER SET utf8mb4)");
            assertEquals(2, s.executeUpdate("INSERT INTO t VALUES (1, 'ä'), (2, '😀')"));
            try (ResultSet rs = s.executeQuery("SELECT id, name FROM t ORDER BY id")) {
                assertTrue(rs.next());
                assertEquals(1, rs.getLong(1));
                assertEquals("ä", rs.getString(2));
                assertTrue(rs.next());
                assertEquals("😀", rs.getString(2));
                assertFalse(rs.next());
            }
            try (ResultSet rs = s.executeQuery("SELECT VERSION(), DATABASE()")) {
                assertTrue(rs.next());
                assertFalse(rs.getString(1).isBlank());
                assertEquals(schema, rs.getString(2));
            }
        } finally {
            server.dropSchema(schema);
        }
        assertFalse(schemaExists(schema));
    }

    @Test
    void versionAndDescribeNameTheBackend() {
        assertFalse(server.version().isBlank());
        String line = server.describe();
        assertTrue(line.startsWith(server.kind() + " " + server.host() + ":" + server.port()), line);
        assertTrue(line.contains(server.version()), line);
        assertTrue(server.jdbcUrl("x").contains("sslMode=DISABLED"), server.jdbcUrl("x"));
    }

    @Test
    void twoSchemasAreIsolated() throws SQLException {
        String a = TestBackends.uniqueSchemaName("iso_a");
        String b = TestBackends.uniqueSchemaName("iso_b");
        server.createSchema(a);
        server.createSchema(b);
        try {
            try (Connection c = server.connect(a); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (v INT)");
                s.execute("INSERT INTO t VALUES (1), (2)");
            }
            try (Connection c = server.connect(b); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (v INT)");
                s.execute("INSERT INTO t VALUES (10)");
                assertEquals(10, singleLong(s, "SELECT SUM(v) FROM t"));
                assertEquals(3, singleLong(s, "SELECT SUM(v) FROM `" + a + "`.t"));
            }
        } finally {
            server.dropSchema(a);
            server.dropSchema(b);
        }
    }

    @Test
    void recreateSchemaEmptiesIt() throws SQLException {
        String schema = TestBackends.uniqueSchemaName("recreate");
        server.createSchema(schema);
        try {
            try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE t (v INT)");
            }
            server.recreateSchema(schema);
            try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
                assertEquals(0, singleLong(s,
                        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()"));
            }
        } finally {
            server.dropSchema(schema);
        }
    }

    @Test
    void connectWithoutSchemaHasNoDefaultDatabase() throws SQLException {
        try (Connection c = server.connect(null); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT DATABASE(), @@character_set_server")) {
            assertTrue(rs.next());
            assertEquals(null, rs.getString(1));
            assertEquals("utf8mb4", rs.getString(2));
        }
    }

    @Test
    void badSchemaNamesAreRejectedBeforeReachingTheServer() {
        assertThrows(IllegalArgumentException.class, () -> server.createSchema("a`b"));
        assertThrows(IllegalArgumentException.class, () -> server.createSchema(""));
        assertThrows(IllegalArgumentException.class, () -> server.dropSchema("x".repeat(65)));
    }

    @Test
    void sharedIsOneServerPerJvmEvenUnderConcurrentFirstUse() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<MysqlServer>> futures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                futures.add(pool.submit((Callable<MysqlServer>) TestBackends::shared));
            }
            for (Future<MysqlServer> f : futures) {
                assertSame(server, f.get());
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(server, TestBackends.sharedAll().getFirst());
    }

    @Test
    void closingTheSharedServerDoesNotStopIt() throws SQLException {
        server.close();
        try (Connection c = server.connect(null)) {
            assertTrue(c.isValid(5));
        }
    }

    @Test
    void serverMaxConnectionsAllowsManyTestPools() throws SQLException {
        try (Connection c = server.connect(null); Statement s = c.createStatement()) {
            assertTrue(singleLong(s, "SELECT @@max_connections") >= 1000);
        }
    }

    private static boolean schemaExists(String schema) throws SQLException {
        try (Connection c = server.connect(null); Statement s = c.createStatement()) {
            return singleLong(s, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '" + schema + "'") == 1;
        }
    }

    static long singleLong(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getLong(1);
        }
    }
}
