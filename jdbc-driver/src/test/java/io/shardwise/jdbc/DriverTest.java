package io.shardwise.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The driver's own contract: URLs, engine sharing, pools, timeouts, resource release. */
class DriverTest {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    @Test
    void urlsParseLocationAndPropertiesWithPropertiesWinning() throws SQLException {
        Properties info = new Properties();
        info.setProperty("useAffectedRows", "false");
        ConnectionUrl url = ConnectionUrl.parse("jdbc:shardwise:conf/shop.yaml?useAffectedRows=true&x=a%20b", info);
        assertEquals("conf/shop.yaml", url.location());
        assertFalse(url.useAffectedRows());
        assertEquals("a b", url.properties().getProperty("x"));
        assertEquals(ConnectionUrl.parse("jdbc:shardwise:" + java.nio.file.Path.of("conf/shop.yaml").toAbsolutePath(), null).key(),
                url.key(), "relative and absolute spellings of one file name one engine");
        assertEquals("classpath:a/b.yaml", ConnectionUrl.parse("jdbc:shardwise:classpath:/a/b.yaml", null).key());
        assertFalse(new Driver().acceptsURL("jdbc:mysql://localhost/x"));
        assertThrows(SQLException.class, () -> ConnectionUrl.parse("jdbc:shardwise:", null));
    }

    @Test
    void driverManagerFindsTheDriverThroughTheServiceFile() throws SQLException {
        assertInstanceOf(Driver.class, DriverManager.getDriver(f.url));
    }

    @Test
    void connectionsToOneConfigurationShareOneEngineUntilShutdown() throws SQLException {
        String url = "jdbc:shardwise:file:" + f.config.toAbsolutePath();
        try (Connection a = DriverManager.getConnection(url); Connection b = f.shardwise()) {
            assertSame(a.unwrap(ShardwiseConnection.class).engine(), b.unwrap(ShardwiseConnection.class).engine());
        }
        ShardwiseDataSource ds = new ShardwiseDataSource();
        ds.setUrl(f.url);
        io.shardwise.core.Engine before;
        try (Connection c = ds.getConnection()) {
            before = c.unwrap(ShardwiseConnection.class).engine();
        }
        try (Connection c = ds.getConnection()) {
            assertSame(before, c.unwrap(ShardwiseConnection.class).engine(), "kept after the last connection closed");
        }
        assertTrue(Driver.shutdown(f.url));
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            assertNotSame(before, c.unwrap(ShardwiseConnection.class).engine());
            assertTrue(rs.next());
        }
    }

    @Test
    void closingAConnectionInATransactionReleasesEveryBackendConnection() throws SQLException {
        Connection c = f.shardwise();
        var engine = c.unwrap(ShardwiseConnection.class).engine();
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
            long t0 = System.nanoTime();
            assertThrows(SQLTimeoutException.class, () -> st.executeQuery("SELECT SLEEP(10)").next());
            assertTrue(System.nanoTime() - t0 < 8_000_000_000L);
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
    void databaseMetaDataNamesTheLogicalCatalogAndTheBackendVersion() throws SQLException {
        String version;
        try (Connection c = f.direct()) {
            version = c.getMetaData().getDatabaseProductVersion();
        }
        try (Connection c = f.shardwise()) {
            var md = c.getMetaData();
            assertEquals("MySQL", md.getDatabaseProductName());
            assertEquals(version, md.getDatabaseProductVersion());
            assertEquals("shop", c.getCatalog());
            try (ResultSet rs = md.getCatalogs()) {
                assertTrue(rs.next());
                assertEquals("shop", rs.getString("TABLE_CAT"));
            }
            assertThrows(SQLFeatureNotSupportedException.class, () -> md.getTables(null, null, "%", null));
        }
    }

    /** A HikariCP pool over the Shardwise driver: concurrent point and scatter reads agree with Connector/J. */
    @Test
    void hikariPoolOverTheDriverServesConcurrentQueries() throws Exception {
        String sql = "SELECT COUNT(*), SUM(amount) FROM orders WHERE user_id = ?";
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(f.url);
        config.setMaximumPoolSize(4);
        try (HikariDataSource pool = new HikariDataSource(config); Connection direct = f.direct()) {
            ExecutorService threads = Executors.newFixedThreadPool(8);
            try {
                List<Future<String>> results = new ArrayList<>();
                for (int user = 1; user <= 40; user++) {
                    int u = user;
                    results.add(threads.submit(() -> {
                        try (Connection c = pool.getConnection(); var ps = c.prepareStatement(sql)) {
                            ps.setInt(1, u);
                            try (ResultSet rs = ps.executeQuery()) {
                                return Outcomes.rows(rs).toString();
                            }
                        }
                    }));
                }
                for (int user = 1; user <= 40; user++) {
                    try (var ps = direct.prepareStatement(sql)) {
                        ps.setInt(1, user);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertEquals(Outcomes.rows(rs).toString(), results.get(user - 1).get());
                        }
                    }
                }
            } finally {
                threads.shutdownNow();
            }
        }
    }
}
