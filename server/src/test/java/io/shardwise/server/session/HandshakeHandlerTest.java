package io.shardwise.server.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.shardwise.core.config.TlsConfig;
import io.shardwise.core.config.UserConfig;
import io.shardwise.server.Leaks;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.shardwise.server.auth.AuthPlugin;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.auth.CachingSha2Password;
import io.shardwise.server.auth.RsaKeys;
import io.shardwise.server.protocol.AuthMoreData;
import io.shardwise.server.protocol.SslRequest;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.AuthSwitchRequest;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.tls.ServerTls;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The connection phase through the real framing, with the client's packets fed byte by byte. */
class HandshakeHandlerTest {
    /** A capability the server does not offer (protocol compression). */
    private static final int CLIENT_COMPRESS = 1 << 5;
    private static final Authenticator USERS = new Authenticator(List.of(new UserConfig("app", "secret", List.of("shop"))), "shop");
    private static final ServerTls TLS = ServerTls.of(TlsConfig.GENERATED);
    private final ChannelHandler commands = new ChannelInboundHandlerAdapter();
    private final List<Authenticator.Accepted> opened = new ArrayList<>();
    private final List<Capabilities> negotiated = new ArrayList<>();
    /** A test's own TLS contexts, freed after it (the OpenSSL engine's context holds native memory until released). */
    private final List<ServerTls> contexts = new ArrayList<>();

    @AfterEach
    void noBufferLeaked() {
        contexts.forEach(ServerTls::close);
        Leaks.assertNone();
    }

    private ServerTls requiredTls() {
        ServerTls tls = ServerTls.of(new TlsConfig(null, null, true));
        contexts.add(tls);
        return tls;
    }

    private EmbeddedChannel connect() {
        return connect(USERS, TLS);
    }

    private EmbeddedChannel connect(Authenticator users, ServerTls tls) {
        return new EmbeddedChannel(new PacketDecoder(1 << 24), PacketEncoder.INSTANCE,
                new HandshakeHandler(users, tls, 1 << 24, this::open, 5));
    }

    private ChannelHandler open(io.netty.channel.Channel channel, Authenticator.Accepted client, Capabilities caps, int id, int collation) {
        opened.add(client);
        negotiated.add(caps);
        return opened.size() == 1 ? commands : new ChannelInboundHandlerAdapter(); // one pipeline per handler
    }

    /** Every verdict the handler reports, in order (the server counts only the first). */
    private final List<String> verdicts = new ArrayList<>();

    private EmbeddedChannel connectWithin(Duration connectTimeout) {
        LoginAttempt recorder = new LoginAttempt() {
            @Override
            public void succeeded() {
                verdicts.add("succeeded");
            }

            @Override
            public void failed() {
                verdicts.add("failed");
            }

            @Override
            public void excused() {
                verdicts.add("excused");
            }
        };
        return new EmbeddedChannel(new PacketDecoder(1 << 24), PacketEncoder.INSTANCE,
                new HandshakeHandler(USERS, TLS, 1 << 24, this::open, 5, HandshakeHandler.SERVER_VERSION, connectTimeout, recorder));
    }

    /** The payloads the server wrote since the last call, with their sequence ids, framing checked by our decoder. */
    private static List<Packet> sent(EmbeddedChannel server) {
        EmbeddedChannel client = new EmbeddedChannel(new PacketDecoder(1 << 24));
        for (ByteBuf b; (b = server.readOutbound()) != null; ) {
            client.writeInbound(b);
        }
        List<Packet> out = new ArrayList<>();
        for (Packet p; (p = client.readInbound()) != null; ) {
            out.add(p);
        }
        assertFalse(client.finish());
        return out;
    }

    private static Packet only(List<Packet> packets) {
        assertEquals(1, packets.size(), packets::toString);
        return packets.get(0);
    }

    private static void sendByteByByte(EmbeddedChannel server, int sequenceId, ByteBuf payload) {
        ByteBuf wire = Unpooled.buffer().writeMediumLE(payload.readableBytes()).writeByte(sequenceId).writeBytes(payload);
        payload.release();
        while (wire.isReadable()) {
            server.writeInbound(wire.readRetainedSlice(1));
        }
        wire.release();
    }

    private static HandshakeV10 greeting(EmbeddedChannel server) {
        Packet p = only(sent(server));
        try {
            assertEquals(0, p.sequenceId());
            return HandshakeV10.decode(p.content());
        } finally {
            p.release();
        }
    }

    private static ByteBuf response(String user, byte[] token, String database, String plugin) {
        Capabilities caps = new Capabilities((Capabilities.SERVER.bits() | CLIENT_COMPRESS) & ~Capabilities.SSL);
        return new HandshakeResponse(caps, 1 << 24, 45, user, token, database, plugin, Map.of("_client_name", "test"))
                .encode(ByteBufAllocator.DEFAULT);
    }

    @Test
    void theRightNativePasswordLogsInAndHandsTheConnectionToTheSession() {
        EmbeddedChannel server = connect();
        HandshakeV10 hello = greeting(server);
        assertEquals(HandshakeHandler.SERVER_VERSION, hello.serverVersion());
        assertEquals(5, hello.connectionId());
        assertEquals(NativePassword.PLUGIN, hello.authPlugin());
        sendByteByByte(server, 1, response("app", NativePassword.scramble(hello.authSeed(), "secret"), "shop", NativePassword.PLUGIN));
        Packet ok = only(sent(server));
        try {
            assertEquals(2, ok.sequenceId());
            assertTrue(OkPacket.decode(ok.content()).status().autocommit());
        } finally {
            ok.release();
        }
        assertEquals(List.of(new Authenticator.Accepted("app", "shop")), opened);
        assertSame(commands, server.pipeline().get("commands"));
        assertNull(server.pipeline().get(HandshakeHandler.class));
        assertFalse(negotiated.get(0).bits() == 0 || (negotiated.get(0).bits() & CLIENT_COMPRESS) != 0,
                "only capabilities both sides have are used");
        assertTrue(server.isActive());
        assertFalse(server.finish());
    }

    @Test
    void aWrongPasswordIsDeniedWith1045AndTheConnectionCloses() {
        EmbeddedChannel server = connect();
        HandshakeV10 hello = greeting(server);
        sendByteByByte(server, 1, response("app", NativePassword.scramble(hello.authSeed(), "guess"), null, NativePassword.PLUGIN));
        Packet p = only(sent(server));
        try {
            assertEquals(2, p.sequenceId());
            assertEquals(new ErrPacket(1045, "28000", "Access denied for user 'app'@'localhost' (using password: YES)"),
                    ErrPacket.decode(p.content()));
        } finally {
            p.release();
        }
        assertFalse(server.isActive());
        assertTrue(opened.isEmpty());
        assertFalse(server.finish());
    }

    @Test
    void anUnknownUserGetsTheSameAnswerAsAWrongPassword() {
        EmbeddedChannel server = connect();
        greeting(server);
        sendByteByByte(server, 1, response("root", new byte[0], null, NativePassword.PLUGIN));
        Packet p = only(sent(server));
        try {
            assertEquals(new ErrPacket(1045, "28000", "Access denied for user 'root'@'localhost' (using password: NO)"),
                    ErrPacket.decode(p.content()));
        } finally {
            p.release();
        }
        assertFalse(server.finish());
    }

    @Test
    void aClientProposingCachingSha2IsSwitchedToNativePasswordAndLogsIn() {
        EmbeddedChannel server = connect();
        HandshakeV10 hello = greeting(server);
        sendByteByByte(server, 1, response("app", new byte[32], "shop", "caching_sha2_password"));
        Packet switchRequest = only(sent(server));
        try {
            assertEquals(2, switchRequest.sequenceId());
            AuthSwitchRequest request = AuthSwitchRequest.decode(switchRequest.content());
            assertEquals(NativePassword.PLUGIN, request.plugin());
            byte[] seedAndNul = java.util.Arrays.copyOf(hello.authSeed(), 21);
            assertArrayEquals(seedAndNul, request.data());
        } finally {
            switchRequest.release();
        }
        sendByteByByte(server, 3, Unpooled.wrappedBuffer(NativePassword.scramble(hello.authSeed(), "secret")));
        Packet ok = only(sent(server));
        try {
            assertEquals(4, ok.sequenceId());
            assertEquals(0, ok.content().getUnsignedByte(ok.content().readerIndex()), "an OK packet");
        } finally {
            ok.release();
        }
        assertSame(commands, server.pipeline().get("commands"));
        assertFalse(server.finish());
    }

    @Test
    void anUnknownSchemaAtConnectIs1049() {
        EmbeddedChannel server = connect();
        HandshakeV10 hello = greeting(server);
        sendByteByByte(server, 1, response("app", NativePassword.scramble(hello.authSeed(), "secret"), "shop_0", NativePassword.PLUGIN));
        Packet p = only(sent(server));
        try {
            assertEquals(new ErrPacket(1049, "42000", "Unknown database 'shop_0'"), ErrPacket.decode(p.content()));
        } finally {
            p.release();
        }
        assertFalse(server.isActive());
        assertFalse(server.finish());
    }

    @Test
    void aMalformedResponseIsAnsweredWithAnErrorAndClosesOnlyThatConnection() {
        EmbeddedChannel server = connect();
        greeting(server);
        sendByteByByte(server, 1, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}));
        Packet p = only(sent(server));
        try {
            ErrPacket err = ErrPacket.decode(p.content());
            assertEquals(1043, err.errno());
            assertEquals("08S01", err.sqlState());
        } finally {
            p.release();
        }
        assertFalse(server.isActive());
        assertInstanceOf(EmbeddedChannel.class, server);
        assertFalse(server.finish());
    }

    @Test
    void whenTlsIsRequiredACleartextClientGets3159() {
        EmbeddedChannel server = connect(USERS, requiredTls());
        HandshakeV10 hello = greeting(server);
        assertTrue(hello.capabilities().asksForTls(), "the greeting offers TLS");
        sendByteByByte(server, 1, response("app", NativePassword.scramble(hello.authSeed(), "secret"), "shop", NativePassword.PLUGIN));
        Packet p = only(sent(server));
        try {
            assertEquals(2, p.sequenceId());
            assertEquals(new ErrPacket(3159, "HY000",
                    "Connections using insecure transport are prohibited while --require_secure_transport=ON."), ErrPacket.decode(p.content()));
        } finally {
            p.release();
        }
        assertFalse(server.isActive());
        assertTrue(opened.isEmpty());
        assertFalse(server.finish());
    }

    /** Moves bytes both ways until neither side has anything to send. */
    private static void pump(EmbeddedChannel client, EmbeddedChannel server) {
        boolean moved = true;
        while (moved) {
            moved = false;
            server.runPendingTasks();
            client.runPendingTasks();
            for (ByteBuf b; (b = server.readOutbound()) != null; moved = true) {
                client.writeInbound(b);
            }
            for (ByteBuf b; (b = client.readOutbound()) != null; moved = true) {
                server.writeInbound(b);
            }
        }
    }

    @Test
    void anSslRequestWithTheClientHelloRightBehindItSwitchesTheConnectionToTls() throws Exception {
        EmbeddedChannel server = connect(USERS, requiredTls());
        HandshakeV10 hello = greeting(server);
        SslHandler clientTls = SslContextBuilder.forClient().trustManager(TLS.certificate()).sslProvider(SslProvider.JDK).build()
                .newHandler(ByteBufAllocator.DEFAULT, "localhost", 3307); // the generated certificate names localhost
        EmbeddedChannel client = new EmbeddedChannel(clientTls);
        ByteBuf request = new SslRequest(Capabilities.SERVER, 1 << 24, 45).encode(ByteBufAllocator.DEFAULT);
        ByteBuf wire = Unpooled.buffer().writeMediumLE(request.readableBytes()).writeByte(1).writeBytes(request);
        request.release();
        for (ByteBuf b; (b = client.readOutbound()) != null; ) { // the ClientHello, in the same TCP read as the request
            wire.writeBytes(b);
            b.release();
        }
        server.writeInbound(wire);
        pump(client, server);
        assertTrue(clientTls.handshakeFuture().isSuccess(), () -> String.valueOf(clientTls.handshakeFuture().cause()));
        assertInstanceOf(SslHandler.class, server.pipeline().get("tls"));

        ByteBuf response = response("app", NativePassword.scramble(hello.authSeed(), "secret"), "shop", NativePassword.PLUGIN);
        ByteBuf framed = Unpooled.buffer().writeMediumLE(response.readableBytes()).writeByte(2).writeBytes(response);
        response.release();
        client.writeOutbound(framed);
        pump(client, server);
        EmbeddedChannel reader = new EmbeddedChannel(new PacketDecoder(1 << 24));
        for (ByteBuf b; (b = client.readInbound()) != null; ) {
            reader.writeInbound(b);
        }
        Packet ok = reader.readInbound();
        try {
            assertEquals(3, ok.sequenceId(), "the SSL request counted as packet 1, the response over TLS as 2");
            assertEquals(0, ok.content().getUnsignedByte(ok.content().readerIndex()), "an OK packet");
        } finally {
            ok.release();
        }
        assertEquals(List.of(new Authenticator.Accepted("app", "shop")), opened);
        assertFalse(reader.finish());
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
    }

    @Test
    void cachingSha2ByDefaultTakesTheFastPathForAUserWhoLoggedInBefore() {
        Authenticator sha2 = new Authenticator(List.of(new UserConfig("app", "secret", List.of("shop"))), "shop",
                AuthPlugin.CACHING_SHA2_PASSWORD, RsaKeys.shared());
        for (int login = 0; login < 2; login++) {
            EmbeddedChannel server = connect(sha2, TLS);
            HandshakeV10 hello = greeting(server);
            assertEquals(CachingSha2Password.PLUGIN, hello.authPlugin());
            sendByteByByte(server, 1, response("app", CachingSha2Password.scramble(hello.authSeed(), "secret"), "shop",
                    CachingSha2Password.PLUGIN));
            List<Packet> replies = sent(server);
            if (login == 0) { // not cached yet: ask for the password; without TLS the client asks for the key
                assertArrayEquals(new byte[] {CachingSha2Password.PERFORM_FULL_AUTHENTICATION}, moreData(only(replies), 2));
                sendByteByByte(server, 3, Unpooled.wrappedBuffer(new byte[] {CachingSha2Password.REQUEST_PUBLIC_KEY}));
                String pem = new String(moreData(only(sent(server)), 4), java.nio.charset.StandardCharsets.US_ASCII);
                assertEquals(RsaKeys.shared().publicKeyPem(), pem);
                try {
                    sendByteByByte(server, 5, Unpooled.wrappedBuffer(
                            CachingSha2Password.encryptPassword(RsaKeys.shared().publicKey(), hello.authSeed(), "secret")));
                } catch (java.security.GeneralSecurityException e) {
                    throw new AssertionError(e);
                }
                Packet ok = only(sent(server));
                assertEquals(6, ok.sequenceId());
                ok.release();
            } else { // cached: fast_auth_success, then OK
                assertEquals(2, replies.size(), replies::toString);
                assertArrayEquals(new byte[] {CachingSha2Password.FAST_AUTH_SUCCESS}, moreData(replies.get(0), 2));
                assertEquals(3, replies.get(1).sequenceId());
                replies.get(1).release();
            }
            assertTrue(server.pipeline().get("commands") != null);
            assertFalse(server.finish());
        }
    }

    private static byte[] moreData(Packet p, int sequenceId) {
        try {
            assertEquals(sequenceId, p.sequenceId());
            return AuthMoreData.decode(p.content()).data();
        } finally {
            p.release();
        }
    }

    @Test
    void aClientSilentUntilTheConnectTimeoutIsClosedWithoutAWordAndCountsAsAFailure() {
        EmbeddedChannel server = connectWithin(Duration.ofSeconds(10));
        greeting(server);
        server.advanceTimeBy(9, TimeUnit.SECONDS);
        server.runScheduledPendingTasks();
        assertTrue(server.isActive(), "still inside the deadline");
        server.advanceTimeBy(2, TimeUnit.SECONDS);
        server.runScheduledPendingTasks();
        assertFalse(server.isActive(), "closed at the deadline");
        assertEquals(List.of(), sent(server), "MySQL's connect_timeout sends no ERR");
        assertEquals("failed", verdicts.get(0));
        assertFalse(server.finish());
    }

    @Test
    void aClientHalfwayThroughItsHandshakeAtTheDeadlineIsClosedToo() {
        EmbeddedChannel server = connectWithin(Duration.ofSeconds(1));
        greeting(server);
        server.writeInbound(Unpooled.wrappedBuffer(new byte[] {50, 0, 0, 1, 5})); // a header and one byte of 50
        server.advanceTimeBy(2, TimeUnit.SECONDS);
        server.runScheduledPendingTasks();
        assertFalse(server.isActive());
        assertEquals("failed", verdicts.get(0));
        assertFalse(server.finish());
    }

    @Test
    void aLoginInTimeCancelsTheDeadlineAndForgivesTheAddress() {
        EmbeddedChannel server = connectWithin(Duration.ofSeconds(10));
        HandshakeV10 hello = greeting(server);
        sendByteByByte(server, 1, response("app", NativePassword.scramble(hello.authSeed(), "secret"), "shop", NativePassword.PLUGIN));
        sent(server).forEach(Packet::release);
        server.advanceTimeBy(1, TimeUnit.MINUTES);
        server.runScheduledPendingTasks();
        assertTrue(server.isActive(), "a logged-in client is past the connect timeout");
        assertEquals(List.of("succeeded"), verdicts);
        assertFalse(server.finish());
    }

    @Test
    void aWrongPasswordIsAFailureButAnUnknownSchemaAfterTheRightOneIsNot() {
        EmbeddedChannel wrong = connectWithin(Duration.ofSeconds(10));
        HandshakeV10 hello = greeting(wrong);
        sendByteByByte(wrong, 1, response("app", NativePassword.scramble(hello.authSeed(), "guess"), null, NativePassword.PLUGIN));
        sent(wrong).forEach(Packet::release);
        assertFalse(wrong.finish());
        assertEquals("failed", verdicts.get(0));

        verdicts.clear();
        EmbeddedChannel unknownSchema = connectWithin(Duration.ofSeconds(10));
        hello = greeting(unknownSchema);
        sendByteByByte(unknownSchema, 1, response("app", NativePassword.scramble(hello.authSeed(), "secret"), "nope", NativePassword.PLUGIN));
        sent(unknownSchema).forEach(Packet::release);
        assertFalse(unknownSchema.finish());
        assertEquals("succeeded", verdicts.get(0));
    }

    @Test
    void garbageInPlaceOfTheResponseIsABadHandshakeAndAFailure() {
        EmbeddedChannel server = connectWithin(Duration.ofSeconds(10));
        greeting(server);
        sendByteByByte(server, 1, Unpooled.wrappedBuffer(new byte[] {(byte) 0x85, (byte) 0xa6, 0x7f}));
        Packet p = only(sent(server));
        try {
            assertEquals(1043, ErrPacket.decode(p.content()).errno());
        } finally {
            p.release();
        }
        assertFalse(server.isActive());
        assertEquals("failed", verdicts.get(0));
        assertFalse(server.finish());
    }
}
