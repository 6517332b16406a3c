package io.shardwise.testkit;

import static io.shardwise.testkit.SharedServerTest.singleLong;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The external path, pointed at a server this test owns (as SHARDWISE_TEST_MYSQL would point at one). */
class ExternalServerTest {

    private static ControllableServer owned;

    @BeforeAll
    static void startServerToPointAt() {
        owned = TestBackends.dedicated();
    }

    @AfterAll
    static void stopIt() {
        owned.close();
    }

    @Test
    void externalServerRunsSqlAndCloseLeavesItRunning() throws SQLException {
        MysqlServer external = ExternalServer.connect(new ServerAddress("root", "", owned.host(), owned.port()));
        assertEquals(BackendKind.EXTERNAL, external.kind());
        assertEquals(owned.version(), external.version());
        assertTrue(external.describe().startsWith("external " + owned.host() + ":" + owned.port()), external.describe());
        String schema = TestBackends.uniqueSchemaName("external");
        external.createSchema(schema);
        try (Connection c = external.connect(schema); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (v INT)");
            s.execute("INSERT INTO t VALUES (7)");
            assertEquals(7, singleLong(s, "SELECT v FROM t"));
        }

        external.close();

        assertTrue(owned.isRunning());
        try (Connection c = owned.connect(schema); Statement s = c.createStatement()) {
            assertEquals(7, singleLong(s, "SELECT v FROM t"));
        }
        external.dropSchema(schema);
    }

    @Test
    void unreachableExternalServerFailsNamingTheVariableAndAddress() {
        int nobodyListens = FreePort.pick();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ExternalServer.connect(new ServerAddress("root", "pw", "127.0.0.1", nobodyListens)));

        assertTrue(e.getMessage().startsWith("SHARDWISE_TEST_MYSQL names mysql://root:***@127.0.0.1:" + nobodyListens),
                e.getMessage());
        assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
    }

    @Test
    void wrongPasswordIsReportedWithTheServersErrno() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ExternalServer.connect(new ServerAddress("root", "wrong", owned.host(), owned.port())));

        assertTrue(e.getMessage().contains("errno 1045"), e.getMessage());
        assertFalse(e.getMessage().contains("wrong@"), e.getMessage());
    }
}
