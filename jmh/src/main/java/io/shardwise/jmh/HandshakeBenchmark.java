package io.shardwise.jmh;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.ReferenceCountUtil;
import io.shardwise.core.config.TlsConfig;
import io.shardwise.core.config.UserConfig;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.session.HandshakeHandler;
import io.shardwise.server.tls.ServerTls;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The server's side of connection set-up, without sockets (connection set-up through real sockets
 * and clients is {@code jmh/proxy-bench connect}):
 * <ul>
 *   <li>{@link #login}: the MySQL connection phase as {@link HandshakeHandler} runs it on an event
 *       loop: greeting (a fresh seed), the client's mysql_native_password response checked, OK,
 *       and the handler replaced by the session's (a stub here: opening an engine session needs a
 *       backend). Through the real framing, on an {@link EmbeddedChannel}.</li>
 *   <li>{@link #tlsFullHandshake}: one full TLS handshake (no resumption) between the server's
 *       {@link ServerTls} over its generated certificate and a client engine, in memory. The time is
 *       both sides' (one thread runs both); {@code clientProvider} picks the client's engine.</li>
 *   <li>{@link #tlsResumedHandshake}: the same client reconnecting: its engine offers the session
 *       ticket the server issued on the previous connection, and the server resumes it (TLS 1.3
 *       PSK with a fresh key exchange: no certificate, no signature).</li>
 * </ul>
 *
 * <p>{@link #main} splits the handshakes' CPU time between the server's engine and the client's.
 *
 * <p>Run (from the repository root, after {@code ./mvnw -pl server,jmh -am package -Pbench -DskipTests}):
 * <pre>
 * java -jar jmh/target/benchmarks.jar HandshakeBenchmark -f 1 -wi 5 -w 1s -i 5 -r 1s -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
public class HandshakeBenchmark {
    private static final int MAX_PACKET = 1 << 24;
    /** What a plaintext client announces: the server's capabilities without SSL. */
    private static final Capabilities CLIENT = new Capabilities(Capabilities.SERVER.bits() & ~Capabilities.SSL);

    @Param({"OPENSSL"})
    public String clientProvider;

    private Authenticator users;
    private ServerTls tls;
    private SslContext client;
    /** A second client context: its session cache keeps the tickets the server issues, so its engines resume. */
    private SslContext resumingClient;
    /** Set by {@link #main} only: each engine call's CPU time is then added to the server's or the client's side. */
    private boolean split;
    private long serverNanos;
    private long clientNanos;
    private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
    private final ChannelHandler session = new ChannelInboundHandlerAdapter() {
        @Override
        public boolean isSharable() {
            return true;
        }
    };

    @Setup(Level.Trial)
    public void setUp() throws SSLException {
        users = new Authenticator(List.of(new UserConfig("app", "app", List.of("pb"))), "pb");
        tls = ServerTls.of(TlsConfig.GENERATED);
        client = SslContextBuilder.forClient().sslProvider(SslProvider.valueOf(clientProvider))
                .trustManager(InsecureTrustManagerFactory.INSTANCE).protocols("TLSv1.3").build();
        resumingClient = SslContextBuilder.forClient().sslProvider(SslProvider.valueOf(clientProvider))
                .trustManager(InsecureTrustManagerFactory.INSTANCE).protocols("TLSv1.3").build();
        if (!login()) {
            throw new IllegalStateException("the login was not accepted");
        }
        long resumedBefore = tls.handshakes().resumed();
        tlsResumedHandshake(); // the first connection of the resuming client is a full one: it gets its ticket
        tlsResumedHandshake();
        if (resumedBefore >= 0 && tls.handshakes().resumed() != resumedBefore + 1) {
            throw new IllegalStateException("the reconnecting client did not resume its session: " + tls.handshakes());
        }
    }

    private ChannelHandler open(Channel channel, Authenticator.Accepted who, Capabilities caps, int id, int collation) {
        return session;
    }

    /** Greeting, response, OK; whether the client got in. */
    @Benchmark
    public boolean login() {
        EmbeddedChannel server = new EmbeddedChannel(new PacketDecoder(MAX_PACKET), PacketEncoder.INSTANCE,
                new HandshakeHandler(users, tls, MAX_PACKET, this::open, 1));
        ByteBuf greetingFrame = drain(server);
        byte[] seed = HandshakeV10.decode(greetingFrame.skipBytes(4)).authSeed();
        greetingFrame.release();
        ByteBuf response = new HandshakeResponse(CLIENT, MAX_PACKET, 45, "app", NativePassword.scramble(seed, "app"),
                "pb", NativePassword.PLUGIN, Map.of()).encode(ByteBufAllocator.DEFAULT);
        server.writeOneOutbound(new Packet(1, response));
        server.flushOutbound();
        server.writeInbound(drain(server)); // the response, framed by the server's own encoder
        ByteBuf ok = drain(server);
        boolean in = server.pipeline().get(HandshakeHandler.class) == null;
        server.finishAndReleaseAll();
        boolean okSent = ok.isReadable() && ok.getByte(4) == 0;
        ok.release();
        return in && okSent;
    }

    /** What the channel wrote since the last call (a packet's header and payload are separate buffers), as one buffer. */
    private static ByteBuf drain(EmbeddedChannel channel) {
        ByteBuf all = ByteBufAllocator.DEFAULT.heapBuffer();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            all.writeBytes(b);
            b.release();
        }
        return all;
    }

    /** One full TLS 1.3 handshake, both engines in this thread; the engines are freed after it. */
    @Benchmark
    public String tlsFullHandshake() throws SSLException {
        return handshake(client.newEngine(ByteBufAllocator.DEFAULT));
    }

    /**
     * One resumed TLS 1.3 handshake: the client (one peer, so its cache has a ticket for it) offers
     * the ticket of its previous connection, read from the server's last flight after the handshake.
     */
    @Benchmark
    public String tlsResumedHandshake() throws SSLException {
        return handshake(resumingClient.newEngine(ByteBufAllocator.DEFAULT, "shardwise.bench", 3306));
    }

    private String handshake(SSLEngine clientEngine) throws SSLException {
        long t = split ? CPU.getCurrentThreadCpuTime() : 0;
        SslHandler serverHandler = tls.newHandler(ByteBufAllocator.DEFAULT);
        SSLEngine server = serverHandler.engine();
        t = split ? account(t, true) : 0;
        try {
            clientEngine.beginHandshake();
            server.beginHandshake();
            ByteBuffer toServer = ByteBuffer.allocateDirect(64 * 1024);
            ByteBuffer toClient = ByteBuffer.allocateDirect(64 * 1024);
            ByteBuffer app = ByteBuffer.allocateDirect(64 * 1024);
            ByteBuffer empty = ByteBuffer.allocate(0);
            ByteBuffer ok = ByteBuffer.allocate(11); // an OK packet's size
            for (int round = 0; round < 20; round++) {
                step(clientEngine, empty, toServer, toClient, app);
                t = split ? account(t, false) : 0;
                step(server, empty, toClient, toServer, app);
                t = split ? account(t, true) : 0;
                if (done(clientEngine) && done(server)) {
                    // BoringSSL sends its TLS 1.3 session tickets with the server's first record (the login's
                    // OK in a real connection): written and read here so the resuming client gets them
                    ok.clear();
                    server.wrap(ok, toClient);
                    t = split ? account(t, true) : 0;
                    step(clientEngine, empty, toServer, toClient, app);
                    t = split ? account(t, false) : 0;
                    return server.getSession().getProtocol();
                }
            }
            throw new IllegalStateException("the TLS handshake did not finish");
        } finally {
            ReferenceCountUtil.release(clientEngine);
            t = split ? account(t, false) : 0;
            ReferenceCountUtil.release(server);
            if (split) {
                account(t, true);
            }
        }
    }

    /** Adds this thread's CPU time since {@code since} to one side; the time now. */
    private long account(long since, boolean serverSide) {
        long now = CPU.getCurrentThreadCpuTime();
        if (serverSide) {
            serverNanos += now - since;
        } else {
            clientNanos += now - since;
        }
        return now;
    }

    private static boolean done(SSLEngine e) {
        SSLEngineResult.HandshakeStatus s = e.getHandshakeStatus();
        return s == SSLEngineResult.HandshakeStatus.NOT_HANDSHAKING || s == SSLEngineResult.HandshakeStatus.FINISHED;
    }

    /** Reads what the peer wrote into {@code in}, then writes what this engine has to say into {@code out}. */
    private static void step(SSLEngine e, ByteBuffer empty, ByteBuffer out, ByteBuffer in, ByteBuffer app) throws SSLException {
        in.flip();
        while (in.hasRemaining()) {
            SSLEngineResult r = e.unwrap(in, app);
            runTasks(e);
            if (r.getStatus() != SSLEngineResult.Status.OK || r.bytesConsumed() == 0) {
                break;
            }
        }
        in.compact();
        app.clear();
        while (true) {
            SSLEngineResult r = e.wrap(empty, out);
            runTasks(e);
            if (r.bytesProduced() == 0) {
                break;
            }
        }
    }

    private static void runTasks(SSLEngine e) {
        for (Runnable task; (task = e.getDelegatedTask()) != null; ) {
            task.run();
        }
    }

    /**
     * For a quick check without JMH: one login's and one full handshake's CPU time (this thread's,
     * so a loaded machine's waiting stays out), after a warm-up.
     */
    public static void main(String[] args) throws Exception {
        HandshakeBenchmark b = new HandshakeBenchmark();
        b.clientProvider = args.length > 0 ? args[0] : "OPENSSL";
        b.setUp();
        for (int i = 0; i < 3000; i++) {
            b.login();
            b.tlsFullHandshake();
            b.tlsResumedHandshake();
        }
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        long t0 = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < 3000; i++) {
            b.login();
        }
        long t1 = cpu.getCurrentThreadCpuTime();
        for (int i = 0; i < 1000; i++) {
            b.tlsFullHandshake();
        }
        long t2 = cpu.getCurrentThreadCpuTime();
        System.out.printf("CPU per login %.1f µs, per full TLS handshake (server and client engines) %.1f µs%n",
                (t1 - t0) / 3000 / 1e3, (t2 - t1) / 1000 / 1e3);
        b.split = true;
        for (boolean resumed : new boolean[] {false, true}) {
            b.serverNanos = 0;
            b.clientNanos = 0;
            long resumedBefore = b.tls.handshakes().resumed();
            for (int i = 0; i < 1000; i++) {
                if (resumed) {
                    b.tlsResumedHandshake();
                } else {
                    b.tlsFullHandshake();
                }
            }
            System.out.printf("%s TLS 1.3 handshake: server engine %.1f µs, client engine %.1f µs (%d of 1000 resumed)%n",
                    resumed ? "resumed" : "full", b.serverNanos / 1000 / 1e3, b.clientNanos / 1000 / 1e3,
                    b.tls.handshakes().resumed() - resumedBefore);
        }
    }
}
