package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.OkPacket;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** COM_FIELD_LIST, COM_RESET_CONNECTION, COM_SET_OPTION, COM_STATISTICS, COM_PROCESS_KILL and KILL through the server. */
class ConnectionCommandsTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("conn");

    private static int port() {
        return sample.server.address().getPort();
    }

    private static RawClient raw() throws Exception {
        RawClient c = RawClient.connect(port(), "app", "app", "shop", NativePassword.PLUGIN);
        assertEquals(0, c.loginReply.header(), "logged in");
        return c;
    }

    private static Connection viaServer() throws SQLException {
        return sample.connect("app", "");
    }

    @Test
    void fieldListDescribesTheLogicalTableLikeTheUnshardedOne() throws Exception {
        List<String> expected = new ArrayList<>();
        try (Connection plain = sample.backend.connect(sample.whole); Statement s = plain.createStatement();
             ResultSet rs = s.executeQuery("SHOW COLUMNS FROM orders")) {
            while (rs.next()) {
                expected.add(rs.getString(1));
            }
        }
        try (RawClient c = raw()) {
            c.command(ConnectionCommand.COM_FIELD_LIST, "orders\0");
            List<String> names = new ArrayList<>();
            for (RawClient.Reply r = c.read(); r.header() != 0xFE; r = c.read()) {
                ColumnDefinition d = r.as(ColumnDefinition::decode);
                assertEquals("shop", d.schema());
                assertEquals("orders", d.orgTable());
                names.add(d.name());
            }
            assertEquals(expected, names);
            c.command(ConnectionCommand.COM_FIELD_LIST, "orders_0\0");
            assertEquals(1146, c.readError().errno(), "a physical table is not served");
        }
    }

    @Test
    void resetConnectionRestoresAutocommitAndSetOptionAndStatisticsAnswer() throws Exception {
        try (RawClient c = raw()) {
            c.command(0x03, "SET autocommit = 0");
            assertFalse(c.read().as(OkPacket::decode).status().autocommit());
            c.command(ConnectionCommand.COM_RESET_CONNECTION, "");
            assertTrue(c.read().as(OkPacket::decode).status().autocommit());

            c.send(0, new byte[] {ConnectionCommand.COM_SET_OPTION, 0, 0});
            assertEquals(0xFE, c.read().header(), "multi-statements on: EOF");
            c.send(0, new byte[] {ConnectionCommand.COM_SET_OPTION, 5, 0});
            assertEquals(1047, c.readError().errno());

            c.command(ConnectionCommand.COM_STATISTICS, "");
            String statistics = new String(c.read().payload(), StandardCharsets.UTF_8);
            assertTrue(statistics.matches("Uptime: \\d+  Threads: \\d+  Questions: \\d+  .*"), statistics);
        }
    }

    @Test
    void killClosesAnotherSessionOfTheSameUserAndUnknownIdsAreRefused() throws Exception {
        try (Connection victim = viaServer(); Connection killer = viaServer(); Statement k = killer.createStatement()) {
            long id;
            try (Statement s = victim.createStatement(); ResultSet rs = s.executeQuery("SELECT CONNECTION_ID()")) {
                assertTrue(rs.next());
                id = rs.getLong(1);
            }
            k.execute("KILL QUERY " + id);
            assertTrue(victim.isValid(5), "KILL QUERY leaves the connection open");
            k.execute("KILL " + id);
            assertThrows(SQLException.class, () -> {
                try (Statement s = victim.createStatement()) {
                    s.executeQuery("SELECT 1").close();
                }
            });
            assertEquals(1094, assertThrows(SQLException.class, () -> k.execute("KILL 987654")).getErrorCode());
            try (RawClient c = raw()) {
                c.send(0, new byte[] {ConnectionCommand.COM_PROCESS_KILL, (byte) 0xD2, 0x04, 0, 0}); // 1234
                assertEquals(1094, c.readError().errno());
            }
        }
    }

    @Test
    void aClientOverTheConnectionLimitGetsTooManyConnectionsAndALaterOneGetsIn() throws Exception {
        try (ShardwiseServer limited = ShardwiseServer.start(sample.engine, "127.0.0.1", 0, new ShardwiseServer.Limits(1, Duration.ZERO))) {
            String url = "jdbc:mysql://127.0.0.1:" + limited.address().getPort() + "/shop?user=app&password=app&sslMode=DISABLED";
            try (Connection first = DriverManager.getConnection(url)) {
                assertTrue(first.isValid(5));
                SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url).close());
                assertEquals(1040, refused.getErrorCode(), refused.toString());
                assertEquals("08004", refused.getSQLState());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while (true) {
                try (Connection again = DriverManager.getConnection(url)) {
                    assertTrue(again.isValid(5));
                    break;
                } catch (SQLException stillCounted) {
                    if (System.nanoTime() > deadline) {
                        throw stillCounted;
                    }
                    Thread.sleep(20);
                }
            }
        }
    }

    @Test
    void anIdleClientIsToldWhyAndDisconnectedWhileABusyOneIsNot() throws Exception {
        try (ShardwiseServer idle = ShardwiseServer.start(sample.engine, "127.0.0.1", 0, new ShardwiseServer.Limits(10, Duration.ofMillis(300)));
             RawClient c = RawClient.connect(idle.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            assertEquals(0, c.loginReply.header(), "logged in");
            c.command(0x03, "SELECT SLEEP(0.6)");
            RawClient.Reply columnCount = c.read();
            assertEquals(1, columnCount.header(), "the statement outlived the idle timeout and answered");
            for (RawClient.Reply r = c.read(); r.header() != 0xFE || r.payload().length > 9; r = c.read()) {
                // column definition and row, until the end of the rows
            }
            assertEquals(4031, c.readError().errno());
            assertThrows(EOFException.class, c::read);
        }
    }
}
