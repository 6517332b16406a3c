package io.shardwise.server.protocol;

import static io.shardwise.server.protocol.WireBytes.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardwise.server.Leaks;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PacketsTest {
    private static final ByteBufAllocator ALLOC = ByteBufAllocator.DEFAULT;

    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    private static byte[] encoded(Function<ByteBufAllocator, ByteBuf> encoder) {
        ByteBuf buf = encoder.apply(ALLOC);
        try {
            return bytes(buf);
        } finally {
            buf.release();
        }
    }

    private static <T> T decoded(byte[] bytes, Function<ByteBuf, T> decoder) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        T value = decoder.apply(buf);
        assertFalse(buf.isReadable(), "the decoder read the whole payload");
        return value;
    }

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    @Test
    void lengthEncodedIntegersUseTheShortestFormAtEachBoundary() {
        long[] values = {0, 250, 251, 65535, 65536, (1 << 24) - 1, 1 << 24, Long.MAX_VALUE, -1};
        String[] forms = {"00", "fa", "fcfb00", "fcffff", "fd000001", "fdffffff", "fe0000000100000000", "feffffffffffffff7f",
                "feffffffffffffffff"};
        for (int i = 0; i < values.length; i++) {
            long v = values[i];
            assertArrayEquals(hex(forms[i]), encoded(a -> {
                ByteBuf b = a.buffer();
                Wire.writeLenenc(b, v);
                return b;
            }), "value " + v);
            assertEquals(v, (long) decoded(hex(forms[i]), Wire::readLenenc));
        }
    }

    @Test
    void truncatedLengthEncodedDataIsMalformedNotAnIndexError() {
        assertThrows(MalformedPacketException.class, () -> Wire.readLenenc(Unpooled.wrappedBuffer(hex("fc01"))));
        assertThrows(MalformedPacketException.class, () -> Wire.readLenencBytes(Unpooled.wrappedBuffer(hex("05616263"))));
        assertThrows(MalformedPacketException.class, () -> Wire.readNulTerminated(Unpooled.wrappedBuffer(hex("6162"))));
    }

    @Test
    void anOkPacketCarriesCountsStatusAndWarnings() {
        OkPacket ok = new OkPacket(300, 7, ServerStatus.of(true, false), 2, "");
        assertArrayEquals(hex("00 fc2c01 07 0100 0200"), encoded(a -> ok.encode(a, false)));
        assertArrayEquals(hex("fe fc2c01 07 0100 0200"), encoded(a -> ok.encode(a, true)));
        OkPacket back = decoded(encoded(a -> ok.encode(a, true)), OkPacket::decode);
        assertEquals(ok, back);
        assertTrue(back.status().inTransaction());
        assertFalse(back.status().autocommit());
        // an info message is length-encoded, as MySQL's and MariaDB's net_send_ok store it
        OkPacket info = new OkPacket(3, 0, ServerStatus.of(false, true), 0, "Records: 3");
        assertArrayEquals(hex("00 03 00 0200 0000 0a 5265636f7264733a2033"), encoded(a -> info.encode(a, false)));
        assertEquals(info, decoded(encoded(a -> info.encode(a, false)), OkPacket::decode));
    }

    @Test
    void anErrPacketHasTheSqlStateMarker() {
        ErrPacket err = new ErrPacket(1045, "28000", "Access denied");
        byte[] bytes = encoded(err::encode);
        assertArrayEquals(hex("ff 1504 23 3238303030"), java.util.Arrays.copyOf(bytes, 9));
        assertEquals(err, decoded(bytes, ErrPacket::decode));
        assertThrows(IllegalArgumentException.class, () -> new ErrPacket(1, "HY0", "x"));
    }

    @Test
    void anErrPacketInPlaceOfTheGreetingHasNoSqlState() {
        ErrPacket err = new ErrPacket(1040, "08004", "Too many connections");
        byte[] bytes = encoded(err::encodeBeforeHandshake);
        assertArrayEquals(hex("ff 1004 546f6f"), java.util.Arrays.copyOf(bytes, 6));
        assertEquals(new ErrPacket(1040, "HY000", "Too many connections"), decoded(bytes, ErrPacket::decode));
    }

    @Test
    void anEofPacketIsWarningsThenStatus() {
        assertArrayEquals(hex("fe 0300 0200"), encoded(new EofPacket(3, ServerStatus.of(false, true))::encode));
    }

    @Test
    void aColumnDefinitionRoundTripsEveryField() {
        ColumnDefinition c = new ColumnDefinition("shop", "orders", "orders", "total", "amount", 45, 40, 246, 1 | 32, 2);
        byte[] bytes = encoded(c::encode);
        assertEquals(c, decoded(bytes, ColumnDefinition::decode));
        assertArrayEquals("def".getBytes(StandardCharsets.US_ASCII), java.util.Arrays.copyOfRange(bytes, 1, 4));
    }

    @Test
    void aTextRowWritesNullAsFbAndValuesLengthEncoded() {
        byte[] big = new byte[300];
        byte[][] values = {"42".getBytes(StandardCharsets.US_ASCII), null, new byte[0], big};
        byte[] row = encoded(a -> {
            ByteBuf b = a.buffer();
            for (byte[] v : values) {
                TextRow.writeValue(b, v);
            }
            return b;
        });
        int expected = 0;
        for (byte[] v : values) {
            expected += TextRow.encodedLength(v);
        }
        assertEquals(expected, row.length);
        assertArrayEquals(hex("02 3432 fb 00 fc2c01"), java.util.Arrays.copyOf(row, 8));
    }

    @Test
    void theGreetingAnnouncesVersionSeedCapabilitiesAndPlugin() {
        byte[] seed = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);
        HandshakeV10 greeting = new HandshakeV10("8.0.36-shardwise", 77, seed, Capabilities.SERVER, 45, ServerStatus.of(false, true),
                "mysql_native_password");
        byte[] bytes = encoded(greeting::encode);
        assertEquals(10, bytes[0]);
        HandshakeV10 back = decoded(bytes, HandshakeV10::decode);
        assertEquals("8.0.36-shardwise", back.serverVersion());
        assertEquals(77, back.connectionId());
        assertArrayEquals(seed, back.authSeed());
        assertEquals(Capabilities.SERVER, back.capabilities());
        assertEquals("mysql_native_password", back.authPlugin());
        assertTrue(back.capabilities().endsResultsWithOk() && back.capabilities().namesAuthPlugin()
                && back.capabilities().asksForTls(), "TLS is always offered");
    }

    /**
     * MariaDB's greeting: no CLIENT_MYSQL, the extended capabilities in the last 4 of the 10 reserved
     * bytes; a MariaDB client answers with its own in the last 4 of the response's 23; a MySQL client
     * (CLIENT_MYSQL set) has none, whatever those bytes hold.
     */
    @Test
    void mariaDbsExtendedCapabilitiesTravelInTheReservedBytes() {
        byte[] seed = "abcdefghijklmnopqrst".getBytes(StandardCharsets.US_ASCII);
        HandshakeV10 greeting = new HandshakeV10("11.4.5-MariaDB", 7, seed, Capabilities.MARIADB_SERVER, 45, ServerStatus.of(false, true),
                "mysql_native_password");
        byte[] bytes = encoded(greeting::encode);
        int reserved = 1 + "11.4.5-MariaDB".length() + 1 + 4 + 8 + 1 + 2 + 1 + 2 + 2 + 1;
        assertArrayEquals(hex("00 00 00 00 00 00 10 00 00 00"), java.util.Arrays.copyOfRange(bytes, reserved, reserved + 10));
        assertEquals(0, bytes[1 + "11.4.5-MariaDB".length() + 1 + 4 + 8 + 1] & Capabilities.CLIENT_MYSQL);
        HandshakeV10 back = decoded(bytes, HandshakeV10::decode);
        assertEquals(Capabilities.MARIADB_SERVER, back.capabilities());
        assertTrue(back.capabilities().cachesMetadata() && back.capabilities().mariaDbExtended());
        assertEquals(Capabilities.SERVER, decoded(encoded(new HandshakeV10("8.0.36", 7, seed, Capabilities.SERVER, 45,
                ServerStatus.of(false, true), "mysql_native_password")::encode), HandshakeV10::decode).capabilities());

        byte[] token = new byte[20];
        Capabilities mariaDbClient = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.CLIENT_MYSQL, 0x1d);
        HandshakeResponse sent = new HandshakeResponse(mariaDbClient, 1 << 24, 45, "app", token, "shop", "mysql_native_password", Map.of());
        byte[] response = encoded(sent::encode);
        assertArrayEquals(hex("1d 00 00 00"), java.util.Arrays.copyOfRange(response, 28, 32));
        Capabilities negotiated = decoded(response, HandshakeResponse::decode).capabilities().commonWith(Capabilities.MARIADB_SERVER);
        assertEquals(Capabilities.MARIADB_CACHE_METADATA, negotiated.extended(), "only what the server offered");
        assertTrue(negotiated.cachesMetadata());
        response[0] |= Capabilities.CLIENT_MYSQL; // a MySQL client: those bytes are reserved
        assertEquals(0, decoded(response, HandshakeResponse::decode).capabilities().extended());
    }

    @Test
    void aHandshakeResponseIsReadAccordingToTheClientsCapabilities() {
        byte[] token = new byte[20];
        java.util.Arrays.fill(token, (byte) 7);
        for (int caps : new int[] {Capabilities.SERVER.bits(),
                Capabilities.PROTOCOL_41 | Capabilities.SECURE_CONNECTION,
                Capabilities.PROTOCOL_41 | Capabilities.SECURE_CONNECTION | Capabilities.CONNECT_WITH_DB | Capabilities.PLUGIN_AUTH}) {
            Capabilities c = new Capabilities(caps);
            HandshakeResponse sent = new HandshakeResponse(c, 1 << 24, 45, "app", token,
                    c.namesSchemaAtConnect() ? "shop" : null, c.namesAuthPlugin() ? "caching_sha2_password" : null,
                    c.sendsConnectAttributes() ? Map.of("_client_name", "test") : Map.of());
            HandshakeResponse back = decoded(encoded(sent::encode), HandshakeResponse::decode);
            assertEquals("app", back.user());
            assertArrayEquals(token, back.authResponse());
            assertEquals(sent.database(), back.database());
            assertEquals(sent.authPlugin(), back.authPlugin());
            assertEquals(sent.attributes(), back.attributes());
        }
    }

    @Test
    void aPreProtocol41ClientIsRefused() {
        byte[] old = new byte[40];
        assertThrows(MalformedPacketException.class, () -> HandshakeResponse.decode(Unpooled.wrappedBuffer(old)));
    }

    @Test
    void commandsAreDecodedByTheirFirstByte() {
        // the text stays bytes: only the session knows the client's character set
        byte[] query = {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0xC3, (byte) 0xA9, 0x00, (byte) 0xFF, '\''};
        byte[] packet = new byte[query.length + 1];
        packet[0] = Command.COM_QUERY;
        System.arraycopy(query, 0, packet, 1, query.length);
        assertArrayEquals(query, assertInstanceOf(Command.Query.class, decoded(packet, Command::decode)).sql());
        assertEquals(new Command.Ping(), decoded(new byte[] {Command.COM_PING}, Command::decode));
        assertEquals(new Command.Quit(), decoded(new byte[] {Command.COM_QUIT}, Command::decode));
        assertEquals(new Command.InitDb("shop"), decoded(WireBytes.command(Command.COM_INIT_DB, "shop"), Command::decode));
        assertEquals(new Command.Unsupported(0x1D), decoded(new byte[] {0x1D, 1, 2, 3}, Command::decode));
        assertThrows(MalformedPacketException.class, () -> Command.decode(Unpooled.EMPTY_BUFFER));
    }

    @Test
    void aFetchNamesItsStatementAndAnUnsignedRowCount() {
        assertEquals(new StmtCommand.Fetch(7, 4_294_967_295L), decoded(hex("1c 07000000 ffffffff"), Command::decode));
        assertThrows(MalformedPacketException.class, () -> Command.decode(Unpooled.wrappedBuffer(hex("1c 07000000 ff"))));
        ServerStatus open = ServerStatus.of(true, false).with(ServerStatus.CURSOR_EXISTS);
        assertTrue(open.cursorExists() && open.inTransaction() && !open.lastRowSent());
        assertEquals(0x41, open.bits());
    }

    @Test
    void anAuthSwitchRequestNamesThePluginThenItsData() {
        byte[] data = "seed".getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = encoded(new AuthSwitchRequest("mysql_native_password", data)::encode);
        assertEquals((byte) 0xFE, bytes[0]);
        AuthSwitchRequest back = decoded(bytes, AuthSwitchRequest::decode);
        assertEquals("mysql_native_password", back.plugin());
        assertArrayEquals(data, back.data());
    }
}
