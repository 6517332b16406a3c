package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.StmtCommand;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server-side prepared statements end to end: Connector/J with {@code useServerPrepStmts} through
 * the server (binary protocol both ways) against the sharded sample data, compared value by value
 * ({@code getObject}) with plain Connector/J on the unsharded copy.
 */
class PreparedStatementServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("serverps");


    private static Connection viaServer() throws SQLException {
        return sample.connect("app", "&useServerPrepStmts=true&cachePrepStmts=true");
    }

    private static Connection direct() throws SQLException {
        return sample.direct();
    }

    private static PreparedStatement prepare(Connection c, String sql, Object... params) throws SQLException {
        PreparedStatement ps = c.prepareStatement(sql);
        bind(ps, params);
        return ps;
    }

    private static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            if (params[i] == null) {
                ps.setNull(i + 1, Types.VARCHAR);
            } else {
                ps.setObject(i + 1, params[i]);
            }
        }
    }

    /** Labels and types, then each row's getObject values (bytes as hex); sorted unless the statement orders them. */
    private static List<String> rows(PreparedStatement ps, String sql) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder labels = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                labels.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append('|');
            }
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    Object v = rs.getObject(i);
                    row.append(v instanceof byte[] b ? HexFormat.of().formatHex(b) : v == null ? "null" : v.getClass().getSimpleName() + "=" + v)
                            .append('|');
                }
                rows.add(row.toString());
            }
            if (!sql.toLowerCase().contains("order by")) {
                Collections.sort(rows);
            }
            rows.add(0, labels.toString());
            return rows;
        }
    }

    private static List<String> rows(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(c, sql, params)) {
            if (c.getMetaData().getURL().contains(":" + sample.server.address().getPort() + "/")) {
                assertEquals("ServerPreparedStatement", ps.getClass().getSimpleName(), "prepared on the server");
            }
            return rows(ps, sql);
        }
    }

    /** Since the server announces MariaDB, Connector/J names columns from each execute's definitions, not the prepare's. */
    @Test
    void eachExecuteNamesItsColumnsAsThePrepareDidNotByTheValuesBound() throws Exception {
        String sql = "SELECT order_id, amount + ? FROM orders WHERE user_id = ? ORDER BY order_id";
        try (Connection proxied = viaServer();
             Connection plain = java.sql.DriverManager.getConnection(sample.backend.jdbcUrl(sample.whole) + "&useServerPrepStmts=true",
                     sample.backend.user(), sample.backend.password())) {
            assertEquals(rows(plain, sql, 1, 7).getFirst(), rows(proxied, sql, 1, 7).getFirst());
            assertTrue(rows(proxied, sql, 1, 7).getFirst().contains("|amount + ?:"), "the prepared label, not amount + 1");
        }
    }

    @Test
    void pointAndScatterSelectsReturnTheSameValuesAsTheUnshardedDatabase() throws Exception {
        Object[][] cases = {
                {"SELECT * FROM orders WHERE user_id = ? ORDER BY order_id", 7L},
                {"SELECT order_id, status, amount, created_at FROM orders WHERE order_id = ?", 100042L},
                {"SELECT * FROM orders WHERE amount > ? ORDER BY amount DESC, order_id LIMIT 10", new BigDecimal("100.50")},
                {"SELECT * FROM orders WHERE created_at >= ? ORDER BY created_at, order_id LIMIT 7", LocalDateTime.of(2025, 6, 1, 0, 0)},
                {"SELECT user_id, COUNT(*) AS n, SUM(amount) AS total FROM orders WHERE user_id IN (?, ?, ?) GROUP BY user_id ORDER BY user_id", 7, 8, 9},
                {"SELECT COUNT(*) FROM orders WHERE status = ?", "paid"},
                {"SELECT * FROM users WHERE user_id BETWEEN ? AND ? ORDER BY user_id", 1, 30},
                {"SELECT id, k, c FROM sbtest1 WHERE id IN (?, ?, ?, ?) ORDER BY id", 1, 2, 500, 999},
                {"SELECT * FROM small ORDER BY id LIMIT ?", 5},
                {"SELECT * FROM countries ORDER BY code"},
                {"SELECT user_id, name FROM users WHERE email <=> ? ORDER BY user_id", null},
                {"SELECT order_id, amount * ? AS scaled, -order_id AS negative, TIME(created_at) AS t, DATE(created_at) AS d,"
                        + " CAST(user_id AS UNSIGNED) AS u FROM orders WHERE user_id = ? ORDER BY order_id", 1.5d, 8L},
                {"SELECT * FROM events WHERE created_at < ? ORDER BY id LIMIT 5", LocalDate.of(2025, 3, 1)},
        };
        // the reference prepares on the server too: a DOUBLE parameter is a DOUBLE there (`amount * ?` a DOUBLE),
        // where Connector/J's client-side prepare writes it as a DECIMAL literal
        try (Connection proxied = viaServer();
             Connection plain = java.sql.DriverManager.getConnection(sample.backend.jdbcUrl(sample.whole) + "&useServerPrepStmts=true",
                     sample.backend.user(), sample.backend.password())) {
            for (Object[] c : cases) {
                String sql = (String) c[0];
                Object[] params = Arrays.copyOfRange(c, 1, c.length);
                List<String> expected = rows(plain, sql, params);
                assertTrue(expected.size() > 1, "the case returns rows: " + sql);
                assertEquals(expected, rows(proxied, sql, params), sql);
            }
        }
    }

    @Test
    void aStatementIsReusedWithNewValues() throws Exception {
        String sql = "SELECT order_id, user_id, status, amount FROM orders WHERE user_id = ? ORDER BY order_id";
        try (Connection proxied = viaServer(); Connection plain = direct();
             PreparedStatement viaProxy = proxied.prepareStatement(sql); PreparedStatement viaDirect = plain.prepareStatement(sql)) {
            for (long user : new long[] {7, 8, 1, 7, 123456789}) {
                viaProxy.setLong(1, user);
                viaDirect.setLong(1, user);
                assertEquals(rows(viaDirect, sql), rows(viaProxy, sql), sql + " with " + user);
            }
        }
        // cachePrepStmts: closing and preparing again reuses the server's statement
        try (Connection proxied = viaServer(); Connection plain = direct()) {
            for (int i = 0; i < 3; i++) {
                assertEquals(rows(plain, sql, 8L), rows(proxied, sql, 8L));
            }
        }
    }

    @Test
    void writesWithParametersOfSeveralTypesLeaveTheSameRows() throws Exception {
        String insert = "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (?, ?, ?, ?, ?)";
        Object[][] inserts = {
                {900001L, 7L, "new", new BigDecimal("1.50"), LocalDateTime.of(2025, 3, 1, 10, 0)},
                {-900002L, 8, "caf\u00e9", new BigDecimal("-2.25"), LocalDateTime.of(2025, 3, 2, 10, 0, 5)},
                {900003L, 9L, null, null, LocalDateTime.of(2025, 3, 3, 0, 0)},
        };
        String update = "UPDATE orders SET status = ?, amount = amount + ? WHERE order_id = ? AND user_id = ?";
        Object[][] updates = {{"paid", new BigDecimal("0.25"), 900001L, 7L}, {"paid", 1.5d, -900002L, 8}, {null, 2, 900003L, 9L}};
        String check = "SELECT * FROM orders WHERE order_id > ? OR order_id < ? ORDER BY order_id";
        try (Connection proxied = viaServer(); Connection plain = direct();
             PreparedStatement insertProxy = proxied.prepareStatement(insert); PreparedStatement insertDirect = plain.prepareStatement(insert);
             PreparedStatement updateProxy = proxied.prepareStatement(update); PreparedStatement updateDirect = plain.prepareStatement(update)) {
            try {
                for (Object[] row : inserts) {
                    bind(insertProxy, row);
                    bind(insertDirect, row);
                    assertEquals(insertDirect.executeUpdate(), insertProxy.executeUpdate(), Arrays.toString(row));
                }
                for (Object[] row : updates) {
                    bind(updateProxy, row);
                    bind(updateDirect, row);
                    assertEquals(updateDirect.executeUpdate(), updateProxy.executeUpdate(), Arrays.toString(row));
                }
                assertEquals(rows(plain, check, 900000L, -900000L), rows(proxied, check, 900000L, -900000L));
                assertEquals(rows(plain, "SELECT order_id, amount FROM orders WHERE order_id = ?", -900002L),
                        rows(proxied, "SELECT order_id, amount FROM orders WHERE order_id = ?", -900002L));
            } finally {
                String cleanup = "DELETE FROM orders WHERE order_id > ? OR order_id < ?";
                try (PreparedStatement a = prepare(proxied, cleanup, 900000L, -900000L);
                     PreparedStatement b = prepare(plain, cleanup, 900000L, -900000L)) {
                    assertEquals(b.executeUpdate(), a.executeUpdate());
                }
            }
        }
    }

    @Test
    void anUnknownStatementIdGetsError1243AndTheConnectionStaysUsable() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            ByteBuf execute = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(4711).writeByte(0).writeIntLE(1);
            byte[] payload = new byte[execute.readableBytes()];
            execute.readBytes(payload);
            c.send(0, payload);
            ErrPacket err = c.readError();
            assertEquals(1243, err.errno());
            assertEquals("HY000", err.sqlState());
            assertEquals("Unknown prepared statement handler (4711) given to mysqld_stmt_execute", err.message());
            c.send(0, new byte[] {StmtCommand.COM_STMT_CLOSE, 1, 0, 0, 0}); // no reply, even for an unknown id
            c.command(io.shardwise.server.protocol.Command.COM_PING, "");
            assertEquals(0x00, c.read().header(), "the ping's OK is the next packet");
        }
    }

    @Test
    void prepareAnnouncesParametersResetAnswersOkAndCloseFreesTheStatement() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            c.command(StmtCommand.COM_STMT_PREPARE, "SELECT order_id FROM orders WHERE user_id = ? AND order_id > ?");
            RawClient.Reply ok = c.read();
            assertEquals(0x00, ok.header());
            ByteBuf prepared = Unpooled.wrappedBuffer(ok.payload()).skipBytes(1);
            int id = prepared.readIntLE();
            assertEquals(1, prepared.readUnsignedShortLE(), "columns");
            assertEquals(2, prepared.readUnsignedShortLE(), "parameters");
            assertEquals("?", c.read().as(io.shardwise.server.protocol.ColumnDefinition::decode).name());
            assertEquals("?", c.read().as(io.shardwise.server.protocol.ColumnDefinition::decode).name());
            io.shardwise.server.protocol.ColumnDefinition column = c.read().as(io.shardwise.server.protocol.ColumnDefinition::decode);
            assertEquals("order_id", column.name());
            assertEquals("orders", column.table(), "the logical table, never a physical one");
            assertEquals(io.shardwise.server.protocol.ColumnDefinition.TYPE_LONGLONG, column.type());
            // DEPRECATE_EOF: no EOF after the definitions, so the next packet answers the reset
            byte[] sendLongData = {StmtCommand.COM_STMT_SEND_LONG_DATA, (byte) id, (byte) (id >> 8), 0, 0, 0, 0, 'x'};
            c.send(0, sendLongData); // no reply
            c.send(0, new byte[] {StmtCommand.COM_STMT_RESET, (byte) id, (byte) (id >> 8), 0, 0});
            assertEquals(0x00, c.read().header(), "OK for the reset");
            c.send(0, new byte[] {StmtCommand.COM_STMT_CLOSE, (byte) id, (byte) (id >> 8), 0, 0}); // no reply
            c.send(0, new byte[] {StmtCommand.COM_STMT_RESET, (byte) id, (byte) (id >> 8), 0, 0});
            assertEquals("Unknown prepared statement handler (" + id + ") given to mysqld_stmt_reset", c.readError().message());
        }
    }

    @Test
    void resettingTheConnectionForgetsItsPreparedStatements() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            c.command(StmtCommand.COM_STMT_PREPARE, "SELECT 1 FROM orders WHERE user_id = ?");
            RawClient.Reply ok = c.read();
            assertEquals(0x00, ok.header());
            int id = Unpooled.wrappedBuffer(ok.payload()).skipBytes(1).readIntLE();
            c.read(); // the parameter's definition
            c.read(); // the column's
            c.command(io.shardwise.server.protocol.ConnectionCommand.COM_RESET_CONNECTION, "");
            assertEquals(0x00, c.read().header(), "OK for the reset");
            c.send(0, new byte[] {StmtCommand.COM_STMT_RESET, (byte) id, (byte) (id >> 8), 0, 0});
            assertEquals(1243, c.readError().errno(), "the statement went with the reset, as in MySQL");
        }
    }

    @Test
    void longDataSentInPiecesBindsOneParameter() throws Exception {
        String sql = "SELECT order_id, status FROM orders WHERE status = ? AND user_id = ? ORDER BY order_id";
        try (Connection proxied = viaServer(); Connection plain = direct();
             PreparedStatement viaProxy = proxied.prepareStatement(sql); PreparedStatement viaDirect = plain.prepareStatement(sql)) {
            for (PreparedStatement ps : List.of(viaProxy, viaDirect)) {
                ps.setCharacterStream(1, new java.io.StringReader("paid"));
                ps.setLong(2, 7);
            }
            List<String> expected = rows(viaDirect, sql);
            assertTrue(expected.size() > 1);
            assertEquals(expected, rows(viaProxy, sql));
        }
    }
}
