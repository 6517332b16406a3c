package io.shardwise.server;

import static io.shardwise.server.PreparedRelayServerTest.execute;
import static io.shardwise.server.PreparedRelayServerTest.prepare;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.PreparedRelayServerTest.Param;
import io.shardwise.server.auth.NativePassword;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The prepared-statement relay when the backend kills its connections: a fixture of its own, since
 * the kill takes the engine pool's idle connections too (nothing here uses them afterwards).
 */
class PreparedRelayReconnectTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("prekill");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    /**
     * A backend connection that goes away (KILLed on the backend) takes its prepared statements with
     * it: the next execution opens a new relay connection, prepares there and is relayed as before.
     */
    @Test
    void executionsAfterTheBackendKilledTheRelayConnectionsArePreparedAgainAndRelayed() throws Exception {
        String sql = "SELECT * FROM orders WHERE user_id = ?";
        try (RawClient viaEngine = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             Connection admin = sample.backend.connect(null)) {
            int expectedId = prepare(viaEngine, sql);
            int id = prepare(viaRelay, sql);
            List<String> expected = execute(viaEngine, expectedId, Param.longlong(7));
            long before = sample.server.relayedStatements();
            assertEquals(expected, execute(viaRelay, id, Param.longlong(7)));
            assertEquals(before + 1, sample.server.relayedStatements());
            List<Long> relayConnections = sleepingConnections(admin);
            assertTrue(!relayConnections.isEmpty());
            try (java.sql.Statement s = admin.createStatement()) {
                for (long thread : relayConnections) {
                    s.execute("KILL CONNECTION " + thread);
                }
            }
            io.shardwise.testkit.Await.until("the backend closed the killed connections",
                    () -> sleepingConnections(admin).stream().noneMatch(relayConnections::contains));
            for (int i = 0; i < 3; i++) {
                assertEquals(expected, execute(viaRelay, id, Param.longlong(7)), "execution " + i + " after the kill");
            }
            assertEquals(before + 4, sample.server.relayedStatements(), "relayed again");
        }
    }

    /** The backend's idle connections to this fixture's databases (the relay's, and the engine pool's). */
    private static List<Long> sleepingConnections(Connection admin) {
        List<Long> ids = new ArrayList<>();
        try (java.sql.Statement s = admin.createStatement(); ResultSet rs = s.executeQuery(
                "SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND = 'Sleep' AND DB LIKE '"
                        + sample.target.databasePrefix() + "\\_%' AND ID <> CONNECTION_ID()")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return ids;
    }

}
