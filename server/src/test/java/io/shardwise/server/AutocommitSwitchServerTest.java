package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.server.auth.NativePassword;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code SET autocommit} to a literal (Connector/J's setAutoCommit, ORMs) answered on the event loop:
 * off, or on while on, only flips the mode; on while off commits the open native transaction on its
 * connections from the loop. Around relayed statements no command reaches a session thread, and every
 * answer is, packet for packet (status flags: IN_TRANS, AUTOCOMMIT), a relay-off server's; what was
 * committed or rolled back is as asked.
 */
class AutocommitSwitchServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("acswitch");

    @Test
    void setAutocommitAroundRelayedStatementsIsAnsweredOnTheLoopAsTheSessionThreadAnswersIt() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            SampleServer.column(s, "SELECT k FROM sbtest1 WHERE id = 1");
            s.executeUpdate("UPDATE sbtest1 SET k = 1 WHERE id = 0"); // warms the shape: only a cached plan relays
        }
        List<String> before = sample.column("SELECT k FROM sbtest1 WHERE id IN (51, 52) ORDER BY id");
        List<String> script = List.of("SET autocommit = 1", "SET autocommit=0", "SELECT k FROM sbtest1 WHERE id = 51",
                "UPDATE sbtest1 SET k = 5151 WHERE id = 51", "COMMIT", "UPDATE sbtest1 SET k = 1 WHERE id = 52", "ROLLBACK",
                "UPDATE sbtest1 SET k = 5252 WHERE id = 52", "SET autocommit = 1", "SET @@session.autocommit = OFF",
                "UPDATE sbtest1 SET k = 1 WHERE id = 51", "SET SESSION autocommit=0", "ROLLBACK", "SET autocommit = ON",
                "BEGIN", "UPDATE sbtest1 SET k = 1 WHERE id = 51", "SET autocommit = 1", "ROLLBACK", "set @@autocommit := false",
                "SET autocommit = true");
        List<List<String>> answers = new ArrayList<>();
        try (ShardwiseServer plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0)) {
            for (ShardwiseServer server : List.of(sample.server, plain)) {
                long hops = sample.server.sessionCommands();
                List<String> out = new ArrayList<>();
                try (RawClient client = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
                    for (String sql : script) {
                        List<String> packets = RelayServerTest.exchange(client, sql);
                        out.add(sql + " -> " + (sql.startsWith("SELECT") ? packets.size() + " packets" : packets));
                    }
                }
                if (server == sample.server) {
                    assertEquals(hops, sample.server.sessionCommands(), "no command on a session thread: each was answered on the loop");
                    assertEquals(0, sample.server.pinnedConnections());
                }
                answers.add(out);
                assertEquals(List.of("5151", "5252"), sample.column("SELECT k FROM sbtest1 WHERE id IN (51, 52) ORDER BY id"),
                        "committed by COMMIT and by SET autocommit = 1; the rest rolled back");
                try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
                    s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(0) + " WHERE id = 51");
                    s.executeUpdate("UPDATE sbtest1 SET k = " + before.get(1) + " WHERE id = 52");
                }
            }
        }
        assertEquals(String.join("\n", answers.get(1)), String.join("\n", answers.get(0)), "the loop's answers are the session thread's");
    }
}
