package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.shardwise.core.Engine;
import io.shardwise.jdbc.ShardwiseDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** HikariCP over the Shardwise driver, configured by JDBC URL and by DataSource, against Connector/J on the unsharded database. */
class HikariPoolIT {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
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

    /** Overrides given as HikariCP data source properties (an Integer among them) reach the engine's configuration. */
    @Test
    void dataSourcePropertiesOverrideTheConfiguration() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(f.url);
        config.setMaximumPoolSize(1);
        config.addDataSourceProperty("backends.ds1.pool.max", 3);
        config.addDataSourceProperty("backends.ds1.pool.minIdle", "0");
        try (HikariDataSource pool = new HikariDataSource(config); Connection c = pool.getConnection();
                var st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM orders")) {
            Engine engine = c.unwrap(Engine.class);
            assertEquals(3, engine.rule().config().backends().get("ds1").pool().max());
            try (Connection d = f.direct(); var dst = d.createStatement(); ResultSet drs = dst.executeQuery("SELECT COUNT(*) FROM orders")) {
                assertEquals(Outcomes.rows(drs), Outcomes.rows(rs));
            }
        } finally {
            io.shardwise.jdbc.Driver.shutdown(f.url + "?backends.ds1.pool.max=3&backends.ds1.pool.minIdle=0");
        }
    }

    /** A pool over ShardwiseDataSource (dataSourceClassName style): rows agree, and closing the pool returns every backend connection. */
    @Test
    void poolOverTheDataSourceReleasesBackendConnectionsOnClose() throws Exception {
        String sql = "SELECT order_id, status, amount FROM orders WHERE user_id IN (3, 4, 5) ORDER BY order_id";
        ShardwiseDataSource ds = new ShardwiseDataSource();
        ds.setUrl(f.url);
        HikariConfig config = new HikariConfig();
        config.setDataSource(ds);
        config.setMaximumPoolSize(2);
        Engine engine;
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection(); var st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                engine = c.unwrap(Engine.class);
                List<String> actual = Outcomes.rows(rs);
                try (Connection d = f.direct(); var dst = d.createStatement(); ResultSet drs = dst.executeQuery(sql)) {
                    assertEquals(Outcomes.rows(drs), actual);
                }
            }
        }
        assertEquals(0, engine.activeConnections());
    }
}
