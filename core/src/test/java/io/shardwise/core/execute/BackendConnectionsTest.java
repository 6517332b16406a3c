package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.PoolConfig;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackendConnectionsTest {
    @Test
    void aSideConnectionCarriesThePoolsSettings() throws SQLException {
        MysqlServer server = TestBackends.shared();
        PoolConfig pool = new PoolConfig(4, 0, Duration.ofMillis(1234), Duration.ofMinutes(1), Duration.ofMinutes(5));
        BackendConfig config = new BackendConfig("ds0", server.jdbcUrl(""), server.user(), server.password(), pool);
        assertEquals("1234", BackendConnections.driverProperties(config, true).getProperty("connectTimeout"),
                "the pool's connection timeout bounds the side connection's connect");
        try (Connection c = BackendConnections.openUnpooled(config); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@session.net_write_timeout")) {
            assertTrue(rs.next());
            assertEquals(600, rs.getInt(1), "the pooled connections' session variables");
        }
    }

    /** What SHOW and the variables read back go through: the backend's own bytes and values, as a fresh client gets them. */
    @Test
    void aRawSideConnectionHasAFreshClientsSession() throws SQLException {
        MysqlServer server = TestBackends.shared();
        PoolConfig pool = new PoolConfig(4, 0, Duration.ofMillis(1234), Duration.ofMinutes(1), Duration.ofMinutes(5));
        BackendConfig config = new BackendConfig("ds0", server.jdbcUrl(""), server.user(), server.password(), pool);
        String probe = "SELECT @@session.character_set_results, @@session.net_write_timeout, @@global.net_write_timeout";
        try (Connection c = BackendConnections.openUnpooledRaw(config); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(probe)) {
            assertTrue(rs.next());
            assertEquals(null, rs.getString(1), "results unconverted");
            assertEquals(rs.getInt(3), rs.getInt(2), "the server's net_write_timeout, not the pool's");
        }
    }

    /**
     * The engine runs inside applications (the JDBC face): opening its pools and side connections must
     * leave the JVM-wide DriverManager login timeout as the application set it. HikariCP given a JDBC
     * URL sets it to its own connection timeout (a second here), which cut every other connect in the JVM.
     */
    @Test
    void poolsAndSideConnectionsLeaveTheApplicationsLoginTimeoutAlone() throws SQLException {
        int before = DriverManager.getLoginTimeout();
        DriverManager.setLoginTimeout(37); // the application's own
        try (Shards shards = new Shards(1, new PoolConfig(2, 1, Duration.ofMillis(800), Duration.ofMinutes(1), Duration.ofMinutes(5)));
             ExecutionSession s = shards.session()) {
            assertEquals("1", Shards.single(s.execute(java.util.List.of(new io.shardwise.core.route.ExecutionUnit("ds0", "SELECT 1"))).getFirst()));
            MysqlServer server = TestBackends.shared();
            BackendConfig config = new BackendConfig("side", server.jdbcUrl(""), server.user(), server.password(),
                    new PoolConfig(1, 0, Duration.ofMillis(800), Duration.ofMinutes(1), Duration.ofMinutes(5)));
            try (Connection side = BackendConnections.openUnpooled(config)) {
                assertTrue(side.isValid(5));
            }
            assertEquals(37, DriverManager.getLoginTimeout(), "the JVM-wide login timeout is the application's");
        } finally {
            DriverManager.setLoginTimeout(before);
        }
    }
}
