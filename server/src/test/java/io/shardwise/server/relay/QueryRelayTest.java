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
import io.shardwise.server.protocol.EofPacket;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link QueryRelay}'s state machine at the byte level: a logged-in {@link BackendConnection} on an
 * {@link EmbeddedChannel} is fed each backend response whole, byte by byte and split at every
 * boundary, responses of consecutive units pipelined in one write; the client channel must receive
 * exactly the same bytes every time, the connection must go back to its pool, and nothing may be
 * left unread or leaked.
 */
class QueryRelayTest {
    private static final ServerStatus AUTOCOMMIT = ServerStatus.of(false, true);
    private static final int BACKEND_CAPABILITIES = Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF;

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    /** The session as a relay sees it, recording what the relay told it. */
    private static final class RecordingSession implements RelaySession {
        final List<String> calls = new ArrayList<>();
        int warnings;

        @Override
        public RelayPlan plan(String sql) {
            throw new AssertionError("the relay never plans");
        }

        @Override
        public void started(String sql, RelayPlan plan) {
            calls.add("started");
        }

        @Override
        public String translate(String backend, int errno, String message) {
            return message.replace("shop_0", "shop");
        }

        @Override
        public void warnings(int unit, String backend, int count, List<Condition> conditions) {
            warnings += count;
            calls.add("warnings " + unit + " " + backend + " " + count + " " + conditions);
        }

        @Override
        public void failed(int errno, String message) {
            calls.add("failed " + errno + " " + message);
        }

        @Override
        public void ended() {
            calls.add("ended");
        }

        @Override
        public int warningCount() {
            return warnings;
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
        public boolean noBackslashEscapes() {
            return false;
        }

        @Override
        public void killQuery(String backend, long threadId) {
            calls.add("killQuery " + backend);
        }

        @Override
        public void wrote(long affectedRows, long lastInsertId) {
            calls.add("wrote " + affectedRows + " " + lastInsertId);
        }

        @Override
        public void attach(io.shardwise.core.execute.NativeTransaction transaction) {
            throw new AssertionError("these relays run in autocommit mode");
        }

        @Override
        public io.shardwise.core.execute.NativeTransaction nativeTransaction() {
            return null;
        }

        @Override
        public void nativeEnded() {
            throw new AssertionError("these relays run in autocommit mode");
        }
    }

    /** One relay of {@code plan} over a backend connection logged in on an embedded channel. */
    private static final class Fixture {
        final RecordingSession session = new RecordingSession();
        final EmbeddedChannel client = new EmbeddedChannel(PacketEncoder.INSTANCE);
        final EmbeddedChannel backend;
        final BackendConnection connection;
        final List<BackendConnection> released = new ArrayList<>();
        final QueryRelay relay;
        boolean ended;

        /** A second backend's connection (ds1, shop_1), or null when the plan has one backend. */
        final EmbeddedChannel backend1;
        final BackendConnection connection1;

        Fixture(RelayPlan plan, Capabilities clientCapabilities) {
            connection = login("ds0", "shop_0");
            backend = connection.channel() instanceof EmbeddedChannel e ? e : null;
            boolean two = plan.units().stream().anyMatch(u -> u.backend().equals("ds1"));
            connection1 = two ? login("ds1", "shop_1") : null;
            backend1 = two ? (EmbeddedChannel) connection1.channel() : null;
            relay = new QueryRelay(client, clientCapabilities, session, plan,
                    two ? new java.util.LinkedHashMap<>(Map.of("ds0", connection, "ds1", connection1)) : Map.of("ds0", connection), 1,
                    released::add, r -> ended = true);
        }

        private BackendConnection login(String name, String database) {
            var connected = client.eventLoop().<BackendConnection>newPromise();
            BackendAddress address = new BackendAddress(name, "127.0.0.1", 3306, database, "root", "", null);
            BackendConnection c = new BackendConnection(address, true, "", connected);
            EmbeddedChannel channel = new EmbeddedChannel(new PacketDecoder(1 << 24), PacketEncoder.INSTANCE, c);
            HandshakeV10 hello = new HandshakeV10("11.4.5-MariaDB", 9, new byte[HandshakeV10.SEED_LENGTH],
                    new Capabilities(BACKEND_CAPABILITIES), 45, AUTOCOMMIT, NativePassword.PLUGIN);
            feed(channel, List.of(wirePacket(0, payload(hello.encode(channel.alloc())))));
            dropOutbound(channel); // the handshake response
            feed(channel, List.of(wirePacket(2, ok(false))));
            dropOutbound(channel); // SET net_write_timeout
            feed(channel, List.of(wirePacket(1, ok(false))));
            dropOutbound(channel);
            assertTrue(connected.isSuccess(), "logged in");
            return c;
        }

        /** The COM_QUERY texts the relay sent the backend since the last call. */
        List<String> queries() {
            return queries(backend);
        }

        /** The COM_QUERY texts the relay sent {@code channel} since the last call. */
        List<String> queries(EmbeddedChannel channel) {
            ByteBuf all = Unpooled.buffer();
            for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
                all.writeBytes(b); // the encoder writes each header and payload as buffers of their own
                b.release();
            }
            List<String> out = new ArrayList<>();
            while (all.isReadable()) {
                int length = all.readUnsignedMediumLE();
                all.skipBytes(1); // sequence id
                ByteBuf payload = all.readSlice(length);
                payload.skipBytes(1); // COM_QUERY
                out.add(payload.toString(StandardCharsets.UTF_8));
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

        /** A scatter's end: each backend's connection released once, every query it was sent read, nothing left over. */
        void bothBackendsReleasedAndDone() {
            assertEquals(2, released.size());
            assertEquals(java.util.Set.of(connection, connection1), java.util.Set.copyOf(released));
            queries();
            queries(backend1);
            finish();
        }

        void finish() {
            assertFalse(backend.finish(), "the backend channel kept unread messages");
            if (backend1 != null) {
                assertFalse(backend1.finish(), "the second backend channel kept unread messages");
            }
            assertFalse(client.finish(), "the client channel kept unwritten messages");
        }
    }

    private static void feed(EmbeddedChannel channel, List<byte[]> pieces) {
        for (byte[] piece : pieces) {
            channel.writeInbound(Unpooled.wrappedBuffer(piece));
        }
    }

    private static void dropOutbound(EmbeddedChannel channel) {
        for (Object m; (m = channel.readOutbound()) != null; ) {
            io.netty.util.ReferenceCountUtil.release(m);
        }
    }

    private static byte[] payload(ByteBuf buf) {
        byte[] b = bytes(buf);
        buf.release();
        return b;
    }

    private static byte[] ok(boolean endOfRows) {
        return ok(endOfRows, 0);
    }

    private static byte[] ok(boolean endOfRows, int warnings) {
        return payload(new OkPacket(0, 0, AUTOCOMMIT, warnings, "").encode(Unpooled.buffer().alloc(), endOfRows));
    }

    private static byte[] column(String schema, String table, String name) {
        return payload(new ColumnDefinition(schema, table, table, name, name, 45, 80, ColumnDefinition.TYPE_VAR_STRING, 0, 0)
                .encode(Unpooled.buffer().alloc()));
    }

    private static byte[] row(String... values) {
        ByteBuf b = Unpooled.buffer();
        for (String v : values) {
            Wire.writeLenenc(b, v);
        }
        return payload(b);
    }

    /** A result set as a backend sends it (CLIENT_DEPRECATE_EOF: no EOF after the columns), from sequence id 1. */
    private static byte[] resultSet(String schema, String table, int warnings, String[]... rows) {
        List<byte[]> packets = new ArrayList<>();
        packets.add(new byte[] {2});
        packets.add(column(schema, table, "id"));
        packets.add(column(schema, table, "body"));
        for (String[] r : rows) {
            packets.add(row(r));
        }
        packets.add(ok(true, warnings));
        List<byte[]> wire = new ArrayList<>();
        for (int i = 0; i < packets.size(); i++) {
            wire.add(wirePacket(i + 1, packets.get(i)));
        }
        return concat(wire.toArray(byte[][]::new));
    }

    private static RelayPlan plan(String... tables) {
        List<ExecutionUnit> units = new ArrayList<>();
        for (String t : tables) {
            units.add(new ExecutionUnit("ds0", "SELECT id, body FROM " + t, List.of(), Map.of(t, "notes")));
        }
        return new RelayPlan(units, "shop", "");
    }

    /** What the client gets for rows {@code rows} of logical table notes, from sequence id 1. */
    private static byte[] expectedResult(Capabilities client, int warnings, String[]... rows) {
        List<byte[]> packets = new ArrayList<>();
        packets.add(new byte[] {2});
        packets.add(column("shop", "notes", "id"));
        packets.add(column("shop", "notes", "body"));
        if (!client.endsResultsWithOk()) {
            packets.add(payload(new EofPacket(0, AUTOCOMMIT).writeTo(Unpooled.buffer())));
        }
        for (String[] r : rows) {
            packets.add(row(r));
        }
        packets.add(client.endsResultsWithOk() ? ok(true, warnings)
                : payload(new EofPacket(warnings, AUTOCOMMIT).writeTo(Unpooled.buffer())));
        List<byte[]> wire = new ArrayList<>();
        for (int i = 0; i < packets.size(); i++) {
            wire.add(wirePacket(i + 1, packets.get(i)));
        }
        return concat(wire.toArray(byte[][]::new));
    }

    @Test
    void oneUnitsRowsReachTheClientUnchangedWithLogicalColumnNamesHoweverTheBytesArrive() {
        String[][] rows = {{"1", "a"}, {"2", "b"}};
        byte[] response = resultSet("shop_0", "notes_0", 0, rows);
        for (Capabilities client : List.of(Capabilities.SERVER,
                new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF))) {
            byte[] expected = expectedResult(client, 0, rows);
            for (List<byte[]> cut : cuts(response)) {
                Fixture f = new Fixture(plan("notes_0"), client);
                f.relay.start();
                assertEquals(List.of("SELECT id, body FROM notes_0"), f.queries());
                feed(f.backend, cut);
                assertArrayEquals(expected, f.clientBytes(), cut.size() + " pieces");
                assertEquals(List.of(f.connection), f.released, "back to the pool once");
                assertTrue(f.ended);
                assertEquals(List.of("ended"), f.session.calls);
                f.finish();
            }
        }
    }

    @Test
    void aResponseReadAtOnceReachesTheClientAsOneBufferAndALongRowAsItCame() {
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        String[][] small = {{"1", "a"}};
        Fixture f = new Fixture(plan("notes_0"), client);
        f.relay.start();
        f.queries();
        feed(f.backend, List.of(resultSet("shop_0", "notes_0", 0, small)));
        ByteBuf whole = f.client.readOutbound();
        assertNull(f.client.readOutbound(), "one buffer: headers and packets gathered, not a header, a slice and a Packet each");
        assertArrayEquals(expectedResult(client, 0, small), payload(whole));
        f.finish();

        String[][] large = {{"1", "a"}, {"2", "x".repeat(QueryRelay.COPIED)}, {"3", "c"}};
        Fixture g = new Fixture(plan("notes_0"), client);
        g.relay.start();
        g.queries();
        feed(g.backend, List.of(resultSet("shop_0", "notes_0", 0, large)));
        List<ByteBuf> written = new ArrayList<>();
        for (ByteBuf b; (b = g.client.readOutbound()) != null; ) {
            written.add(b);
        }
        // what came before the long row, its header, its payload (a slice of the backend's buffer), and the rest
        assertEquals(4, written.size(), written.toString());
        ByteBuf all = Unpooled.buffer();
        written.forEach(b -> {
            all.writeBytes(b);
            b.release();
        });
        assertArrayEquals(expectedResult(client, 0, large), payload(all));
        g.finish();
    }

    @Test
    void pipelinedResponsesOfConsecutiveUnitsOnOneConnectionAreConcatenated() {
        byte[] response = concat(resultSet("shop_0", "notes_0", 0, new String[] {"1", "a"}),
                resultSet("shop_0", "notes_1", 0, new String[] {"2", "b"}, new String[] {"3", "c"}));
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        byte[] expected = expectedResult(client, 0, new String[] {"1", "a"}, new String[] {"2", "b"}, new String[] {"3", "c"});
        for (List<byte[]> cut : cuts(response)) {
            Fixture f = new Fixture(plan("notes_0", "notes_1"), client);
            f.relay.start();
            feed(f.backend, cut);
            assertEquals(List.of("SELECT id, body FROM notes_0", "SELECT id, body FROM notes_1"), f.queries());
            assertArrayEquals(expected, f.clientBytes(), cut.size() + " pieces");
            assertEquals(List.of(f.connection), f.released);
            f.finish();
        }
    }

    @Test
    void aUnitWithWarningsFetchesThemBeforeTheClientSeesTheEnd() {
        byte[] response = resultSet("shop_0", "notes_0", 1, new String[] {"1", "a"});
        List<byte[]> warnings = new ArrayList<>(List.of(new byte[] {3}, column("", "", "Level"), column("", "", "Code"),
                column("", "", "Message"), row("Warning", "1292", "Truncated in shop_0.notes_0"), ok(true)));
        List<byte[]> wire = new ArrayList<>();
        for (int i = 0; i < warnings.size(); i++) {
            wire.add(wirePacket(i + 1, warnings.get(i)));
        }
        byte[] warningResponse = concat(wire.toArray(byte[][]::new));
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        byte[] expected = expectedResult(client, 1, new String[] {"1", "a"});
        for (List<byte[]> cut : cuts(warningResponse)) {
            Fixture f = new Fixture(plan("notes_0"), client);
            f.relay.start();
            feed(f.backend, List.of(response));
            assertEquals(List.of("SELECT id, body FROM notes_0", "SHOW WARNINGS"), f.queries());
            feed(f.backend, cut);
            assertArrayEquals(expected, f.clientBytes(), cut.size() + " pieces");
            assertEquals(List.of("warnings 0 ds0 1 [Condition[level=WARNING, code=1292, message=Truncated in shop_0.notes_0]]",
                    "ended"), f.session.calls);
            f.finish();
        }
    }

    @Test
    void aBackendErrorMidRowsEndsTheResultWithTheErrorInLogicalNames() {
        byte[] err = payload(new ErrPacket(1146, "42S02", "Table 'shop_0.x' doesn't exist").encode(Unpooled.buffer().alloc()));
        byte[] response = concat(wirePacket(1, new byte[] {2}), wirePacket(2, column("shop_0", "notes_0", "id")),
                wirePacket(3, column("shop_0", "notes_0", "body")), wirePacket(4, row("1", "a")), wirePacket(5, err));
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        byte[] translated = payload(new ErrPacket(1146, "42S02", "Table 'shop.x' doesn't exist").encode(Unpooled.buffer().alloc()));
        byte[] expected = concat(wirePacket(1, new byte[] {2}), wirePacket(2, column("shop", "notes", "id")),
                wirePacket(3, column("shop", "notes", "body")), wirePacket(4, row("1", "a")), wirePacket(5, translated));
        for (List<byte[]> cut : cuts(response)) {
            Fixture f = new Fixture(plan("notes_0"), client);
            f.relay.start();
            f.queries();
            feed(f.backend, cut);
            assertArrayEquals(expected, f.clientBytes(), cut.size() + " pieces");
            assertEquals(List.of("failed 1146 Table 'shop.x' doesn't exist", "ended"), f.session.calls);
            assertEquals(List.of(f.connection), f.released, "a clean ERR leaves the connection fit for the pool");
            f.finish();
        }
    }

    @Test
    void aKilledRelayClosesItsConnectionInsteadOfPoolingIt() {
        Fixture f = new Fixture(plan("notes_0"), Capabilities.SERVER);
        f.relay.start();
        f.queries();
        feed(f.backend, List.of(wirePacket(1, new byte[] {2}))); // a response has begun: the connection is not reusable
        f.relay.kill();
        byte[] interrupted = payload(new ErrPacket(1317, "70100", "Query execution was interrupted").encode(Unpooled.buffer().alloc()));
        assertArrayEquals(concat(wirePacket(1, new byte[] {2}), wirePacket(2, interrupted)), f.clientBytes());
        assertTrue(f.released.isEmpty(), "never pooled");
        assertFalse(f.backend.isActive(), "closed");
        assertEquals(List.of("failed 1317 Query execution was interrupted", "killQuery ds0", "ended"), f.session.calls,
                "the backend still running the statement is told to stop");
        assertNull(f.backend.readInbound());
        f.finish();
    }

    /** Units of notes_0 on ds0 and notes_1 on ds1, a two-shard scatter. */
    private static RelayPlan scatter() {
        return new RelayPlan(List.of(new ExecutionUnit("ds0", "SELECT id, body FROM notes_0", List.of(), Map.of("notes_0", "notes")),
                new ExecutionUnit("ds1", "SELECT id, body FROM notes_1", List.of(), Map.of("notes_1", "notes"))), "shop", "");
    }

    @Test
    void aScatterSendsEveryBackendsUnitAtOnceAndRelaysTheirRowsInUnitOrderWhicheverAnswersFirst() {
        byte[] first = resultSet("shop_0", "notes_0", 0, new String[] {"1", "a"});
        byte[] second = resultSet("shop_1", "notes_1", 0, new String[] {"2", "b"}, new String[] {"3", "c"});
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        byte[] expected = expectedResult(client, 0, new String[] {"1", "a"}, new String[] {"2", "b"}, new String[] {"3", "c"});
        for (List<byte[]> cut : cuts(second)) {
            Fixture f = new Fixture(scatter(), client);
            f.relay.start();
            assertEquals(List.of("SELECT id, body FROM notes_0"), f.queries());
            assertEquals(List.of("SELECT id, body FROM notes_1"), f.queries(f.backend1), "sent before the first unit answered");
            feed(f.backend1, cut); // the second backend answers first: held
            assertArrayEquals(new byte[0], f.clientBytes(), "nothing of the second unit before the first");
            feed(f.backend, List.of(first));
            assertArrayEquals(expected, f.clientBytes(), cut.size() + " pieces");
            assertEquals(2, f.released.size());
            assertEquals(java.util.Set.of(f.connection, f.connection1), java.util.Set.copyOf(f.released), "both back to the pool");
            assertTrue(f.ended);
            f.finish();
        }
        // the second unit's response split around the first's end: what was held, then the rest as it arrives
        int half = second.length / 2;
        Fixture f = new Fixture(scatter(), client);
        f.relay.start();
        feed(f.backend1, List.of(java.util.Arrays.copyOfRange(second, 0, half)));
        feed(f.backend, List.of(first));
        feed(f.backend1, List.of(java.util.Arrays.copyOfRange(second, half, second.length)));
        assertArrayEquals(expected, f.clientBytes());
        f.bothBackendsReleasedAndDone();
    }

    @Test
    void aScattersLaterUnitHoldsLittleBeforeItsTurn() {
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        String[][] many = new String[QueryRelay.HELD / 100 + 10][];
        for (int i = 0; i < many.length; i++) {
            many[i] = new String[] {Integer.toString(i), "x".repeat(100)};
        }
        Fixture f = new Fixture(scatter(), client);
        f.relay.start();
        feed(f.backend1, List.of(resultSet("shop_1", "notes_1", 0, many)));
        assertFalse(f.backend1.config().isAutoRead(), "the second backend stops reading until its turn");
        feed(f.backend, List.of(resultSet("shop_0", "notes_0", 0)));
        assertTrue(f.backend1.config().isAutoRead(), "and reads again then");
        f.clientBytes();
        f.bothBackendsReleasedAndDone();
    }

    @Test
    void aScattersFirstUnitFailingClosesTheLaterUnitsConnectionStillAnswering() {
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        byte[] err = payload(new ErrPacket(1146, "42S02", "Table 'shop_0.notes_0' doesn't exist").encode(Unpooled.buffer().alloc()));
        byte[] translated = payload(new ErrPacket(1146, "42S02", "Table 'shop.notes_0' doesn't exist").encode(Unpooled.buffer().alloc()));
        Fixture f = new Fixture(scatter(), client);
        f.relay.start();
        feed(f.backend1, List.of(wirePacket(1, new byte[] {2}))); // its response has begun
        feed(f.backend, List.of(wirePacket(1, err)));
        assertArrayEquals(wirePacket(1, translated), f.clientBytes());
        assertEquals(List.of(f.connection), f.released, "the failed unit's connection is clean; the other may be mid-response");
        assertFalse(f.backend1.isActive(), "closed");
        f.queries();
        f.queries(f.backend1);
        assertEquals(List.of("failed 1146 Table 'shop.notes_0' doesn't exist", "killQuery ds1", "ended"), f.session.calls);
        f.finish();
    }

    @Test
    void aScattersLaterBackendLostBeforeItsTurnFailsTheStatementAfterTheEarlierRows() {
        Capabilities client = new Capabilities(Capabilities.SERVER.bits() | Capabilities.DEPRECATE_EOF);
        Fixture f = new Fixture(scatter(), client);
        f.relay.start();
        f.queries(f.backend1);
        f.backend1.close(); // lost before the first unit answered
        feed(f.backend, List.of(resultSet("shop_0", "notes_0", 0, new String[] {"1", "a"})));
        byte[] out = f.clientBytes();
        byte[] rows = concat(wirePacket(1, new byte[] {2}), wirePacket(2, column("shop", "notes", "id")),
                wirePacket(3, column("shop", "notes", "body")), wirePacket(4, row("1", "a")));
        assertArrayEquals(rows, java.util.Arrays.copyOf(out, rows.length), "the first unit's rows first");
        assertEquals(0xFF, out[rows.length + 4] & 0xFF, "then an error");
        assertTrue(f.session.calls.get(0).startsWith("failed 1105 "), f.session.calls.toString());
        assertTrue(f.released.isEmpty(), "a relay that fails on a lost backend pools nothing");
        f.queries();
        f.finish();
    }
}
