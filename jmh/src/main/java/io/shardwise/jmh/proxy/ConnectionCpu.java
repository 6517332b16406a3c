package io.shardwise.jmh.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.shardwise.server.auth.NativePassword;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.HandshakeResponse;
import io.shardwise.server.protocol.HandshakeV10;
import io.shardwise.server.protocol.SslRequest;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * A running server's CPU per connection, warm: logs in over and over, one connection at a time
 * (greeting, login, COM_QUIT), and reads the server process's user + system time from
 * {@code /proc/PID/stat} around the measured connections. Where {@code proxy-bench connect} measures
 * a few hundred connections of a cold JVM at once with mysqlslap (whose client loads the CA bundle
 * for every TLS connection), this isolates the server's own cost of a connection and of its TLS:
 * <ul>
 *   <li>{@code plain}: no TLS;</li>
 *   <li>{@code full}: TLS 1.3 from a fresh client context every time, so every handshake is full;</li>
 *   <li>{@code resumed}: TLS 1.3 from one client context, which offers the ticket of its previous
 *       connection (the JDK client caches them per host and port), so handshakes resume.</li>
 * </ul>
 * The client is the JDK's engine in this JVM; only the server's process time is counted. On a shared
 * machine the figures carry its load; the clock tick is 10 ms, so measure a thousand connections or more.
 * Beside the process's total it prints each group of server threads' on-CPU time per connection
 * (from the scheduler's nanosecond account, {@link #threadCpu}): the event loops' figure is what a
 * connection costs, apart from the JIT's compiling and the collector, which blur the total of a JVM
 * that is not long warm; CPU time, unlike wall time, hardly moves with the machine's load.
 *
 * <p>Usage: {@code java -cp jmh/target/benchmarks.jar io.shardwise.jmh.proxy.ConnectionCpu PORT SERVER_PID
 * CONNECTIONS MODE...} (user app/app, schema pb, as {@code jmh/proxy-bench} configures the server).
 */
public final class ConnectionCpu {
    /** Connections before each measured mode ({@code -Dwarmup=N}): the JIT has compiled the path by then. */
    private static final int WARM_UP = Integer.getInteger("warmup", 1_000);
    /** /proc's clock ticks are USER_HZ, 100 a second on Linux. */
    private static final double MS_PER_TICK = 10.0;

    private ConnectionCpu() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        Path stat = Path.of("/proc", args[1], "stat");
        Path tasks = Path.of("/proc", args[1], "task");
        int connections = Integer.parseInt(args[2]);
        for (int m = 3; m < args.length; m++) {
            String mode = args[m];
            SSLContext shared = trustingContext();
            for (int i = 0; i < WARM_UP; i++) {
                connect(port, mode, shared);
            }
            long before = cpuTicks(stat);
            Map<String, Long> threadsBefore = threadCpu(tasks);
            long start = System.nanoTime();
            for (int i = 0; i < connections; i++) {
                connect(port, mode, shared);
            }
            Map<String, Long> threadsAfter = threadCpu(tasks);
            long ticks = cpuTicks(stat) - before;
            StringBuilder groups = new StringBuilder();
            for (String group : GROUPS) {
                long ns = threadsAfter.getOrDefault(group, 0L) - threadsBefore.getOrDefault(group, 0L);
                groups.append(String.format(" %s %.1f", group, ns / 1e3 / connections));
            }
            System.out.printf("connection-cpu[%s: %.3f ms of server CPU per connection, %d connections in %.1f s; µs per connection by thread:%s]%n",
                    mode, ticks * MS_PER_TICK / connections, connections, (System.nanoTime() - start) / 1e9, groups);
        }
    }

    /** The server's threads by what they do, from their names (/proc keeps 15 characters of them). */
    private static final List<String> GROUPS = List.of("event-loops", "session-threads", "jit", "gc-vm", "cleaners", "other");

    private static String group(String comm) {
        if (comm.startsWith("multiThreadIoEv")) {
            return "event-loops"; // Netty's loops: accept, TLS, login, relay; what a connection itself costs
        }
        if (comm.startsWith("ForkJoinPool") || comm.startsWith("VirtualThread")) {
            return "session-threads"; // the carriers of the sessions' virtual threads
        }
        if (comm.contains("CompilerThre")) {
            return "jit";
        }
        if (comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.startsWith("VM ")) {
            return "gc-vm";
        }
        if (comm.startsWith("Finalizer") || comm.contains("Cleaner")) {
            return "cleaners";
        }
        return "other";
    }

    /**
     * On-CPU nanoseconds of every live server thread, summed by {@link #group}, from
     * {@code /proc/PID/task/TID/schedstat}: the scheduler's own account, exact to the nanosecond, so
     * a few thousand connections give the event loops' cost per connection without the clock tick's
     * 10 ms steps, and with JIT and GC apart (a warm server's loops are what each connection costs;
     * the JIT's work is the JVM's, once).
     */
    private static Map<String, Long> threadCpu(Path tasks) throws IOException {
        Map<String, Long> byGroup = new HashMap<>();
        try (DirectoryStream<Path> threads = Files.newDirectoryStream(tasks)) {
            for (Path thread : threads) {
                try {
                    String comm = Files.readString(thread.resolve("comm")).strip();
                    long ns = Long.parseLong(Files.readString(thread.resolve("schedstat")).split(" ")[0]);
                    byGroup.merge(group(comm), ns, Long::sum);
                } catch (NoSuchFileException gone) {
                    // a thread that ended meanwhile: its time is lost to both readings alike
                }
            }
        }
        return byGroup;
    }

    private static long cpuTicks(Path stat) throws IOException {
        String s = Files.readString(stat);
        String[] fields = s.substring(s.lastIndexOf(')') + 2).split(" "); // the command name may hold spaces
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
    }

    /** Trusts any certificate: the server's is generated at its start. */
    private static SSLContext trustingContext() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(null, new TrustManager[] {new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {}

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, null);
        return context;
    }

    private static void connect(int port, String mode, SSLContext shared) throws IOException, GeneralSecurityException {
        try (Socket plain = new Socket("127.0.0.1", port)) {
            plain.setTcpNoDelay(true);
            Socket socket = plain;
            HandshakeV10 greeting = HandshakeV10.decode(Unpooled.wrappedBuffer(read(socket)));
            int capabilities = Capabilities.SERVER.bits() & ~Capabilities.DEPRECATE_EOF;
            int sequence = 1;
            switch (mode) {
                case "plain" -> capabilities &= ~Capabilities.SSL;
                case "full", "resumed" -> {
                    ByteBuf request = new SslRequest(new Capabilities(capabilities), 1 << 24, 45).encode(ByteBufAllocator.DEFAULT);
                    try {
                        send(socket, sequence++, ByteBufUtil.getBytes(request));
                    } finally {
                        request.release();
                    }
                    SSLContext context = mode.equals("full") ? trustingContext() : shared;
                    SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
                    tls.startHandshake();
                    socket = tls;
                }
                default -> throw new IllegalArgumentException("mode is plain, full or resumed, not " + mode);
            }
            ByteBuf response = new HandshakeResponse(new Capabilities(capabilities), 1 << 24, 45, "app",
                    NativePassword.scramble(greeting.authSeed(), "app"), "pb", NativePassword.PLUGIN, Map.of())
                    .encode(ByteBufAllocator.DEFAULT);
            try {
                send(socket, sequence, ByteBufUtil.getBytes(response));
            } finally {
                response.release();
            }
            byte[] ok = read(socket);
            if (ok[0] != 0) {
                throw new IllegalStateException("login refused: " + new String(ok, 1, ok.length - 1, java.nio.charset.StandardCharsets.UTF_8));
            }
            send(socket, 0, new byte[] {1}); // COM_QUIT: the server closes
            socket.getInputStream().read();
        }
    }

    private static void send(Socket socket, int sequenceId, byte[] payload) throws IOException {
        byte[] packet = new byte[payload.length + 4];
        packet[0] = (byte) payload.length;
        packet[1] = (byte) (payload.length >> 8);
        packet[2] = (byte) (payload.length >> 16);
        packet[3] = (byte) sequenceId;
        System.arraycopy(payload, 0, packet, 4, payload.length);
        OutputStream out = socket.getOutputStream();
        out.write(packet); // one write: a header and payload apart would be two segments, two server wake-ups
        out.flush();
    }

    private static byte[] read(Socket socket) throws IOException {
        DataInputStream in = new DataInputStream(socket.getInputStream());
        byte[] header = new byte[4];
        in.readFully(header);
        byte[] payload = new byte[(header[0] & 0xFF) | (header[1] & 0xFF) << 8 | (header[2] & 0xFF) << 16];
        in.readFully(payload);
        return payload;
    }
}
