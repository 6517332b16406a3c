package io.shardwise.server.relay;

import static io.shardwise.server.protocol.WireBytes.bytes;
import static io.shardwise.server.protocol.WireBytes.concat;
import static io.shardwise.server.protocol.WireBytes.cuts;
import static io.shardwise.server.protocol.WireBytes.wirePacket;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.Leaks;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link PreparedRelay} under a {@link QueryRelay} at the byte level, over a logged-in
 * {@link BackendConnection} on an {@link EmbeddedChannel}: the statement is prepared on the
 * connection once, each execution carries the client's bitmap and values with the types bound and
 * the backend's statement id, a backend that forgot the statement (1243) gets it prepared again
 * unseen by the client, and the per-connection statements stay bounded. Backend responses are fed
 * whole, byte by byte and split at every boundary.
 */
class PreparedRelayTest {
    private static final ServerStatus AUTOCOMMIT = ServerStatus.of(false, true);
    private static final Capabilities CLIENT = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
    private static final String SQL = "SELECT id, body FROM notes_0 WHERE id = ?";
    private static final HexFormat HEX = HexFormat.of();

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    private static final class Session implements RelaySession {
        final List<String> calls = new ArrayList<>();

        @Override
        public RelayPlan plan(String sql) {
            throw new AssertionError("the relay never plans");
        }

        @Override
        public void started(String sql, RelayPlan plan) {}

        @Override
        public String translate(String backend, int errno, String message) {
            return message;
        }

        @Override
        public void warnings(int unit, String backend, int count, List<Condition> conditions) {}

        @Override
        public void failed(int errno, String message) {
            calls.add("failed " + errno);
        }

        @Override
        public void ended() {
            calls.add("ended");
        }

        @Override
        public int warningCount() {
            return 0;
        }

        @Override
        public boolean inTransaction() {
            return false;
        }

        @Override
        public boolean autocommit() {
            return true;
        }

        @Override
        public void killQuery(String backend, long threadId) {}

        @Override
        public boolean noBackslashEscapes() {
            return false;
        }

        @Override
        public void wrote(long affectedRows, long lastInsertId) {
            throw new AssertionError("prepared relays only read");
        }

        @Override
        public void attach(io.shardwise.core.execute.NativeTransaction transaction) {
            throw new AssertionError("prepared relays run in autocommit mode");
        }

        @Override
        public io.shardwise.core.execute.NativeTransaction nativeTransaction() {
            return null;
        }

        @Override
        public void nativeEnded() {
            throw new AssertionError("prepared relays run in autocommit mode");
        }
    }

    private static final class Fixture {
        final Session session = new Session();
        final EmbeddedChannel client = new EmbeddedChannel(PacketEncoder.INSTANCE);
        final EmbeddedChannel backend;
        final BackendConnection connection;
        final List<BackendConnection> released = new ArrayList<>();
        /** The login's HandshakeResponse41 payload, in hex. */
        final String login;
        /** The client's capabilities, and what it holds per statement (under the client's own metadata cache), or null. */
        Capabilities clientCaps = CLIENT;
        io.shardwise.server.protocol.HeldColumns held;

        Fixture() {
            this(false);
        }

        /** @param mariaDbCache the backend greets as MariaDB offering MARIADB_CLIENT_CACHE_METADATA */
        Fixture(boolean mariaDbCache) {
            var connected = client.eventLoop().<BackendConnection>newPromise();
            connection = new BackendConnection(new BackendAddress("ds0", "127.0.0.1", 3306, "shop_0", "root", "", null), true, "",
                    connected);
            backend = new EmbeddedChannel(new PacketDecoder(1 << 24), PacketEncoder.INSTANCE, connection);
            Capabilities offered = mariaDbCache
                    ? new Capabilities((Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF) & ~Capabilities.CLIENT_MYSQL,
                            Capabilities.MARIADB_CACHE_METADATA)
                    : new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
            HandshakeV10 hello = new HandshakeV10("11.4.5-MariaDB", 9, new byte[HandshakeV10.SEED_LENGTH], offered, 45, AUTOCOMMIT,
                    NativePassword.PLUGIN);
            backend.writeInbound(Unpooled.wrappedBuffer(wirePacket(0, payload(hello.encode(backend.alloc())))));
            login = sent().get(0);
            backend.writeInbound(Unpooled.wrappedBuffer(wirePacket(2, ok(false))));
            sent(); // SET net_write_timeout
            backend.writeInbound(Unpooled.wrappedBuffer(wirePacket(1, ok(false))));
            assertTrue(connected.isSuccess(), "logged in");
        }

        /** One execution of SQL with BIGINT {@code value}, relayed. */
        QueryRelay execute(long value) {
            return execute(value, BIGINT, true);
        }

        /**
         * One execution of SQL with {@code value} as a BIGINT or an INT, relayed; {@code typesSent}: the client's
         * packet carries its type (new-params-bound flag 1), else it relies on the type it bound before.
         */
        QueryRelay execute(long value, int type, boolean typesSent) {
            ByteBuf execute = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(1).writeByte(0).writeIntLE(1)
                    .writeByte(0);
            if (typesSent) {
                execute.writeByte(1).writeShortLE(type);
            } else {
                execute.writeByte(0);
            }
            int valuesOffset = execute.writerIndex();
            if (type == BIGINT) {
                execute.writeLongLE(value);
            } else {
                execute.writeIntLE((int) value);
            }
            PreparedRelay request = PreparedRelay.of(execute, new int[] {type}, valuesOffset);
            execute.release();
            RelayPlan plan = new RelayPlan(List.of(new ExecutionUnit("ds0", SQL, List.of(), Map.of("notes_0", "notes"))), "shop", "");
            QueryRelay relay = new QueryRelay(client, clientCaps, session, plan, Map.of("ds0", connection), 1, released::add,
                    r -> request.release(), request).held(held);
            relay.start();
            return relay;
        }

        /** The payloads the connection wrote since the last call, in hex. */
        List<String> sent() {
            ByteBuf all = Unpooled.buffer();
            for (ByteBuf b; (b = backend.readOutbound()) != null; ) {
                all.writeBytes(b);
                b.release();
            }
            List<String> out = new ArrayList<>();
            while (all.isReadable()) {
                int length = all.readUnsignedMediumLE();
                all.skipBytes(1);
                out.add(HEX.formatHex(bytes(all.readSlice(length))));
            }
            all.release();
            return out;
        }

        byte[] clientBytes() {
            ByteBuf all = Unpooled.buffer();
            for (ByteBuf b; (b = client.readOutbound()) != null; ) {
                all.writeBytes(b);
                b.release();
            }
            byte[] out = bytes(all);
            all.release();
            return out;
        }

        void finish() {
            assertFalse(backend.finish(), "the backend channel kept unread messages");
            assertFalse(client.finish(), "the client channel kept unwritten messages");
        }
    }

    private static byte[] payload(ByteBuf buf) {
        byte[] b = bytes(buf);
        buf.release();
        return b;
    }

    private static byte[] ok(boolean endOfRows) {
        return payload(new OkPacket(0, 0, AUTOCOMMIT, 0, "").encode(Unpooled.buffer().alloc(), endOfRows));
    }

    private static byte[] column(String schema, String table, String name) {
        return payload(new ColumnDefinition(schema, table, table, name, name, 45, 80, ColumnDefinition.TYPE_LONGLONG, 0, 0)
                .encode(Unpooled.buffer().alloc()));
    }

    private static String prepare() {
        return HEX.formatHex(concat(new byte[] {StmtCommand.COM_STMT_PREPARE}, SQL.getBytes()));
    }

    private static final int BIGINT = 8;
    private static final int INT = 3;

    private static String execute(int statementId, long value) {
        ByteBuf b = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(statementId).writeByte(0).writeIntLE(1)
                .writeByte(0).writeByte(1).writeShortLE(8).writeLongLE(value);
        return HEX.formatHex(payload(b));
    }

    /** An execute of {@code statementId} binding no types (flag 0): the backend runs it with the types it bound last. */
    private static String executeUnbound(int statementId, long value) {
        ByteBuf b = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(statementId).writeByte(0).writeIntLE(1)
                .writeByte(0).writeByte(0).writeLongLE(value);
        return HEX.formatHex(payload(b));
    }

    private static String executeInt(int statementId, long value) {
        ByteBuf b = Unpooled.buffer().writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(statementId).writeByte(0).writeIntLE(1)
                .writeByte(0).writeByte(1).writeShortLE(INT).writeIntLE((int) value);
        return HEX.formatHex(payload(b));
    }

    /** PREPARE_OK of {@code id} with one parameter and two columns, their definitions (no EOFs: DEPRECATE_EOF). */
    private static byte[] prepareOk(int id) {
        byte[] ok = payload(Unpooled.buffer().writeByte(0).writeIntLE(id).writeShortLE(2).writeShortLE(1).writeByte(0).writeShortLE(0));
        return concat(wirePacket(1, ok), wirePacket(2, column("", "", "?")), wirePacket(3, column("shop_0", "notes_0", "id")),
                wirePacket(4, column("shop_0", "notes_0", "body")));
    }

    /** A binary result set of one row (id, body) = (value, 7), from sequence id 1. */
    private static byte[] binaryResult(String schema, String table, long value) {
        byte[] row = payload(Unpooled.buffer().writeByte(0).writeByte(0).writeLongLE(value).writeLongLE(7));
        return concat(wirePacket(1, new byte[] {2}), wirePacket(2, column(schema, table, "id")), wirePacket(3, column(schema, table, "body")),
                wirePacket(4, row), wirePacket(5, ok(true)));
    }

    @Test
    void theStatementIsPreparedOnceThenEachExecutionCarriesTheClientsValuesUnderTheBackendsId() {
        byte[] expected = binaryResult("shop", "notes", 42);
        for (List<byte[]> cut : cuts(prepareOk(5))) {
            Fixture f = new Fixture();
            f.execute(42);
            assertEquals(List.of(prepare()), f.sent());
            feed(f.backend, cut);
            assertEquals(List.of(execute(5, 42)), f.sent(), "executed under the backend's id once prepared");
            feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 42)));
            assertArrayEquals(expected, f.clientBytes(), "binary rows as they came, names logical");
            assertEquals(List.of(f.connection), f.released);

            f.execute(43);
            assertEquals(List.of(execute(5, 43)), f.sent(), "prepared once per connection");
            feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 43)));
            assertArrayEquals(binaryResult("shop", "notes", 43), f.clientBytes());
            assertEquals(List.of("ended", "ended"), f.session.calls);
            f.finish();
        }
    }

    /**
     * Per backend statement, its parameter types go to the backend once, with the first execute, and again
     * only when an execute binds other types (another client's); an execute whose types the backend binds
     * already goes as the client sent it — without types when the client sent none — under the backend's id.
     */
    @Test
    void typesGoToTheBackendOnlyWhenItDoesNotBindThemAlready() {
        Fixture f = new Fixture();
        f.execute(42);
        f.sent();
        feed(f.backend, List.of(prepareOk(5)));
        assertEquals(List.of(execute(5, 42)), f.sent(), "the first execute binds its types");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 42)));
        f.clientBytes();

        f.execute(43, BIGINT, false);
        assertEquals(List.of(executeUnbound(5, 43)), f.sent(), "types bound already: the client's packet as it came");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 43)));
        assertArrayEquals(binaryResult("shop", "notes", 43), f.clientBytes());

        f.execute(44, BIGINT, true);
        assertEquals(List.of(execute(5, 44)), f.sent(), "the client's types, the same: as it came");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 44)));
        f.clientBytes();

        f.execute(45, INT, true);
        assertEquals(List.of(executeInt(5, 45)), f.sent(), "another client's types are bound");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 45)));
        f.clientBytes();

        f.execute(46, BIGINT, false);
        assertEquals(List.of(execute(5, 46)), f.sent(), "the backend binds INT now: BIGINT goes with its type although the client sent none");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 46)));
        f.clientBytes();

        byte[] unknown = payload(new ErrPacket(1243, "HY000", "Unknown prepared statement handler").encode(Unpooled.buffer().alloc()));
        f.execute(47, BIGINT, false);
        assertEquals(List.of(executeUnbound(5, 47)), f.sent());
        feed(f.backend, List.of(wirePacket(1, unknown)));
        assertEquals(List.of(prepare()), f.sent(), "forgotten: prepared again");
        feed(f.backend, List.of(prepareOk(6)));
        assertEquals(List.of(execute(6, 47)), f.sent(), "a statement prepared again has no types bound: they go with it");
        feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 47)));
        assertArrayEquals(binaryResult("shop", "notes", 47), f.clientBytes(), "the client saw only the result");
        assertEquals(List.of("ended", "ended", "ended", "ended", "ended", "ended"), f.session.calls);
        f.finish();
    }

    @Test
    void aBackendThatForgotTheStatementGetsItPreparedAgainUnseenByTheClient() {
        byte[] unknown = payload(new ErrPacket(1243, "HY000", "Unknown prepared statement handler (5) given to mysqld_stmt_execute")
                .encode(Unpooled.buffer().alloc()));
        for (List<byte[]> cut : cuts(concat(wirePacket(1, unknown)))) {
            Fixture f = new Fixture();
            f.execute(42);
            f.sent();
            feed(f.backend, List.of(prepareOk(5)));
            assertEquals(List.of(execute(5, 42)), f.sent());
            feed(f.backend, cut);
            assertEquals(List.of(prepare()), f.sent(), "prepared again");
            feed(f.backend, List.of(prepareOk(6)));
            assertEquals(List.of(execute(6, 42)), f.sent());
            feed(f.backend, List.of(binaryResult("shop_0", "notes_0", 42)));
            assertArrayEquals(binaryResult("shop", "notes", 42), f.clientBytes(), "the client saw only the result");
            assertEquals(List.of("ended"), f.session.calls);
            assertEquals(6, RelayStatements.of(f.connection).get(SQL).id());
            f.finish();
        }
    }

    @Test
    void aSecondUnknownStatementErrorReachesTheClient() {
        byte[] unknown = payload(new ErrPacket(1243, "HY000", "Unknown prepared statement handler").encode(Unpooled.buffer().alloc()));
        Fixture f = new Fixture();
        f.execute(42);
        f.sent();
        feed(f.backend, List.of(prepareOk(5)));
        f.sent();
        feed(f.backend, List.of(wirePacket(1, unknown)));
        f.sent();
        feed(f.backend, List.of(prepareOk(6)));
        f.sent();
        feed(f.backend, List.of(wirePacket(1, unknown)));
        assertArrayEquals(wirePacket(1, unknown), f.clientBytes());
        assertEquals(List.of("failed 1243", "ended"), f.session.calls);
        assertEquals(List.of(f.connection), f.released, "a clean ERR leaves the connection fit for the pool");
        f.finish();
    }

    @Test
    void statementsBeyondTheBoundCloseTheLeastRecentlyUsed() {
        Fixture f = new Fixture();
        List<RelayStatements.Statement> seen = new ArrayList<>();
        RelayStatements.Prepared record = new RelayStatements.Prepared() {
            @Override
            public void prepared(RelayStatements.Statement statement) {
                seen.add(statement);
            }

            @Override
            public void refused(io.shardwise.server.protocol.Packet error) {
                error.release();
            }

            @Override
            public void lost(Throwable cause) {
                throw new AssertionError(cause);
            }
        };
        for (int i = 0; i <= RelayStatements.MAX; i++) {
            RelayStatements.prepare(f.connection, "SELECT " + i, 0, record);
            f.sent();
            byte[] ok = payload(Unpooled.buffer().writeByte(0).writeIntLE(100 + i).writeShortLE(0).writeShortLE(0).writeByte(0)
                    .writeShortLE(0));
            f.backend.writeInbound(Unpooled.wrappedBuffer(wirePacket(1, ok)));
            if (i == 1) {
                assertEquals(100, RelayStatements.of(f.connection).get("SELECT 0").id(), "a use makes it the most recent");
            }
        }
        assertEquals(RelayStatements.MAX + 1, seen.size());
        assertEquals(RelayStatements.MAX, RelayStatements.of(f.connection).size());
        assertNull(RelayStatements.of(f.connection).get("SELECT 1"), "the least recently used went");
        f.backend.flush(); // a close goes out with the connection's next command
        assertEquals(List.of(HEX.formatHex(payload(Unpooled.buffer().writeByte(StmtCommand.COM_STMT_CLOSE).writeIntLE(101)))),
                f.sent(), "and was closed on the backend");
        f.finish();
    }

    /** The extended capabilities (bits 32-63) of a HandshakeResponse41 payload in hex: the four bytes after the 19-byte filler. */
    private static int extended(String login) {
        byte[] b = HEX.parseHex(login);
        return java.nio.ByteBuffer.wrap(b, 28, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** A binary result set under the backend's metadata cache: the count with "metadata follows", then the definitions only when 1. */
    private static byte[] cachedResult(boolean follows, String schema, String table, String second, long value) {
        byte[] row = payload(Unpooled.buffer().writeByte(0).writeByte(0).writeLongLE(value).writeLongLE(7));
        if (!follows) {
            return concat(wirePacket(1, new byte[] {2, 0}), wirePacket(2, row), wirePacket(3, ok(true)));
        }
        return concat(wirePacket(1, new byte[] {2, 1}), wirePacket(2, column(schema, table, "id")),
                wirePacket(3, column(schema, table, second)), wirePacket(4, row), wirePacket(5, ok(true)));
    }

    /** As {@link #binaryResult}, its second column named {@code second}. */
    private static byte[] result(String schema, String table, String second, long value) {
        byte[] row = payload(Unpooled.buffer().writeByte(0).writeByte(0).writeLongLE(value).writeLongLE(7));
        return concat(wirePacket(1, new byte[] {2}), wirePacket(2, column(schema, table, "id")), wirePacket(3, column(schema, table, second)),
                wirePacket(4, row), wirePacket(5, ok(true)));
    }

    /**
     * A MySQL backend (CLIENT_MYSQL in its greeting, no extended capabilities) is asked for none; a MariaDB one offering
     * MARIADB_CLIENT_CACHE_METADATA is asked for it. Then an execute the backend answers without definitions ("metadata
     * follows = 0") gets the prepare's, and one that sends others (1) replaces them for the next: the client's bytes are
     * those of the same responses with every definition (fed whole and byte by byte).
     */
    @Test
    void aMariaDbBackendsMetadataCacheIsNegotiatedAndOmittedDefinitionsAreTheLastItSent() {
        Fixture mysql = new Fixture(false);
        assertFalse(mysql.connection.cachesMetadata());
        assertEquals(0, extended(mysql.login), "nothing extended asked of MySQL");
        mysql.finish();
        for (int split = 0; split < 2; split++) {
            Fixture f = new Fixture(true);
            assertTrue(f.connection.cachesMetadata());
            assertEquals(Capabilities.MARIADB_CACHE_METADATA, extended(f.login), "the metadata cache asked of MariaDB");
            f.execute(42);
            assertEquals(List.of(prepare()), f.sent());
            feed(f.backend, List.of(prepareOk(5)));
            assertEquals(List.of(execute(5, 42)), f.sent());
            byte[] first = cachedResult(false, null, null, null, 42);
            feed(f.backend, cuts(first).get(split)); // whole, then byte by byte
            assertArrayEquals(binaryResult("shop", "notes", 42), f.clientBytes(), "the prepare's definitions, made logical");

            f.execute(43);
            f.sent();
            feed(f.backend, List.of(cachedResult(true, "shop_0", "notes_0", "text", 43))); // an ALTER TABLE renamed body
            assertArrayEquals(result("shop", "notes", "text", 43), f.clientBytes(), "the definitions sent");

            f.execute(44);
            f.sent();
            feed(f.backend, List.of(cachedResult(false, null, null, null, 44)));
            assertArrayEquals(result("shop", "notes", "text", 44), f.clientBytes(), "the ones sent last replace the prepare's");
            assertEquals(List.of("ended", "ended", "ended"), f.session.calls);
            f.finish();
        }
    }

    /**
     * A client that holds definitions per statement (its own cache) behind a backend that omits them: the first execute
     * sends the client the prepare's (it held none), the next ones only the count with "metadata follows = 0" — from
     * the statement's remembered rewrite, nothing decoded. An execute without definitions the backend never sent (none
     * at prepare) cannot be answered: the client gets an error and the connection closes.
     */
    @Test
    void omittedDefinitionsReachACachingClientAsHeldAndUnknownOnesFail() {
        Fixture f = new Fixture(true);
        f.clientCaps = new Capabilities(CLIENT.bits() & ~Capabilities.CLIENT_MYSQL, Capabilities.MARIADB_CACHE_METADATA);
        f.held = new io.shardwise.server.protocol.HeldColumns();
        f.execute(42);
        f.sent();
        feed(f.backend, List.of(prepareOk(5)));
        f.sent();
        feed(f.backend, List.of(cachedResult(false, null, null, null, 42)));
        byte[] all = binaryResult("shop", "notes", 42);
        byte[] expected = concat(wirePacket(1, new byte[] {2, 1}), java.util.Arrays.copyOfRange(all, 5, all.length));
        assertArrayEquals(expected, f.clientBytes(), "count with 1, the prepare's definitions");
        for (long v = 43; v <= 44; v++) {
            f.execute(v);
            f.sent();
            feed(f.backend, List.of(cachedResult(false, null, null, null, v)));
            byte[] row = payload(Unpooled.buffer().writeByte(0).writeByte(0).writeLongLE(v).writeLongLE(7));
            assertArrayEquals(concat(wirePacket(1, new byte[] {2, 0}), wirePacket(2, row), wirePacket(3, ok(true))), f.clientBytes(),
                    "held: count with 0, the row, the end");
        }
        f.finish();

        Fixture g = new Fixture(true);
        g.execute(42);
        g.sent();
        byte[] ok = payload(Unpooled.buffer().writeByte(0).writeIntLE(6).writeShortLE(0).writeShortLE(1).writeByte(0).writeShortLE(0));
        feed(g.backend, List.of(concat(wirePacket(1, ok), wirePacket(2, column("", "", "?")))));
        g.sent();
        feed(g.backend, List.of(cachedResult(false, null, null, null, 42)));
        assertEquals(ErrPacket.HEADER, g.clientBytes()[4] & 0xFF, "an error, not rows under unknown definitions");
        assertFalse(g.backend.isActive(), "the connection closed");
        assertEquals(List.of("failed " + io.shardwise.core.error.ErrorCode.BUG.errno(), "ended"), g.session.calls);
        g.backend.finishAndReleaseAll();
        g.client.finishAndReleaseAll();
    }

    private static void feed(EmbeddedChannel channel, List<byte[]> pieces) {
        for (byte[] piece : pieces) {
            channel.writeInbound(Unpooled.wrappedBuffer(piece));
        }
    }
}
