package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.AuthSwitchRequest;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Arrays;

/**
 * The connection phase on the event loop: greeting, the client's response, an auth switch to
 * mysql_native_password when the client proposed another plugin, then OK (and this handler
 * replaces itself with the session's command handler) or ERR and close. Only CPU work (one SHA-1
 * check) happens here, so it runs on the event loop.
 */
public final class HandshakeHandler extends ChannelInboundHandlerAdapter {
    /** Builds the handler that serves commands once a client is in; called on the event loop. */
    @FunctionalInterface
    public interface SessionOpener {
        ChannelHandler open(Channel channel, Authenticator.Accepted client, Capabilities capabilities, int connectionId);
    }

    public static final String SERVER_VERSION = "8.0.36-shardwise";
    /** utf8mb4_general_ci: a collation every MySQL and MariaDB client knows. */
    static final int SERVER_COLLATION = 45;

    private enum Phase { AWAITING_RESPONSE, AWAITING_SWITCHED_RESPONSE }

    private final Authenticator authenticator;
    private final SessionOpener opener;
    private final int connectionId;
    private final byte[] seed = NativePassword.newSeed();
    private Phase phase = Phase.AWAITING_RESPONSE;
    private HandshakeResponse response;

    public HandshakeHandler(Authenticator authenticator, SessionOpener opener, int connectionId) {
        this.authenticator = authenticator;
        this.opener = opener;
        this.connectionId = connectionId;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        HandshakeV10 greeting = new HandshakeV10(SERVER_VERSION, connectionId, seed, Capabilities.SERVER, SERVER_COLLATION,
                ServerStatus.of(false, true), NativePassword.PLUGIN);
        ctx.writeAndFlush(new Packet(0, greeting.encode(ctx.alloc())));
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Packet packet)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            int reply = packet.sequenceId() + 1;
            switch (phase) {
                case AWAITING_RESPONSE -> {
                    response = HandshakeResponse.decode(packet.content());
                    String plugin = response.authPlugin();
                    if (plugin != null && !plugin.isEmpty() && !plugin.equals(NativePassword.PLUGIN)) {
                        phase = Phase.AWAITING_SWITCHED_RESPONSE;
                        byte[] data = Arrays.copyOf(seed, seed.length + 1); // the seed, NUL-terminated
                        ctx.writeAndFlush(new Packet(reply, new AuthSwitchRequest(NativePassword.PLUGIN, data).encode(ctx.alloc())));
                        return;
                    }
                    finish(ctx, response.authResponse(), reply);
                }
                case AWAITING_SWITCHED_RESPONSE -> finish(ctx, ByteBufUtil.getBytes(packet.content()), reply);
            }
        } finally {
            packet.release();
        }
    }

    private void finish(ChannelHandlerContext ctx, byte[] authResponse, int sequenceId) {
        Capabilities common = response.capabilities().commonWith(Capabilities.SERVER);
        Authenticator.Outcome outcome = authenticator.authenticate(response.user(), host(ctx.channel().remoteAddress()),
                seed, authResponse, response.database());
        switch (outcome) {
            case Authenticator.Denied d -> ctx.writeAndFlush(new Packet(sequenceId,
                    new ErrPacket(d.errno(), d.sqlState(), d.message()).encode(ctx.alloc()))).addListener(ChannelFutureListener.CLOSE);
            case Authenticator.Accepted a -> {
                ctx.writeAndFlush(new Packet(sequenceId, new OkPacket(0, 0, ServerStatus.of(false, true), 0, "").encode(ctx.alloc(), false)));
                ctx.pipeline().replace(this, "commands", opener.open(ctx.channel(), a, common, connectionId));
            }
        }
    }

    /** A client's address as MySQL writes it in messages ('app'@'127.0.0.1'). */
    public static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getAddress() == null ? inet.getHostString()
                : inet.getAddress().getHostAddress() : "localhost";
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ErrPacket err = cause instanceof TooLongFrameException || cause.getCause() instanceof TooLongFrameException
                ? new ErrPacket(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes")
                : new ErrPacket(1043, "08S01", "Bad handshake");
        ByteBuf payload = err.encode(ctx.alloc());
        ctx.writeAndFlush(new Packet(response == null ? 2 : 4, payload)).addListener(ChannelFutureListener.CLOSE);
    }
}
