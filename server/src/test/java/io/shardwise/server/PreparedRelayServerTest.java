package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.BinaryType;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The relay of prepared statements' executions against the engine path: the fixture's server relays
 * (the default), a second server over the same engine does not, and a client must not tell them
 * apart, byte for byte, in the execute's response or the SHOW WARNINGS that follows, whatever the
 * parameter types. Running each execution on the plain server first makes its plan a cache hit,
 * which is what the relay takes.
 */
class PreparedRelayServerTest {
    private static final int COM_STMT_PREPARE = 0x16;
    private static final int COM_STMT_EXECUTE = 0x17;
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("prelay");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    /** One bound value as COM_STMT_EXECUTE carries it: type, flag byte, value bytes (null: SQL NULL). */
    record Param(int type, int flag, byte[] value) {
        static Param longlong(long v) {
            return new Param(BinaryType.LONGLONG, 0, le(8).putLong(v).array());
        }

        static Param tiny(int v) {
            return new Param(BinaryType.TINY, 0, new byte[] {(byte) v});
        }

        static Param unsignedLong(long v) {
            return new Param(BinaryType.LONG, BinaryType.UNSIGNED_PARAMETER, le(4).putInt((int) v).array());
        }

        static Param dbl(double v) {
            return new Param(BinaryType.DOUBLE, 0, le(8).putDouble(v).array());
        }

        static Param text(int type, byte[] bytes) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(bytes.length); // every value here is shorter than 251 bytes
            out.writeBytes(bytes);
            return new Param(type, 0, out.toByteArray());
        }

        static Param varchar(String v) {
            return text(BinaryType.VAR_STRING, v.getBytes(StandardCharsets.UTF_8));
        }

        static Param decimal(String v) {
            return text(BinaryType.NEWDECIMAL, v.getBytes(StandardCharsets.US_ASCII));
        }

        static Param blob(byte... v) {
            return text(BinaryType.BLOB, v);
        }

        static Param datetime(int year, int month, int day, int hour, int minute, int second) {
            return new Param(BinaryType.DATETIME, 0, le(8).put((byte) 7).putShort((short) year).put((byte) month).put((byte) day)
                    .put((byte) hour).put((byte) minute).put((byte) second).array());
        }

        static Param date(int year, int month, int day) {
            return new Param(BinaryType.DATE, 0, le(5).put((byte) 4).putShort((short) year).put((byte) month).put((byte) day).array());
        }

        static Param nul() {
            return new Param(BinaryType.NULL, 0, null);
        }

        private static ByteBuffer le(int n) {
            return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    record Case(String sql, boolean relayed, Param... params) {}

    private static final List<Case> CASES = List.of(
            new Case("SELECT * FROM orders WHERE user_id = ?", true, Param.longlong(7)),
            new Case("SELECT * FROM orders WHERE user_id = ?", true, Param.tiny(7)),
            new Case("SELECT * FROM orders WHERE user_id = ?", true, Param.unsignedLong(7)),
            new Case("SELECT * FROM orders WHERE user_id = ?", false, Param.varchar("7")),
            new Case("SELECT * FROM orders WHERE user_id = ?", false, Param.decimal("7")),
            new Case("SELECT * FROM orders WHERE user_id = ?", false, Param.nul()),
            new Case("SELECT * FROM users WHERE user_id = ? AND name <> ?", true, Param.longlong(3), Param.varchar("Zoë 日本 😀")),
            new Case("SELECT * FROM users WHERE user_id = ? AND name <> ?", true, Param.longlong(3), Param.blob((byte) 0xFF, (byte) 0, (byte) 'a')),
            new Case("SELECT * FROM users WHERE user_id = ? AND name <> ?", true, Param.longlong(3), Param.nul()),
            new Case("SELECT * FROM events WHERE created_at = ?", true, Param.datetime(2025, 3, 1, 0, 0, 0)),
            new Case("SELECT id, kind FROM events WHERE created_at >= ? AND created_at < ?", false, Param.date(2025, 1, 1),
                    Param.datetime(2025, 6, 1, 12, 30, 0)),
            new Case("SELECT id, k, c FROM sbtest1 WHERE id = ?", true, Param.longlong(5)),
            new Case("SELECT order_id, amount, status FROM orders WHERE user_id = ? AND amount > ?", false, Param.longlong(7), Param.dbl(1.5)),
            new Case("SELECT order_id, amount, status FROM orders WHERE user_id = ? AND amount > ?", true, Param.longlong(7),
                    Param.decimal("10.50")),
            new Case("SELECT order_id FROM orders WHERE user_id = ? AND order_id = ?", true, Param.longlong(7), Param.varchar("1x")),
            new Case("SELECT order_id, amount * ? FROM orders WHERE user_id = ?", false, Param.decimal("2.5"), Param.longlong(7)),
            new Case("SELECT order_id, ? AS tag FROM orders WHERE user_id = ?", false, Param.varchar("abc"), Param.longlong(7)),
            new Case("SELECT order_id, ? AS tag FROM orders WHERE user_id = ?", false, Param.longlong(5), Param.longlong(7)),
            new Case("SELECT order_id, ? AS tag FROM orders WHERE user_id = ?", false, Param.nul(), Param.longlong(7)),
            new Case("SELECT * FROM countries WHERE code = ?", true, Param.varchar("DE")),
            new Case("SELECT * FROM promotions WHERE discount > ?", false, Param.dbl(0.5)),
            new Case("SELECT * FROM promotions WHERE discount > ?", true, Param.decimal("0.5")),
            new Case("SELECT order_id FROM orders WHERE user_id = ? ORDER BY order_id LIMIT ?", false, Param.longlong(7), Param.longlong(2)));

    @Test
    void relayedExecutionsAreByteForByteThoseOfTheEnginePath() throws Exception {
        for (Capabilities caps : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF & ~Capabilities.FOUND_ROWS),
                MetadataCacheServerTest.CACHING)) { // MariaDB's metadata cache: both paths omit the definitions the client holds
            try (RawClient viaEngine = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN, caps);
                 RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop",
                         NativePassword.PLUGIN, caps)) {
                for (Case c : CASES) {
                    String what = c.sql() + " " + describe(c.params());
                    int expectedId = prepare(viaEngine, c.sql());
                    int id = prepare(viaRelay, c.sql());
                    List<String> expected = execute(viaEngine, expectedId, c.params());
                    long before = sample.server.relayedStatements();
                    List<String> actual = execute(viaRelay, id, c.params());
                    if (c.relayed()) {
                        assertEquals(before + 1, sample.server.relayedStatements(), "relayed: " + what);
                    }
                    assertEquals(expected, actual, what);
                    for (String after : List.of("SHOW WARNINGS", "SHOW ERRORS", "SELECT @@warning_count, @@error_count")) {
                        assertEquals(RelayServerTest.exchange(viaEngine, after), RelayServerTest.exchange(viaRelay, after),
                                after + " after " + what);
                    }
                }
            }
        }
    }

    @Test
    void aStatementExecutedAgainWithoutTypesReusesTheTypesItBoundLast() throws Exception {
        String sql = "SELECT * FROM orders WHERE user_id = ?";
        try (RawClient viaEngine = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            int expectedId = prepare(viaEngine, sql);
            int id = prepare(viaRelay, sql);
            assertEquals(execute(viaEngine, expectedId, Param.tiny(7)), execute(viaRelay, id, Param.tiny(7)));
            long before = sample.server.relayedStatements();
            // the client binds no types the second time (new-params-bound 0): the relay sends the TINY bound before
            List<String> expected = executeUnbound(viaEngine, expectedId, new byte[] {9});
            assertEquals(expected, executeUnbound(viaRelay, id, new byte[] {9}));
            assertEquals(before + 1, sample.server.relayedStatements());
        }
    }

    /**
     * sysbench's prepared point select (libmariadb binds the type with the first execution only): every
     * later execution is relayed from the event loop, none wakes the session's thread, each answers as
     * the engine path does (the backend statement runs with the type bound by the first, which the relay
     * no longer sends again).
     */
    @Test
    void executionsOfAPreparedPointSelectAreRelayedWithoutTheSessionThread() throws Exception {
        String sql = "SELECT c FROM sbtest1 WHERE id = ?";
        try (RawClient viaEngine = RawClient.connect(plain.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN);
             RawClient viaRelay = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            int expectedId = prepare(viaEngine, sql);
            int id = prepare(viaRelay, sql);
            assertEquals(execute(viaEngine, expectedId, Param.longlong(1)), execute(viaRelay, id, Param.longlong(1)));
            long hops = sample.server.sessionCommands();
            long relayed = sample.server.relayedStatements();
            for (long key = 2; key <= 41; key++) {
                byte[] value = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(key).array();
                assertEquals(executeUnbound(viaEngine, expectedId, value), executeUnbound(viaRelay, id, value), "id " + key);
            }
            assertEquals(hops, sample.server.sessionCommands(), "no execution woke the session's thread");
            assertEquals(relayed + 40, sample.server.relayedStatements(), "every execution relayed");
        }
    }

    @Test
    void connectorJWithServerSidePreparedStatementsSeesTheSameRowsThroughTheRelay() throws Exception {
        checkDriver("jdbc:mysql://127.0.0.1:%d/shop?user=app&password=app&sslMode=DISABLED&useServerPrepStmts=true"
                + "&cachePrepStmts=true&allowPublicKeyRetrieval=true");
    }

    @Test
    void theMariaDbConnectorWithServerSidePreparedStatementsSeesTheSameRowsThroughTheRelay() throws Exception {
        checkDriver("jdbc:mariadb://127.0.0.1:%d/shop?user=app&password=app&useServerPrepStmts=true");
    }

    private static void checkDriver(String urlFormat) throws Exception {
        try (Connection viaEngine = DriverManager.getConnection(urlFormat.formatted(plain.address().getPort()));
             Connection viaRelay = DriverManager.getConnection(urlFormat.formatted(sample.server.address().getPort()))) {
            String users = "SELECT * FROM users WHERE user_id = ? AND (name IS NULL OR name <> ?)";
            String orders = "SELECT order_id, amount, status, created_at FROM orders WHERE user_id = ? AND amount > ?";
            String events = "SELECT * FROM events WHERE created_at = ?";
            for (int round = 0; round < 2; round++) {
                long before = sample.server.relayedStatements();
                for (Connection c : List.of(viaEngine, viaRelay)) {
                    List<String> rows = new ArrayList<>();
                    try (PreparedStatement ps = c.prepareStatement(users)) {
                        for (long user = 1; user <= 8; user++) {
                            ps.setLong(1, user);
                            ps.setString(2, "Zoë 日本 😀");
                            rows.addAll(rows(ps));
                            ps.setInt(1, (int) user);
                            ps.setNull(2, Types.VARCHAR);
                            rows.addAll(rows(ps));
                            ps.setBytes(2, new byte[] {(byte) 0xFF, 0, 'a'});
                            rows.addAll(rows(ps));
                        }
                    }
                    try (PreparedStatement ps = c.prepareStatement(orders)) {
                        ps.setLong(1, 7);
                        ps.setBigDecimal(2, new BigDecimal("10.50"));
                        rows.addAll(rows(ps));
                        ps.setDouble(2, 0.5);
                        rows.addAll(rows(ps));
                    }
                    try (PreparedStatement ps = c.prepareStatement(events)) {
                        ps.setTimestamp(1, Timestamp.valueOf("2025-03-01 00:00:00"));
                        rows.addAll(rows(ps));
                        ps.setDate(1, Date.valueOf("2025-03-01"));
                        rows.addAll(rows(ps));
                    }
                    if (c == viaEngine) {
                        expectedRows = rows;
                    } else {
                        assertEquals(expectedRows, rows);
                        assertTrue(rows.size() > 10, "rows: " + rows.size());
                    }
                }
                if (round == 1) {
                    // per connection 28 executions, of which the 24 over users and the DECIMAL one bind relayable types
                    assertTrue(sample.server.relayedStatements() >= before + 16, "relayed "
                            + (sample.server.relayedStatements() - before) + " executions");
                }
            }
        }
    }

    private static List<String> expectedRows;

    /** The statement's column labels, types and tables, then its rows; or its error. */
    private static List<String> rows(PreparedStatement ps) {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            StringBuilder meta = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                meta.append(rs.getMetaData().getColumnLabel(i)).append(':').append(rs.getMetaData().getColumnTypeName(i))
                        .append(':').append(rs.getMetaData().getTableName(i)).append('|');
            }
            out.add(meta.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= n; i++) {
                    row.append(rs.getString(i)).append('|');
                }
                out.add(row.toString());
            }
        } catch (SQLException e) {
            // the MariaDB connector names its connection's id in messages: (conn=12)
            out.add("error " + e.getErrorCode() + " " + e.getSQLState() + " " + e.getMessage().replaceFirst("^\\(conn=\\d+\\) ", ""));
        }
        return out;
    }

    /** COM_STMT_PREPARE; reads its whole response and returns the statement id. */
    static int prepare(RawClient client, String sql) throws IOException {
        client.command(COM_STMT_PREPARE, sql);
        RawClient.Reply ok = client.read();
        if (ok.header() == ErrPacket.HEADER) {
            throw new AssertionError("prepare failed: " + ok.as(ErrPacket::decode));
        }
        ByteBuffer b = ByteBuffer.wrap(ok.payload()).order(ByteOrder.LITTLE_ENDIAN);
        int id = b.getInt(1);
        int columns = b.getShort(5) & 0xFFFF;
        int parameters = b.getShort(7) & 0xFFFF;
        int eof = client.deprecatesEof() ? 0 : 1;
        int left = (parameters > 0 ? parameters + eof : 0) + (columns > 0 ? columns + eof : 0);
        for (int i = 0; i < left; i++) {
            client.read();
        }
        return id;
    }

    /** COM_STMT_EXECUTE with the types bound; every packet of its response as "seq:hex". */
    static List<String> execute(RawClient client, int id, Param... params) throws IOException {
        ByteArrayOutputStream out = header(id);
        if (params.length > 0) {
            byte[] bitmap = new byte[(params.length + 7) / 8];
            for (int i = 0; i < params.length; i++) {
                if (params[i].value() == null) {
                    bitmap[i / 8] |= (byte) (1 << (i % 8));
                }
            }
            out.writeBytes(bitmap);
            out.write(1);
            for (Param p : params) {
                out.write(p.type());
                out.write(p.flag());
            }
            for (Param p : params) {
                if (p.value() != null) {
                    out.writeBytes(p.value());
                }
            }
        }
        client.send(0, out.toByteArray());
        return RelayServerTest.readResponse(client);
    }

    /** COM_STMT_EXECUTE of one non-NULL parameter without types (new-params-bound 0). */
    private static List<String> executeUnbound(RawClient client, int id, byte[] value) throws IOException {
        ByteArrayOutputStream out = header(id);
        out.write(0); // NULL bitmap
        out.write(0);
        out.writeBytes(value);
        client.send(0, out.toByteArray());
        return RelayServerTest.readResponse(client);
    }

    private static ByteArrayOutputStream header(int id) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(COM_STMT_EXECUTE);
        out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(id).array());
        out.write(0); // no cursor
        out.writeBytes(new byte[] {1, 0, 0, 0});
        return out;
    }

    private static String describe(Param... params) {
        StringBuilder s = new StringBuilder("[");
        for (Param p : params) {
            s.append(p.type()).append(p.value() == null ? ":NULL " : ":" + java.util.HexFormat.of().formatHex(p.value()) + " ");
        }
        return s.append(']').toString();
    }
}
