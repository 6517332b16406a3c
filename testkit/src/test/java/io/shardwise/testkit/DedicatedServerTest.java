package io.shardwise.testkit;

import static io.shardwise.testkit.SharedServerTest.singleLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class DedicatedServerTest {

    @Test
    void stopRefusesConnectionsAndStartBringsBackTheSamePortWithData() throws SQLException {
        try (ControllableServer server = TestBackends.dedicated()) {
            System.out.println("DedicatedServerTest runs on " + server.describe());
            assertNotEquals(TestBackends.shared().port(), server.port());
            String schema = TestBackends.uniqueSchemaName("stop_start");
            server.createSchema(schema);
            execute(server, schema, "CREATE TABLE t (v INT)", "INSERT INTO t VALUES (42)");
            int port = server.port();

            server.stop();

            assertFalse(server.isRunning());
            assertThrows(SQLException.class, () -> server.connect(schema).close());

            server.start();

            assertTrue(server.isRunning());
            assertEquals(port, server.port());
            try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
                assertEquals(42, singleLong(s, "SELECT v FROM t"));
            }
        }
    }

    @Test
    void killEndsTheServerAbruptlyKeepingOnlyCommittedData() throws SQLException {
        try (ControllableServer server = TestBackends.dedicated()) {
            String schema = TestBackends.uniqueSchemaName("kill");
            server.createSchema(schema);
            execute(server, schema, "CREATE TABLE t (v INT) ENGINE=InnoDB", "INSERT INTO t VALUES (1)");
            Connection open = server.connect(schema);
            try {
                open.setAutoCommit(false);
                try (Statement s = open.createStatement()) {
                    s.execute("INSERT INTO t VALUES (2)"); // never committed
                }

                server.kill();

                assertFalse(server.isRunning());
                SQLException onDeadConnection = assertThrows(SQLException.class, open::commit);
                assertTrue(onDeadConnection.getSQLState() == null || onDeadConnection.getSQLState().startsWith("08"),
                        onDeadConnection.getSQLState());
                assertThrows(SQLException.class, () -> server.connect(schema).close());
            } finally {
                try {
                    open.close();
                } catch (SQLException ignored) {
                    // already broken by kill()
                }
            }

            server.start();

            try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
                assertEquals(1, singleLong(s, "SELECT COUNT(*) FROM t"));
                assertEquals(1, singleLong(s, "SELECT MAX(v) FROM t"));
            }
        }
    }

    @Test
    void stopAndStartAreNoOpsWhenAlreadyInThatState() throws SQLException {
        try (ControllableServer server = TestBackends.dedicated()) {
            server.start();
            assertTrue(server.isRunning());
            server.stop();
            server.stop();
            server.kill();
            assertFalse(server.isRunning());
            server.start();
            try (Connection c = server.connect(null)) {
                assertTrue(c.isValid(5));
            }
        }
    }

    @Test
    void closeStopsTheServerForGoodAndIsIdempotent() {
        ControllableServer server = TestBackends.dedicated();
        String url = server.jdbcUrl(null);

        server.close();
        server.close();

        assertFalse(server.isRunning());
        assertThrows(SQLException.class, () -> Jdbc.connect(url, server.user(), server.password()).close());
        IllegalStateException e = assertThrows(IllegalStateException.class, server::start);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }

    @Test
    void aServerThatCannotStartFailsWithMariadbdsOwnError() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> MariaDbServer.launch(List.of("--no-such-option-for-this-test")).close());

        assertTrue(e.getMessage().contains("no-such-option-for-this-test"), e.getMessage());
        assertTrue(e.getMessage().contains("mariadbd"), e.getMessage());
    }

    private static void execute(MysqlServer server, String schema, String... sqls) throws SQLException {
        try (Connection c = server.connect(schema); Statement s = c.createStatement()) {
            for (String sql : sqls) {
                s.execute(sql);
            }
        }
    }
}
