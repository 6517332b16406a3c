package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.TooLongFrameException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.server.auth.AuthExchange;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.AuthMoreData;
import io.shardwise.server.protocol.AuthSwitchRequest;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.SslRequest;
import io.shardwise.server.tls.ServerTls;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

/**
 * The connection phase on the event loop: greeting; the client's response, or first its SSL
 * request, after which an {@code SslHandler} goes in front of the framing and the response arrives
 * over TLS; then the {@link AuthExchange} (auth switch, caching_sha2_password's extra round trips);
 * then OK (and this handler replaces itself with the session's command handler) or ERR and close.
 * Only CPU work (hashes, one RSA decryption) happens here, so it runs on the event loop.
 *
 * <p>A client not authenticated within the connect timeout is disconnected without a word (as
 * MySQL's connect_timeout does), so sockets that connect and stay silent cannot hold the
 * connection slots. Each connection reports one verdict to its {@link LoginAttempt}.
 */
public final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    /** Builds the handler that serves commands once a client is in; called on the event loop. */
    @FunctionalInterface
    public interface SessionOpener {
        /** @param collation the handshake's collation id: the character set the client's statements arrive in */
        ChannelHandler open(Channel channel, Authenticator.Accepted client, Capabilities capabilities, int connectionId, int collation);
    }

    /** The version announced when none is given (the default backend could not be asked). */
    public static final String SERVER_VERSION = io.shardwise.core.session.SessionVariables.SERVER_VERSION;
    /** utf8mb4_general_ci: a collation every MySQL and MariaDB client knows. */
    static final int SERVER_COLLATION = 45;

    private enum Phase { AWAITING_RESPONSE, STARTING_TLS, AWAITING_TLS_RESPONSE, AUTHENTICATING }

    private final Authenticator authenticator;
    private final ServerTls tls;
    private final int maxPacketSize;
    private final SessionOpener opener;
    private final int connectionId;
    /** The handshake's server version ({@code ServerIdentity.handshakeVersion()}): clients pick their dialect by it. */
    private final String serverVersion;
    /** Zero: no deadline. */
    private final Duration connectTimeout;
    private final LoginAttempt attempt;
    private final Capabilities offered;
    private final byte[] seed = NativePassword.newSeed();
    private ScheduledFuture<?> deadline;
    private Phase phase = Phase.AWAITING_RESPONSE;
    private HandshakeResponse response;
    private AuthExchange exchange;
    private int sequenceId;
    /** What the client sent right behind its SSL request (the start of its TLS handshake), held while the pipeline changes. */
    private ByteBuf afterSslRequest;

    /** @param maxPacketSize the framing limit, for the decoder that replaces the cleartext one under TLS */
    public HandshakeHandler(Authenticator authenticator, ServerTls tls, int maxPacketSize, SessionOpener opener, int connectionId) {
        this(authenticator, tls, maxPacketSize, opener, connectionId, SERVER_VERSION);
    }

    /** @param serverVersion the version string the greeting announces */
    public HandshakeHandler(Authenticator authenticator, ServerTls tls, int maxPacketSize, SessionOpener opener, int connectionId,
                            String serverVersion) {
        this(authenticator, tls, maxPacketSize, opener, connectionId, serverVersion, Duration.ZERO, LoginAttempt.UNCOUNTED);
    }

    /**
     * @param connectTimeout how long the client has from connecting to being authenticated; zero for no limit
     * @param attempt told how this connection's login ended
     */
    public HandshakeHandler(Authenticator authenticator, ServerTls tls, int maxPacketSize, SessionOpener opener, int connectionId,
                            String serverVersion, Duration connectTimeout, LoginAttempt attempt) {
        this(authenticator, tls, maxPacketSize, opener, connectionId, serverVersion, connectTimeout, attempt, Capabilities.SERVER);
    }

    /**
     * @param offered the greeting's capabilities: {@link Capabilities#SERVER} (MySQL's greeting), or
     *     {@link Capabilities#MARIADB_SERVER} when the default backend is MariaDB, as a TCP relay would
     *     hand its clients MariaDB's own greeting
     */
    public HandshakeHandler(Authenticator authenticator, ServerTls tls, int maxPacketSize, SessionOpener opener, int connectionId,
                            String serverVersion, Duration connectTimeout, LoginAttempt attempt, Capabilities offered) {
        this.offered = offered;
        this.connectTimeout = connectTimeout;
        this.attempt = attempt;
        this.serverVersion = serverVersion;
        this.authenticator = authenticator;
        this.tls = tls;
        this.maxPacketSize = maxPacketSize;
        this.opener = opener;
        this.connectionId = connectionId;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        HandshakeV10 greeting = new HandshakeV10(serverVersion, connectionId, seed, offered, SERVER_COLLATION,
                ServerStatus.of(false, true), authenticator.defaultPlugin().wireName());
        ctx.writeAndFlush(new Packet(0, greeting.encode(ctx.alloc())));
        if (!connectTimeout.isZero()) {
            deadline = ctx.executor().schedule(() -> timedOut(ctx), connectTimeout.toNanos(), TimeUnit.NANOSECONDS);
        }
        ctx.fireChannelActive();
    }

    /** MySQL's connect_timeout sends nothing: the client sees the connection lost during authentication. */
    private void timedOut(ChannelHandlerContext ctx) {
        if (!ctx.isRemoved()) {
            attempt.failed();
            ctx.close();
        }
    }

    /** A client gone before it authenticated (a port scan, a peer that gave up) is a failed attempt too. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        attempt.failed();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (phase == Phase.STARTING_TLS && msg instanceof ByteBuf raw) { // the removed framer hands over what it held
            afterSslRequest = afterSslRequest == null ? raw : ctx.alloc().compositeBuffer().addComponents(true, afterSslRequest, raw);
            return;
        }
        if (!(msg instanceof Packet packet)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            sequenceId = packet.sequenceId();
            switch (phase) {
                case AWAITING_RESPONSE, AWAITING_TLS_RESPONSE -> onResponse(ctx, packet.content());
                case AUTHENTICATING -> perform(ctx, exchange.next(ByteBufUtil.getBytes(packet.content())));
                case STARTING_TLS -> throw new IllegalStateException("a packet while TLS starts");
            }
        } finally {
            packet.release();
        }
    }

    private void onResponse(ChannelHandlerContext ctx, ByteBuf content) {
        if (phase == Phase.AWAITING_RESPONSE && SslRequest.isSslRequest(content)) {
            startTls(ctx);
            return;
        }
        response = HandshakeResponse.decode(content);
        boolean secure = phase == Phase.AWAITING_TLS_RESPONSE;
        if (tls.required() && !secure) {
            attempt.excused();
            send(ctx, ErrPackets.of(ErrorCode.SECURE_TRANSPORT_REQUIRED).encode(ctx.alloc()))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        phase = Phase.AUTHENTICATING;
        exchange = new AuthExchange(authenticator, seed, secure, response.user(), host(ctx.channel().remoteAddress()), response.database());
        perform(ctx, exchange.start(response.authPlugin(), response.authResponse()));
    }

    /**
     * TLS goes in front of the framing. The client may have sent its ClientHello right behind the
     * SSL request, so the cleartext framer may hold TLS bytes: it is removed (handing them here),
     * a new framer goes behind the SslHandler, and those bytes re-enter the pipeline from its head.
     */
    private void startTls(ChannelHandlerContext ctx) {
        phase = Phase.STARTING_TLS;
        ChannelPipeline p = ctx.pipeline();
        String framer = p.context(PacketDecoder.class).name();
        p.remove(framer);
        String encoder = p.context(PacketEncoder.class).name();
        p.addBefore(encoder, "tls", tls.newHandler(ctx.alloc()));
        p.addBefore(encoder, framer, new PacketDecoder(maxPacketSize));
        phase = Phase.AWAITING_TLS_RESPONSE;
        ByteBuf early = afterSslRequest;
        afterSslRequest = null;
        if (early != null) {
            p.fireChannelRead(early);
            p.fireChannelReadComplete();
        }
    }

    private void perform(ChannelHandlerContext ctx, AuthExchange.Step step) {
        switch (step) {
            case AuthExchange.SwitchTo s -> send(ctx, new AuthSwitchRequest(s.plugin().wireName(), s.data()).encode(ctx.alloc()));
            case AuthExchange.MoreData m -> send(ctx, new AuthMoreData(m.data()).encode(ctx.alloc()));
            case AuthExchange.Done d -> {
                if (d.preface() != null) {
                    send(ctx, new AuthMoreData(d.preface()).encode(ctx.alloc()));
                }
                finish(ctx, d.outcome());
            }
        }
    }

    private void finish(ChannelHandlerContext ctx, Authenticator.Outcome outcome) {
        switch (outcome) {
            case Authenticator.Denied d -> {
                // 1044 and 1049 come only after the password matched: nothing was guessed wrong
                if (d.errno() == ErrorCode.ACCESS_DENIED.errno()) {
                    attempt.failed();
                } else {
                    attempt.succeeded();
                }
                send(ctx, new ErrPacket(d.errno(), d.sqlState(), d.message()).encode(ctx.alloc()))
                        .addListener(ChannelFutureListener.CLOSE);
            }
            case Authenticator.Accepted a -> {
                attempt.succeeded();
                cancelDeadline();
                send(ctx, new OkPacket(0, 0, ServerStatus.of(false, true), 0, "").encode(ctx.alloc(), false));
                // what the client answered, MariaDB's extended bits included (a MySQL client sets CLIENT_MYSQL: none)
                Capabilities common = response.capabilities().commonWith(offered);
                ctx.pipeline().replace(this, "commands", opener.open(ctx.channel(), a, common, connectionId, response.collation()));
            }
        }
    }

    /** Each server packet of the connection phase follows the one before it, whoever sent that. */
    private io.netty.channel.ChannelFuture send(ChannelHandlerContext ctx, ByteBuf payload) {
        sequenceId = (sequenceId + 1) & 0xFF;
        return ctx.writeAndFlush(new Packet(sequenceId, payload));
    }

    /** A client's address as MySQL writes it in messages ('app'@'127.0.0.1'). */
    public static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress() == null ? inet.getHostString()
                : inet.getAddress().getHostAddress() : "localhost";
    }

    private void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel(false);
            deadline = null;
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelDeadline();
        if (afterSslRequest != null) {
            afterSslRequest.release();
            afterSslRequest = null;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        attempt.failed();
        if (cause instanceof SSLException || cause.getCause() instanceof SSLException) {
            ctx.close(); // a failed TLS handshake: no cleartext ERR can reach the client
            return;
        }
        if (phase == Phase.AWAITING_RESPONSE && sequenceId == 0) {
            sequenceId = 1; // the response never decoded (too long): answer it anyway
        }
        ErrPacket err = cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException
                ? ErrPackets.of(ErrorCode.PACKET_TOO_LARGE)
                : ErrPackets.of(ErrorCode.BAD_HANDSHAKE);
        send(ctx, err.encode(ctx.alloc())).addListener(ChannelFutureListener.CLOSE);
    }
}
