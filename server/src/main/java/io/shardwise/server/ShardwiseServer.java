package io.shardwise.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.shardwise.core.Engine;
import io.shardwise.core.config.ServerConfig;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.session.ServerIdentity;
import io.shardwise.server.auth.AuthPlugin;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.auth.RsaKeys;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ReadBuffers;
import io.shardwise.server.relay.Relays;
import io.shardwise.server.session.CommandDispatcher;
import io.shardwise.server.session.CommandHandler;
import io.shardwise.server.session.ErrPackets;
import io.shardwise.server.session.HandshakeHandler;
import io.shardwise.server.session.IdleTimeout;
import io.shardwise.server.tls.ServerTls;
import java.io.IOException;
import java.net.BindException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The MySQL-protocol face: a Netty server whose connections each become an engine session.
 * Pipeline per client: {@link PacketDecoder} → {@link PacketEncoder} → {@link HandshakeHandler},
 * which becomes a {@link CommandDispatcher} once the client is in; a client that asks for TLS gets an
 * {@code SslHandler} in front of the framing. Does not own the engine: close
 * the server first, then the engine.
 */
public final class ShardwiseServer implements AutoCloseable {
    /**
     * Per-server limits on clients.
     *
     * @param maxConnections clients served at once; the next gets ERR 1040 (MySQL's default is 151;
     *     a proxy's clients are cheap, a virtual thread each, hence 1000)
     * @param idleTimeout a client sending no command for this long is disconnected (ERR 4031 first,
     *     as MySQL 8.0.24+ does); {@link Duration#ZERO} for never. A running statement is not idle.
     * @param maxPacketSize the largest client message (MySQL's max_allowed_packet, 64 MiB by
     *     default); a longer one gets ERR 1153 and the connection closes
     */
    public record Limits(int maxConnections, Duration idleTimeout, int maxPacketSize) {
        public static final Limits DEFAULT = of(ServerConfig.DEFAULT);

        public Limits {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
            }
            if (idleTimeout.isNegative()) {
                throw new IllegalArgumentException("idleTimeout must not be negative: " + idleTimeout);
            }
            if (maxPacketSize < 1) {
                throw new IllegalArgumentException("maxPacketSize must be positive: " + maxPacketSize);
            }
        }

        public Limits(int maxConnections, Duration idleTimeout) {
            this(maxConnections, idleTimeout, ServerConfig.DEFAULT.maxPacketSize());
        }

        /** The limits the configuration's server section sets. */
        public static Limits of(ServerConfig settings) {
            return new Limits(settings.maxConnections(), settings.idleTimeout(), settings.maxPacketSize());
        }
    }

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final ChannelGroup clients = new DefaultChannelGroup("shardwise-clients", GlobalEventExecutor.INSTANCE);
    private final Set<CommandDispatcher> sessions = ConcurrentHashMap.newKeySet();
    private final SessionRegistry registry = new SessionRegistry();
    private final ConnectErrors connectErrors;
    private final Channel listener;
    private final ServerTls tls;
    private final Transport transport = Transport.best();
    /** The packet relay's connections; null when {@code server.relay} is off. */
    private final Relays relays;
    /** Session threads started: one per connection that ran a command the event loop does not answer. */
    private final java.util.concurrent.atomic.LongAdder sessionThreads = new java.util.concurrent.atomic.LongAdder();
    /** Commands session threads ran: each one the event loop did not answer itself. */
    private final java.util.concurrent.atomic.LongAdder sessionCommands = new java.util.concurrent.atomic.LongAdder();

    private ShardwiseServer(Engine engine, ServerConfig settings, String bind, int port, Limits limits) {
        AtomicInteger connected = new AtomicInteger();
        connectErrors = new ConnectErrors(settings.maxConnectErrors());
        registry.connectErrors(connectErrors);
        tls = ServerTls.of(settings.tls());
        AuthPlugin plugin = AuthPlugin.named(settings.defaultAuthPlugin());
        // generated now, not at the first login: key generation must not stall an event loop
        Authenticator authenticator = new Authenticator(settings.users(), engine.rule().schema(), plugin,
                plugin == AuthPlugin.CACHING_SHA2_PASSWORD ? RsaKeys.shared() : null);
        AtomicInteger connectionIds = new AtomicInteger();
        // read once, before the first client: its handshake must already name the backends' server
        ServerIdentity identity = ServerIdentity.of(engine.rule());
        // and what sessions start from, so a handshake's character set applies without asking a backend on an event loop
        io.shardwise.core.session.SessionStatements.warm(engine.rule());
        ServerIdentity.warnIfBackendsDiffer(engine.rule());
        String serverVersion = identity.handshakeVersion();
        // MariaDB's greeting for a MariaDB backend: its clients (libmariadb, MariaDB Connector/J) then cache prepared statements' metadata
        Capabilities greeting = identity.mariaDb() ? Capabilities.MARIADB_SERVER
                : Capabilities.SERVER;
        relays = settings.relay() ? new Relays(engine.rule().config().backends(), transport.clientChannel()) : null;
        HandshakeHandler.SessionOpener opener = (channel, client, capabilities, id, collation) -> {
            CommandDispatcher session = new CommandDispatcher(
                    CommandHandler.open(engine, client, HandshakeHandler.host(channel.remoteAddress()), id, capabilities, registry,
                            limits.maxPacketSize(), collation),
                    capabilities, relays).serverIdleTimeout(limits.idleTimeout().toMillis()).countThreads(sessionThreads)
                    .countCommands(sessionCommands);
            sessions.add(session);
            Runnable leave = registry.register(id, client.user(), session::cancelRunning, channel::close);
            session.finished().whenComplete((done, failure) -> {
                leave.run();
                sessions.remove(session);
            });
            return session;
        };
        boss = new MultiThreadIoEventLoopGroup(1, transport.ioHandler());
        workers = new MultiThreadIoEventLoopGroup(eventLoops(), transport.ioHandler());
        try {
            listener = new ServerBootstrap().group(boss, workers).channel(transport.serverChannel())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.RECVBUF_ALLOCATOR, ReadBuffers.client())
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            if (connected.incrementAndGet() > limits.maxConnections()) {
                                connected.decrementAndGet();
                                refuse(ch, ErrPackets.of(ErrorCode.TOO_MANY_CONNECTIONS));
                                return;
                            }
                            ch.closeFuture().addListener(closed -> connected.decrementAndGet());
                            String host = HandshakeHandler.host(ch.remoteAddress());
                            if (connectErrors.blocked(host)) {
                                refuse(ch, ErrPackets.of(ErrorCode.HOST_IS_BLOCKED, host));
                                return;
                            }
                            clients.add(ch);
                            if (!limits.idleTimeout().isZero()) {
                                ch.pipeline().addLast(CommandDispatcher.IDLE, new IdleTimeout(limits.idleTimeout().toMillis(), TimeUnit.MILLISECONDS));
                            }
                            ch.pipeline().addLast("framer", new PacketDecoder(limits.maxPacketSize()))
                                    .addLast("packets", PacketEncoder.INSTANCE)
                                    .addLast("handshake", new HandshakeHandler(authenticator, tls, limits.maxPacketSize(),
                                            opener, connectionIds.incrementAndGet(), serverVersion,
                                            settings.connectTimeout(), connectErrors.attempt(host), greeting));
                        }
                    })
                    .bind(bind, port).syncUninterruptibly().channel();
        } catch (Exception e) { // bind() rethrows the checked BindException undeclared
            shutdownGroups();
            tls.close();
            if (e instanceof IOException io) {
                throw new UncheckedIOException("cannot listen on " + bind + ":" + port + ": " + io.getMessage(), asBindException(io));
            }
            throw e;
        }
    }

    /**
     * The native transport reports a taken port as a plain IOException carrying strerror's text,
     * where NIO throws {@link BindException}; callers (the demo's fallback to a free port) rely on
     * the latter, so it is restored here.
     */
    private static IOException asBindException(IOException e) {
        if (e instanceof BindException || e.getMessage() == null || !e.getMessage().contains("Address already in use")) {
            return e;
        }
        BindException bind = new BindException(e.getMessage());
        bind.initCause(e);
        return bind;
    }

    /**
     * Listens on {@code bind:port} (port 0: an ephemeral one) and serves {@code engine}'s schema, with
     * the users, limits, TLS and authentication of the configuration's server section.
     *
     * @throws UncheckedIOException when it cannot listen (its cause a {@link java.net.BindException} when the port is taken)
     */
    public static ShardwiseServer start(Engine engine, String bind, int port) {
        ServerConfig settings = engine.rule().config().server();
        return new ShardwiseServer(engine, settings, bind, port, Limits.of(settings));
    }

    /**
     * As {@link #start(Engine, String, int)}, within {@code limits} instead of the configured ones: a
     * client over the connection limit gets ERR 1040 "Too many connections" (SQLSTATE 08004) instead of a handshake.
     */
    public static ShardwiseServer start(Engine engine, String bind, int port, Limits limits) {
        return new ShardwiseServer(engine, engine.rule().config().server(), bind, port, limits);
    }

    /** Serves {@code engine}'s schema with {@code settings} (bind address, users, limits, TLS, authentication) in place of its configuration's. */
    public static ShardwiseServer start(Engine engine, ServerConfig settings, int port) {
        return new ShardwiseServer(engine, settings, settings.bind(), port, Limits.of(settings));
    }

    /**
     * Too many connections (1040) or a blocked address (1129): MySQL sends the ERR in place of the
     * handshake (sequence id 0, no SQLSTATE: it knows nothing of the client yet), then closes.
     * Neither counts as a failed attempt of the address.
     */
    private static void refuse(SocketChannel ch, io.shardwise.server.protocol.ErrPacket err) {
        ch.pipeline().addLast("packets", PacketEncoder.INSTANCE);
        ch.writeAndFlush(new Packet(0, err.encodeBeforeHandshake(ch.alloc()))).addListener(ChannelFutureListener.CLOSE);
    }

    /** Failed connection attempts counted against {@code address} since its last successful login. */
    public int connectErrors(String address) {
        return connectErrors.failures(address);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) listener.localAddress();
    }

    /** The TLS side: its certificate (what clients that verify the server must trust) and whether TLS is required. */
    /** The Netty transport serving clients (epoll on Linux, else NIO). */
    public Transport transport() {
        return transport;
    }

    public ServerTls tls() {
        return tls;
    }

    /** Statements answered by relaying backend packets since the start (0 with the relay off). */
    public long relayedStatements() {
        return relays == null ? 0 : relays.relayedStatements();
    }

    /** Statements of native transactions that ran through the session's executor on relay connections. */
    public long nativeStatements() {
        return relays == null ? 0 : relays.nativeStatements();
    }

    /** Merged reads (of native transactions, or in autocommit) whose units the event loop sent before the session's thread planned and took them. */
    public long prefetchedStatements() {
        return relays == null ? 0 : relays.prefetchedStatements();
    }

    /** Merged reads of native transactions the event loop merged and answered, never waking the session's thread. */
    public long loopMergedStatements() {
        return relays == null ? 0 : relays.loopMergedStatements();
    }

    /** Autocommit reads of several units (merges) that ran on relay connections instead of the JDBC executor. */
    public long autocommitReads() {
        return relays == null ? 0 : relays.autocommitReads();
    }

    /** Responses of native transactions streamed to the session's thread (single-unit reads it runs, a backend's last unit of a merge). */
    public long streamedResponses() {
        return relays == null ? 0 : relays.streamedResponses();
    }

    /** The most row bytes one streamed response held in memory at once since the start: bounded whatever the result's size. */
    public long streamedPeakBytes() {
        return relays == null ? 0 : relays.streamedPeakBytes();
    }

    /** Relay connections open and not idle in their pools: leased, pinned or logging in (0 when nothing runs: leak checks). */
    public int busyRelayConnections() {
        return relays == null ? 0 : relays.busyConnections();
    }

    /** Relay connections held by open native transactions. */
    public int pinnedConnections() {
        return relays == null ? 0 : relays.pinnedConnections();
    }

    /** Native transactions waiting for their relay connections (admission) now. */
    public int waitingTransactions() {
        return relays == null ? 0 : relays.waitingTransactions();
    }

    /**
     * Session threads started since the start: a connection gets one with its first command that is
     * not relayed (nor COM_QUIT), so clients that only run relayed statements cost none.
     */
    public long sessionThreads() {
        return sessionThreads.sum();
    }

    /** Commands run on session threads since the start (a hop off the event loop each; relayed ones and those the loop answers are not). */
    public long sessionCommands() {
        return sessionCommands.sum();
    }

    /** Connected clients (after the handshake or during it). */
    public int clientCount() {
        return clients.size();
    }

    /**
     * Stops accepting, closes every client connection, waits (up to 10 s) until their sessions have
     * released their backend connections, then stops the event loops. The engine can close after this.
     */
    @Override
    public void close() {
        shutdown(Duration.ZERO);
    }

    /**
     * Graceful shutdown (SIGTERM): stops accepting at once (a new connection is refused), closes each
     * client as soon as it has no command under way and no transaction open, and lets the others
     * finish theirs for up to {@code drain}; then closes whoever is left, which cancels their
     * statements and rolls their transactions back, waits (up to 10 s) until every session has
     * released its backend connections, and stops the event loops. The engine can close after this.
     *
     * @return the sessions still busy at the deadline, whose work was cut off (0: everything drained)
     */
    public int shutdown(Duration drain) {
        listener.close().syncUninterruptibly();
        long drainDeadline = System.nanoTime() + drain.toNanos();
        int cut = 0;
        if (!drain.isZero()) {
            // polled, not signalled: a session's last command may end at any moment on its own thread
            while (!sessions.isEmpty() && System.nanoTime() < drainDeadline) {
                for (CommandDispatcher session : List.copyOf(sessions)) {
                    session.closeIfDrained();
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            cut = sessions.size();
        }
        // the relay's connections close only now: a relayed statement is one to drain too
        if (relays != null) {
            relays.close();
        }
        clients.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (CommandDispatcher session : List.copyOf(sessions)) {
            try {
                session.finished().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (ExecutionException | TimeoutException e) {
                // a session stuck on a backend: the engine's close ends it
            }
        }
        shutdownGroups();
        tls.close();
        return cut;
    }

    private void shutdownGroups() {
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /**
     * One event loop per core, not Netty's two: backend work runs on virtual threads, so the loops
     * only frame packets, and fewer loops each find more ready connections per wake-up (measured:
     * about a fifth less CPU per point select on 2 cores). {@code -Dio.netty.eventLoopThreads} overrides.
     */
    static int eventLoops() {
        return Math.max(1, Integer.getInteger("io.netty.eventLoopThreads", Runtime.getRuntime().availableProcessors()));
    }
}
