package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Promise;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.server.auth.CachingSha2Password;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.AuthSwitchRequest;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.SslRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * One relay connection to a backend, on the event loop of the client connections it serves: the
 * connection phase (greeting; TLS as the backend's URL asks — an SSLRequest, then an
 * {@link io.netty.handler.ssl.SslHandler} at the head of the pipeline; HandshakeResponse41,
 * mysql_native_password, caching_sha2_password's fast path or, over TLS, its full authentication,
 * an auth switch between the two), then one command at a time whose response packets go to a
 * {@link Listener} undecoded. Event-loop confined.
 *
 * <p>Buffer lifetime: each packet handed to the listener is the listener's to release.
 */
public final class BackendConnection extends ChannelInboundHandlerAdapter {
    /** Receives the response to one command, on the event loop. */
    public interface Listener {
        /** One response packet; the listener owns it. */
        void packet(BackendConnection connection, Packet packet);

        /** The backend's socket has no more to read for now: a moment to flush what was relayed. */
        void readComplete(BackendConnection connection);

        /** The connection broke before the response ended. */
        void lost(BackendConnection connection, Throwable cause);
    }

    /**
     * The collation Connector/J names in its handshake, so that column definitions carry the ids the
     * JDBC executor's connections see: utf8mb4_0900_ai_ci for servers it takes for 8.0.1 or later (MariaDB
     * 10 and 11 included: it compares the version numbers), utf8mb4_general_ci before.
     */
    static int collation(String serverVersion) {
        int dot = serverVersion.indexOf('.');
        try {
            return dot > 0 && Integer.parseInt(serverVersion.substring(0, dot)) >= 8 ? 255 : 45;
        } catch (NumberFormatException e) {
            return 45;
        }
    }
    /**
     * LOCAL_FILES: a native transaction's LOAD DATA LOCAL sends its rows on these connections
     * ({@link LocalFileUpload}); no file of this host is ever read, whatever a backend asks for.
     */
    private static final int WANTED = Capabilities.LONG_PASSWORD | Capabilities.LONG_FLAG | Capabilities.PROTOCOL_41
            | Capabilities.TRANSACTIONS | Capabilities.SECURE_CONNECTION | Capabilities.MULTI_RESULTS | Capabilities.PLUGIN_AUTH
            | Capabilities.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capabilities.DEPRECATE_EOF | Capabilities.LOCAL_FILES;
    /**
     * MARIADB_CLIENT_CACHE_METADATA, when a MariaDB backend offers it and DEPRECATE_EOF is negotiated too (so that an
     * execute whose definitions are omitted has no EOF after them to wonder about): every column count then carries a
     * "metadata follows" byte, and an execute answers without definitions (0) when they are those of the statement's
     * prepare or its last execute that sent them ({@link RelayStatements.Statement#columns}, read by {@link QueryRelay}).
     * Text results always say 1; the other readers of a relay connection ({@link ResponseReader}, {@link StreamedResponse},
     * {@link ShowWarnings}) read the count and ignore the byte.
     */
    private static final int WANTED_EXTENDED = Capabilities.MARIADB_CACHE_METADATA;
    /** Response packets and payload bytes every relay connection of this JVM received (diagnostics, tests); added per response. */
    private static final LongAdder RECEIVED_PACKETS = new LongAdder();
    private static final LongAdder RECEIVED_BYTES = new LongAdder();
    private static final int NEEDED = Capabilities.PROTOCOL_41 | Capabilities.SECURE_CONNECTION | Capabilities.PLUGIN_AUTH;

    private enum State { GREETING, STARTING_TLS, AUTHENTICATING, SETTING_UP, READY, BUSY }

    private final BackendAddress address;
    private final boolean foundRows;
    private final String setup;
    private final Promise<BackendConnection> connected;
    private Channel channel;
    private State state = State.GREETING;
    private Capabilities capabilities;
    private boolean cachesMetadata;
    private byte[] seed;
    /** The backend's id of this connection (its handshake's connection id), for KILL QUERY. */
    private long threadId;
    private boolean encrypted;
    private Listener listener;
    /** Steps to write ahead of the next command ({@link #pipeline}). */
    private List<String> prelude = List.of();
    /** Steps written and not answered yet, oldest first. */
    private final ArrayDeque<String> ahead = new ArrayDeque<>();
    long idleSince;
    /** The current response's packets and payload bytes so far, added to {@link #RECEIVED_PACKETS} when it ends. */
    private int receivedPackets;
    private long receivedBytes;

    /** @param setup a SET to run once logged in ("" for none); its ERR fails the connection */
    BackendConnection(BackendAddress address, boolean foundRows, String setup, Promise<BackendConnection> connected) {
        this.address = address;
        this.foundRows = foundRows;
        this.setup = setup;
        this.connected = connected;
    }

    /** This connection as a lease already complete, made once: a pool hands an idle connection out per statement. */
    private io.netty.util.concurrent.Future<BackendConnection> asLease;

    /** This connection as a completed lease on {@code loop} (its own); a completed future keeps no listener, so one serves every lease. */
    io.netty.util.concurrent.Future<BackendConnection> asLease(io.netty.channel.EventLoop loop) {
        if (asLease == null) {
            asLease = loop.newSucceededFuture(this);
        }
        return asLease;
    }

    public Channel channel() {
        return channel;
    }

    public String backend() {
        return address.backend();
    }

    /** Result sets end with an OK (0xFE) packet and no EOF follows the column definitions. */
    public boolean endsResultsWithOk() {
        return capabilities.endsResultsWithOk();
    }

    /** MARIADB_CLIENT_CACHE_METADATA was negotiated: column counts carry a "metadata follows" byte (see {@link #WANTED_EXTENDED}). */
    public boolean cachesMetadata() {
        return cachesMetadata;
    }

    /** Idle, logged in and open: fit to take a command. */
    long threadId() {
        return threadId;
    }

    /** A statement was sent and its response has not ended: the backend may still be running it. */
    boolean running() {
        return state == State.BUSY;
    }

    boolean usable() {
        return state == State.READY && channel.isActive();
    }

    /**
     * {@code steps}, statements that answer OK (a transaction's opening: settings, isolation level,
     * START TRANSACTION, savepoints), go out in the same write as the next command, ahead of it, and
     * their OKs are read and dropped here: one round trip for all. An ERR to any of them closes the
     * connection (its listener sees it lost, with the backend's message). Call while ready.
     */
    void pipeline(List<String> steps) {
        prelude = steps;
    }

    /** As {@link #pipeline}, {@code step} going out after the steps already set to go ahead of the next command. */
    void pipelineAlso(String step) {
        List<String> more = new java.util.ArrayList<>(prelude.size() + 1);
        more.addAll(prelude);
        more.add(step);
        prelude = more;
    }

    /** Steps are set to go out ahead of the next command, or are not answered yet. */
    boolean pipelining() {
        return !prelude.isEmpty() || !ahead.isEmpty();
    }

    /** Writes the pipelined steps, if any, unflushed: the command that follows flushes them with it. */
    private void writePrelude() {
        for (String step : prelude) {
            byte[] text = ClientCharset.utf8(step);
            channel.write(new Packet(0, channel.alloc().ioBuffer(1 + text.length).writeByte(0x03).writeBytes(text)), channel.voidPromise());
            ahead.addLast(step);
        }
        prelude = List.of();
    }

    /** The answer to a pipelined step: an OK is dropped; anything else loses the connection. */
    private void preludeAnswered(ChannelHandlerContext ctx, Packet packet) {
        String step = ahead.pollFirst();
        try {
            ByteBuf in = packet.content();
            if (in.isReadable() && in.getUnsignedByte(in.readerIndex()) == 0x00) {
                return;
            }
            String why = in.isReadable() && in.getUnsignedByte(in.readerIndex()) == 0xFF ? ": " + ErrPacket.decode(in).message() : "";
            Listener l = listener;
            listener = null;
            state = State.GREETING; // never usable again
            ahead.clear();
            if (l != null) {
                l.lost(this, new IllegalStateException("backend " + backend() + " refused '" + step + "'" + why));
            }
            ctx.close();
        } finally {
            packet.release();
        }
    }

    /** Sends COM_QUERY; the response goes to {@code listener} until {@link #responseEnded}. */
    public void query(String sql, Listener responseListener) {
        if (state != State.READY) {
            throw new IllegalStateException("backend connection is " + state + ", not ready");
        }
        state = State.BUSY;
        listener = responseListener;
        writePrelude();
        // bytes a client sent that were no UTF-8 go back exactly as they came (ClientCharset.utf8), written in place
        int length = 1 + StatementText.length(sql);
        if (length < Packet.MAX_WIRE_PAYLOAD) {
            // the one wire packet whole (header, command, text) in one buffer: the packet encoder lets it through
            ByteBuf wire = channel.alloc().ioBuffer(Packet.HEADER_LENGTH + length).writeMediumLE(length).writeByte(0).writeByte(0x03);
            StatementText.write(wire, sql);
            channel.writeAndFlush(wire, channel.voidPromise());
            return;
        }
        ByteBuf payload = channel.alloc().ioBuffer(length).writeByte(0x03);
        StatementText.write(payload, sql);
        channel.writeAndFlush(new Packet(0, payload), channel.voidPromise());
    }

    /**
     * Sends a command whose payload (command byte first) the caller built, as {@link #query} sends
     * COM_QUERY; the connection writes and releases {@code payload}.
     */
    public void command(ByteBuf payload, Listener responseListener) {
        if (state != State.READY) {
            payload.release();
            throw new IllegalStateException("backend connection is " + state + ", not ready");
        }
        state = State.BUSY;
        listener = responseListener;
        writePrelude();
        channel.writeAndFlush(new Packet(0, payload), channel.voidPromise());
    }

    /**
     * Sends a command the backend never answers (COM_STMT_CLOSE) while the connection is ready: it
     * stays ready, and the next command follows it on the wire. Released by the connection.
     */
    public void commandWithoutReply(ByteBuf payload) {
        if (state != State.READY) {
            payload.release();
            return;
        }
        channel.write(new Packet(0, payload), channel.voidPromise());
    }

    /** The listener saw the response's last packet: the connection takes the next command. */
    public void responseEnded() {
        listener = null;
        state = State.READY;
        if (receivedPackets != 0) {
            RECEIVED_PACKETS.add(receivedPackets);
            RECEIVED_BYTES.add(receivedBytes);
            receivedPackets = 0;
            receivedBytes = 0;
        }
    }

    /** Response packets (commands' answers, not the login's) all relay connections of this JVM received so far. */
    public static long receivedPackets() {
        return RECEIVED_PACKETS.sum();
    }

    /** Their payload bytes (wire headers not counted). */
    public static long receivedBytes() {
        return RECEIVED_BYTES.sum();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Packet packet = (Packet) msg;
        if (state == State.BUSY && !ahead.isEmpty()) {
            preludeAnswered(ctx, packet);
            return;
        }
        if (state == State.BUSY) {
            receivedPackets++;
            receivedBytes += packet.content().readableBytes();
            listener.packet(this, packet);
            return;
        }
        try {
            switch (state) {
                case GREETING -> greeting(ctx, packet);
                case STARTING_TLS -> fail(ctx, new IllegalStateException("backend " + backend() + " sent a packet during the TLS handshake"));
                case AUTHENTICATING -> authenticating(ctx, packet);
                case SETTING_UP -> {
                    ByteBuf in = packet.content();
                    if (in.getUnsignedByte(in.readerIndex()) == 0x00) {
                        state = State.READY;
                        connected.trySuccess(this);
                    } else {
                        fail(ctx, new IllegalStateException("backend " + backend() + " refused '" + setup + "'"));
                    }
                }
                default -> fail(ctx, new IllegalStateException("backend " + backend() + " sent a packet while idle"));
            }
        } catch (RuntimeException e) {
            fail(ctx, e);
        } finally {
            packet.release();
        }
    }

    private void greeting(ChannelHandlerContext ctx, Packet packet) {
        ByteBuf in = packet.content();
        if (in.getUnsignedByte(in.readerIndex()) == ErrPacket.HEADER) {
            fail(ctx, new IllegalStateException(ErrPacket.decode(in).message()));
            return;
        }
        HandshakeV10 hello = HandshakeV10.decode(in);
        threadId = Integer.toUnsignedLong(hello.connectionId());
        if ((hello.capabilities().bits() & NEEDED) != NEEDED) {
            fail(ctx, new BackendAddress.Unrelayable(backend(), "its handshake lacks protocol 4.1 or plugin authentication"));
            return;
        }
        BackendTls tls = address.tls();
        boolean offered = (hello.capabilities().bits() & Capabilities.SSL) != 0;
        if (tls != null && tls.required() && !offered) {
            // as Connector/J with sslMode=REQUIRED: no connection rather than one in clear
            fail(ctx, new IllegalStateException("backend " + backend() + " offers no TLS, which its URL requires"));
            return;
        }
        boolean encrypt = tls != null && offered; // PREFERRED: TLS when offered
        int wanted = WANTED | (foundRows ? Capabilities.FOUND_ROWS : 0) | (encrypt ? Capabilities.SSL : 0)
                | (address.database().isEmpty() ? 0 : Capabilities.CONNECT_WITH_DB);
        Capabilities common = hello.capabilities().commonWith(new Capabilities(wanted, WANTED_EXTENDED));
        // HandshakeV10 keeps extended capabilities only from a greeting without CLIENT_MYSQL (MariaDB); a MySQL backend has none
        capabilities = common.mariaDbExtended() && common.endsResultsWithOk() ? common : new Capabilities(common.bits());
        cachesMetadata = capabilities.cachesMetadata();
        seed = hello.authSeed();
        String plugin = hello.authPlugin();
        if (!plugin.equals(CachingSha2Password.PLUGIN)) {
            plugin = NativePassword.PLUGIN; // anything else: offer native; the backend switches us if it must
        }
        HandshakeResponse response = new HandshakeResponse(capabilities, 1 << 30, collation(hello.serverVersion()), address.user(),
                scramble(plugin, seed), address.database().isEmpty() ? null : address.database(), plugin, Map.of());
        if (!encrypt) {
            state = State.AUTHENTICATING;
            ctx.writeAndFlush(new Packet(packet.sequenceId() + 1, response.encode(ctx.alloc())), ctx.voidPromise());
            return;
        }
        // Protocol::SSLRequest in clear; the write reaches the outbound buffer before the SslHandler
        // joins the pipeline (all on this event loop), so only what follows is encrypted
        state = State.STARTING_TLS;
        ctx.writeAndFlush(new Packet(packet.sequenceId() + 1, new SslRequest(capabilities, 1 << 30,
                collation(hello.serverVersion())).encode(ctx.alloc())), ctx.voidPromise());
        SslHandler ssl = tls.newHandler(ctx.alloc());
        ctx.pipeline().addFirst("tls", ssl);
        int sequenceId = packet.sequenceId() + 2;
        ssl.handshakeFuture().addListener(f -> {
            if (!f.isSuccess()) {
                fail(ctx, f.cause());
            } else if (state == State.STARTING_TLS) {
                encrypted = true;
                state = State.AUTHENTICATING;
                ctx.writeAndFlush(new Packet(sequenceId, response.encode(ctx.alloc())), ctx.voidPromise());
            }
        });
    }

    private void authenticating(ChannelHandlerContext ctx, Packet packet) {
        ByteBuf in = packet.content();
        int header = in.getUnsignedByte(in.readerIndex());
        switch (header) {
            case 0x00 -> {
                state = State.SETTING_UP;
                // as the JDBC executor's connections (sessionVariables): a client pausing its reads (back-pressure)
                // has ten minutes before the backend gives up on the relay
                String sql = "SET net_write_timeout = 600" + (setup.isEmpty() ? "" : ", " + setup.substring("SET ".length()));
                byte[] text = ClientCharset.utf8(sql);
                ctx.writeAndFlush(new Packet(0, ctx.alloc().ioBuffer(1 + text.length).writeByte(0x03).writeBytes(text)),
                        ctx.voidPromise());
            }
            case ErrPacket.HEADER -> fail(ctx, new IllegalStateException("backend " + backend() + " refused the relay's login: "
                    + ErrPacket.decode(in).message()));
            case AuthSwitchRequest.HEADER -> {
                AuthSwitchRequest request = AuthSwitchRequest.decode(in);
                if (!request.plugin().equals(NativePassword.PLUGIN) && !request.plugin().equals(CachingSha2Password.PLUGIN)) {
                    fail(ctx, new BackendAddress.Unrelayable(backend(), "its account uses " + request.plugin()
                            + " (the relay speaks mysql_native_password and caching_sha2_password)"));
                    return;
                }
                seed = Arrays.copyOf(request.data(), 20); // the data ends with a NUL
                byte[] token = scramble(request.plugin(), seed);
                ctx.writeAndFlush(new Packet(packet.sequenceId() + 1, ctx.alloc().buffer(token.length).writeBytes(token)),
                        ctx.voidPromise());
            }
            case 0x01 -> {
                int status = in.readableBytes() > 1 ? in.getUnsignedByte(in.readerIndex() + 1) : -1;
                if (status == CachingSha2Password.PERFORM_FULL_AUTHENTICATION && encrypted) {
                    // over TLS the password itself goes, NUL-terminated, as every MySQL client sends it
                    byte[] password = address.password().getBytes(StandardCharsets.UTF_8);
                    ctx.writeAndFlush(new Packet(packet.sequenceId() + 1, ctx.alloc().buffer(password.length + 1)
                            .writeBytes(password).writeByte(0)), ctx.voidPromise());
                } else if (status != CachingSha2Password.FAST_AUTH_SUCCESS) {
                    fail(ctx, new BackendAddress.Unrelayable(backend(), "caching_sha2_password asks for full authentication,"
                            + " which needs TLS (not in this backend's URL) or the server's RSA key"));
                }
                // fast auth succeeded: the OK follows
            }
            default -> fail(ctx, new IllegalStateException("backend " + backend() + " sent header 0x"
                    + Integer.toHexString(header) + " during login"));
        }
    }

    private byte[] scramble(String plugin, byte[] nonce) {
        return plugin.equals(CachingSha2Password.PLUGIN) ? CachingSha2Password.scramble(nonce, address.password())
                : NativePassword.scramble(nonce, address.password());
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        connected.tryFailure(cause);
        ctx.close();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (listener != null) {
            listener.readComplete(this);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connected.tryFailure(new IllegalStateException("backend " + backend() + " closed the connection during login"));
        Listener l = listener;
        listener = null;
        state = State.GREETING; // never usable again
        if (l != null) {
            l.lost(this, new IllegalStateException("backend " + backend() + " closed the connection"));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connected.tryFailure(cause);
        ctx.close();
    }
}
