package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Prepare-time column metadata and cursors (COM_STMT_FETCH) end to end: Connector/J with
 * {@code useServerPrepStmts} and {@code useCursorFetch} through the server against the sharded
 * sample, compared with Connector/J on the unsharded copy; and the packets themselves with a raw client.
 */
class CursorFetchServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("cursor");

    private static final String[] QUERIES = {
            "SELECT * FROM orders WHERE user_id = ? ORDER BY order_id",
            "SELECT order_id, amount FROM orders WHERE order_id > ? ORDER BY created_at, order_id",
            "SELECT status, COUNT(*) AS n, SUM(amount), AVG(amount) FROM orders WHERE order_id > ? GROUP BY status ORDER BY status",
            "SELECT u.name, c.name AS country FROM users u JOIN countries c ON u.country_code = c.code WHERE u.user_id > ? ORDER BY u.user_id",
            "SELECT id, k, c FROM sbtest1 WHERE id BETWEEN ? AND 400 ORDER BY c",
    };

    /** Labels, type names, precision and scale as Connector/J reads them, or "no metadata". */
    private static String describe(ResultSetMetaData md) throws SQLException {
        if (md == null) {
            return "no metadata";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            sb.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append('(').append(md.getPrecision(i))
                    .append(',').append(md.getScale(i)).append(")|");
        }
        return sb.toString();
    }

    @Test
    void prepareAnnouncesTheColumnsOneDatabaseAnnounces() throws Exception {
        List<String> statements = new ArrayList<>(List.of(QUERIES));
        statements.add("UPDATE orders SET status = status WHERE order_id = ?");
        statements.add("BEGIN");
        try (Connection proxied = sample.connect("app", "&useServerPrepStmts=true");
             Connection plain = java.sql.DriverManager.getConnection(sample.backend.jdbcUrl(sample.whole) + "&useServerPrepStmts=true",
                     sample.backend.user(), sample.backend.password())) {
            for (String sql : statements) {
                try (PreparedStatement viaProxy = proxied.prepareStatement(sql); PreparedStatement viaDirect = plain.prepareStatement(sql)) {
                    assertEquals(describe(viaDirect.getMetaData()), describe(viaProxy.getMetaData()), sql);
                }
            }
        }
    }

    @Test
    void aStatementThatCannotBePreparedGetsItsErrorAsFromOneDatabase() throws Exception {
        try (Connection proxied = sample.connect("app", "&useServerPrepStmts=true")) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (PreparedStatement ps = proxied.prepareStatement("SELEC order_id FROM orders WHERE user_id = ?")) {
                    ps.setLong(1, 7);
                    ps.execute();
                }
            });
            assertEquals(1064, e.getErrorCode());
            SQLException missing = assertThrows(SQLException.class, () -> {
                try (PreparedStatement ps = proxied.prepareStatement("SELECT nope FROM orders WHERE user_id = ?")) {
                    ps.setLong(1, 7);
                    ps.executeQuery().close();
                }
            });
            assertEquals(1054, missing.getErrorCode());
        }
    }

    /** Every row of each query, as text, read with {@code fetchSize} rows per round trip. */
    private static List<String> rows(Connection c, int fetchSize) throws SQLException {
        List<String> out = new ArrayList<>();
        for (String sql : QUERIES) {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setFetchSize(fetchSize);
                ps.setLong(1, sql.contains("user_id = ?") ? 7 : 1);
                try (ResultSet rs = ps.executeQuery()) {
                    out.add(describe(rs.getMetaData()));
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        StringBuilder row = new StringBuilder();
                        for (int i = 1; i <= n; i++) {
                            row.append(rs.getString(i)).append('|');
                        }
                        out.add(row.toString());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void cursorFetchReturnsTheRowsOfOneDatabaseWhateverTheFetchSize() throws Exception {
        try (Connection plain = sample.direct()) {
            List<String> expected = rows(plain, 0);
            assertTrue(expected.size() > 600, "the queries return rows enough for many fetches: " + expected.size());
            for (int fetchSize : new int[] {1, 7, 1000}) {
                try (Connection proxied = sample.connect("app", "&useCursorFetch=true&defaultFetchSize=" + fetchSize)) {
                    assertEquals(expected, rows(proxied, fetchSize), "fetch size " + fetchSize);
                }
            }
            try (Connection proxied = sample.connect("app", "&useCursorFetch=true&defaultFetchSize=7");
                 PreparedStatement ps = proxied.prepareStatement("SELECT * FROM orders ORDER BY order_id")) {
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertTrue(sample.engine.activeConnections() > 0, "rows stream from the backend as the client fetches them");
                }
            }
        }
    }

    @Test
    void aCursorInATransactionKeepsItsRowsWhenOtherStatementsRunBetweenFetches() throws Exception {
        String sql = "SELECT order_id, status FROM orders WHERE order_id > ? ORDER BY order_id";
        try (Connection proxied = sample.connect("app", "&useCursorFetch=true&defaultFetchSize=5"); Connection plain = sample.direct()) {
            List<String> expected = new ArrayList<>();
            try (PreparedStatement ps = plain.prepareStatement(sql)) {
                ps.setLong(1, 0);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        expected.add(rs.getString(1) + "|" + rs.getString(2));
                    }
                }
            }
            proxied.setAutoCommit(false);
            List<String> actual = new ArrayList<>();
            try (PreparedStatement ps = proxied.prepareStatement(sql);
                 PreparedStatement other = proxied.prepareStatement("SELECT COUNT(*) FROM orders WHERE user_id = ?")) {
                ps.setLong(1, 0);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        actual.add(rs.getString(1) + "|" + rs.getString(2));
                        if (actual.size() % 100 == 3) {
                            other.setLong(1, actual.size());
                            try (ResultSet count = other.executeQuery()) {
                                assertTrue(count.next());
                            }
                        }
                    }
                }
            }
            proxied.commit();
            assertEquals(expected, actual);
        }
    }

    private static int prepare(RawClient c, String sql) throws Exception {
        c.command(StmtCommand.COM_STMT_PREPARE, sql);
        RawClient.Reply ok = c.read();
        assertEquals(0x00, ok.header());
        ByteBuf prepared = Unpooled.wrappedBuffer(ok.payload()).skipBytes(1);
        int id = prepared.readIntLE();
        int columns = prepared.readUnsignedShortLE();
        int parameters = prepared.readUnsignedShortLE();
        for (int i = 0; i < columns + parameters; i++) {
            c.read(); // DEPRECATE_EOF: no EOF after either group
        }
        return id;
    }

    private static void send(RawClient c, int code, int id, int... ints) throws Exception {
        ByteBuf b = Unpooled.buffer().writeByte(code).writeIntLE(id);
        for (int v : ints) {
            b.writeByte(v);
        }
        byte[] payload = new byte[b.readableBytes()];
        b.readBytes(payload);
        c.send(0, payload);
    }

    private static void fetch(RawClient c, int id, int rows) throws Exception {
        send(c, StmtCommand.COM_STMT_FETCH, id, rows, rows >> 8, rows >> 16, rows >> 24);
    }

    /** The status of an OK packet that ends rows (header 0xFE under DEPRECATE_EOF): after affected rows and insert id. */
    private static ServerStatus endStatus(RawClient.Reply reply) {
        assertEquals(0xFE, reply.header(), "the end of rows");
        ByteBuf b = Unpooled.wrappedBuffer(reply.payload()).skipBytes(1);
        io.shardwise.server.protocol.Wire.readLenenc(b);
        io.shardwise.server.protocol.Wire.readLenenc(b);
        return new ServerStatus(b.readUnsignedShortLE());
    }

    @Test
    void executeOpensACursorThatFetchReadsInBatchesAndCloseReleasesTheBackend() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            int id = prepare(c, "SELECT order_id FROM orders ORDER BY order_id LIMIT 5");
            send(c, StmtCommand.COM_STMT_EXECUTE, id, ExecuteRequestFlags.CURSOR, 1, 0, 0, 0);
            assertEquals(1, c.read().payload()[0], "one column");
            assertEquals("order_id", c.read().as(ColumnDefinition::decode).name());
            ServerStatus opened = endStatus(c.read());
            assertTrue(opened.cursorExists(), "no rows yet: a cursor exists");
            fetch(c, id, 2);
            assertEquals(0x00, c.read().header());
            assertEquals(0x00, c.read().header());
            ServerStatus more = endStatus(c.read());
            assertTrue(more.cursorExists() && !more.lastRowSent(), "rows are left");
            fetch(c, id, 3);
            for (int i = 0; i < 3; i++) {
                assertEquals(0x00, c.read().header(), "row " + i);
            }
            ServerStatus last = endStatus(c.read());
            assertTrue(last.lastRowSent() && !last.cursorExists(), "the fetch that sends the last row says so");
            fetch(c, id, 1);
            assertEquals(1421, c.readError().errno(), "the cursor closed with its last row");

            // a long result: the cursor streams on a backend connection until the statement closes
            int scan = prepare(c, "SELECT * FROM orders ORDER BY order_id");
            send(c, StmtCommand.COM_STMT_EXECUTE, scan, ExecuteRequestFlags.CURSOR, 1, 0, 0, 0);
            int columns = c.read().payload()[0];
            for (int i = 0; i < columns; i++) {
                c.read();
            }
            assertTrue(endStatus(c.read()).cursorExists());
            fetch(c, scan, 10);
            for (int i = 0; i < 10; i++) {
                assertEquals(0x00, c.read().header());
            }
            assertTrue(endStatus(c.read()).cursorExists());
            assertTrue(sample.engine.activeConnections() > 0, "the open cursor streams from the backend");
            send(c, StmtCommand.COM_STMT_CLOSE, scan);
            c.command(io.shardwise.server.protocol.Command.COM_PING, "");
            assertEquals(0x00, c.read().header());
            assertEquals(0, sample.engine.activeConnections(), "closing the statement released its cursor's connection");
        }
    }

    @Test
    void withoutDeprecateEofTheCursorIsAnnouncedAndEndedByEofPackets() throws Exception {
        Capabilities old = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF);
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, old)) {
            c.command(StmtCommand.COM_STMT_PREPARE, "SELECT order_id, status FROM orders WHERE order_id > ? ORDER BY order_id LIMIT 3");
            ByteBuf prepared = Unpooled.wrappedBuffer(c.read().payload()).skipBytes(1);
            int id = prepared.readIntLE();
            assertEquals(2, prepared.readUnsignedShortLE(), "columns");
            assertEquals(1, prepared.readUnsignedShortLE(), "parameters");
            c.read(); // the parameter
            assertEquals(0xFE, c.read().header(), "EOF after the parameters");
            assertEquals("order_id", c.read().as(ColumnDefinition::decode).name());
            assertEquals("status", c.read().as(ColumnDefinition::decode).name());
            assertEquals(0xFE, c.read().header(), "EOF after the columns");
            // flags: cursor; one iteration; NULL bitmap; types bound: LONGLONG; the value 0
            ByteBuf execute = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(id)
                    .writeByte(ExecuteRequestFlags.CURSOR).writeIntLE(1).writeByte(0).writeByte(1).writeShortLE(8).writeLongLE(0);
            byte[] payload = new byte[execute.readableBytes()];
            execute.readBytes(payload);
            c.send(0, payload);
            assertEquals(2, c.read().payload()[0]);
            c.read();
            c.read();
            assertTrue(eofStatus(c.read()).cursorExists(), "one EOF, carrying CURSOR_EXISTS");
            fetch(c, id, 5);
            for (int i = 0; i < 3; i++) {
                assertEquals(0x00, c.read().header());
            }
            assertTrue(eofStatus(c.read()).lastRowSent());
        }
    }

    private static ServerStatus eofStatus(RawClient.Reply reply) {
        assertEquals(0xFE, reply.header());
        assertEquals(5, reply.payload().length, "an EOF packet, not an OK");
        return new ServerStatus(Unpooled.wrappedBuffer(reply.payload()).skipBytes(3).readUnsignedShortLE());
    }

    @Test
    void disconnectingWithAnOpenCursorReleasesTheBackend() throws Exception {
        try (RawClient c = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            int id = prepare(c, "SELECT * FROM order_items ORDER BY item_id");
            send(c, StmtCommand.COM_STMT_EXECUTE, id, ExecuteRequestFlags.CURSOR, 1, 0, 0, 0);
            int columns = c.read().payload()[0];
            for (int i = 0; i < columns; i++) {
                c.read();
            }
            assertTrue(endStatus(c.read()).cursorExists());
            assertTrue(sample.engine.activeConnections() > 0);
        } // the after-each check waits for every backend connection to come back
    }

    @Test
    void aCursorOnAStatementWithoutRowsIsJustItsOk() throws Exception {
        try (Connection proxied = sample.connect("app", "&useCursorFetch=true&defaultFetchSize=2");
             PreparedStatement ps = proxied.prepareStatement("UPDATE orders SET status = status WHERE order_id = ?")) {
            assertNull(ps.getMetaData());
            ps.setLong(1, -1);
            assertEquals(0, ps.executeUpdate());
            try (Statement st = proxied.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
                assertTrue(rs.next());
            }
        }
    }

    /** COM_STMT_EXECUTE's flags byte. */
    private static final class ExecuteRequestFlags {
        static final int CURSOR = io.shardwise.server.protocol.ExecuteRequest.CURSOR_TYPE_READ_ONLY;
    }
}
