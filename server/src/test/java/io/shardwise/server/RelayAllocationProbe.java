package io.shardwise.server;

import io.shardwise.server.auth.NativePassword;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;

/**
 * A measuring tool, not a test (surefire does not pick up its name): the bytes the server's threads
 * allocate per relayed point select, from the JVM's per-thread allocation counters (every thread but
 * this one, the client, which reads the responses into one array). Exact and not noise-sensitive,
 * unlike timings: the sample server on the shared test backend, 30,000 warm-up statements, then three
 * rounds of 20,000 {@code SELECT c FROM sbtest1 WHERE id=N} over both shards, as text and as executions of
 * the statement prepared (argument {@code text} or {@code prepared}: that form alone). Run from the server
 * module's test classpath, with the leak detector off as in production:
 * <pre>
 * java -Xmx1g -Dio.netty.leakDetection.level=disabled -cp server/target/test-classes:server/target/classes:$CP \
 *     io.shardwise.server.RelayAllocationProbe
 * </pre>
 * ({@code $CP}: {@code ./mvnw -o -q -pl server -am test-compile dependency:build-classpath
 * -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test}). Add {@code -XX:StartFlightRecording=...,
 * jdk.ObjectAllocationSample#throttle=20000/s} to see the sites.
 */
final class RelayAllocationProbe {
    private RelayAllocationProbe() {}

    /** {@code prepared} (or no argument: both forms, text first) measures executions of a prepared point select. */
    public static void main(String[] args) throws Exception {
        boolean text = args.length == 0 || args[0].equals("text");
        boolean prepared = args.length == 0 || args[0].equals("prepared");
        try (SampleServer sample = SampleServer.start("alloc")) {
            if (text) {
                bytesPerRelayedPointSelect(sample, false);
            }
            if (prepared) {
                bytesPerRelayedPointSelect(sample, true);
            }
        }
        System.exit(0);
    }

    /**
     * As text (COM_QUERY), or prepared: {@code SELECT c FROM sbtest1 WHERE id=?} prepared once, then
     * executed (COM_STMT_EXECUTE) as libmariadb executes it for sysbench {@code --db-ps-mode=auto}: the
     * BIGINT's type bound with the first execution only (new-params-bound flag 1), none after (flag 0).
     */
    private static void bytesPerRelayedPointSelect(SampleServer sample, boolean prepared) throws Exception {
        try (RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            int statementId = prepared ? prepare(client, "SELECT c FROM sbtest1 WHERE id=?") : 0;
            byte[][] statements = new byte[64][];
            for (int i = 0; i < statements.length; i++) {
                long id = i * 37 % 100 + 1;
                byte[] payload;
                if (prepared) {
                    // id, no cursor, one iteration, null bitmap, no types (bound by the first execution below), the value
                    payload = new byte[1 + 4 + 1 + 4 + 1 + 1 + 8];
                    payload[0] = 0x17;
                    payload[1] = (byte) statementId;
                    payload[2] = (byte) (statementId >> 8);
                    payload[6] = 1;
                    for (int b = 0; b < 8; b++) {
                        payload[12 + b] = (byte) (id >> (8 * b));
                    }
                } else {
                    byte[] text = ("SELECT c FROM sbtest1 WHERE id=" + id).getBytes(StandardCharsets.UTF_8);
                    payload = new byte[1 + text.length];
                    payload[0] = 0x03;
                    System.arraycopy(text, 0, payload, 1, text.length);
                }
                statements[i] = wire(payload);
            }
            OutputStream out = client.socket().getOutputStream();
            DataInputStream in = new DataInputStream(client.socket().getInputStream());
            byte[] buf = new byte[1 << 16];
            if (prepared) {
                // the first execution binds the BIGINT's type
                byte[] first = new byte[1 + 4 + 1 + 4 + 1 + 1 + 2 + 8];
                first[0] = 0x17;
                first[1] = (byte) statementId;
                first[2] = (byte) (statementId >> 8);
                first[6] = 1;
                first[11] = 1;
                first[12] = 0x08;
                first[14] = 1;
                run(out, in, buf, new byte[][] {wire(first)}, 1);
            }
            run(out, in, buf, statements, 30_000);
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int round = 0; round < 3; round++) {
                long relayed = sample.server.relayedStatements();
                java.util.Map<Long, Long> before = others(threads);
                int n = 20_000;
                long t0 = System.nanoTime();
                run(out, in, buf, statements, n);
                long t1 = System.nanoTime();
                java.util.Map<Long, Long> after = others(threads);
                long allocated = 0;
                for (java.util.Map.Entry<Long, Long> e : after.entrySet()) {
                    Long was = before.get(e.getKey());
                    if (was != null) {
                        allocated += e.getValue() - was; // a thread that started or ended meanwhile is left out, not half counted
                    }
                }
                System.out.printf("PROBE %s round %d: %d statements (%d relayed), %.1f bytes per statement, %.1f us each%n",
                        prepared ? "prepared" : "text", round, n,
                        sample.server.relayedStatements() - relayed, allocated / (double) n, (t1 - t0) / 1000.0 / n);
            }
        }
    }

    private static byte[] wire(byte[] payload) {
        byte[] wire = new byte[4 + payload.length];
        wire[0] = (byte) payload.length;
        System.arraycopy(payload, 0, wire, 4, payload.length);
        return wire;
    }

    /** COM_STMT_PREPARE; returns the statement id after reading its parameter and column definitions. */
    private static int prepare(RawClient client, String sql) throws Exception {
        client.command(0x16, sql);
        RawClient.Reply ok = client.read();
        byte[] p = ok.payload();
        if ((p[0] & 0xFF) != 0) {
            throw new AssertionError("prepare failed: " + new String(p, StandardCharsets.UTF_8));
        }
        int id = (p[1] & 0xFF) | (p[2] & 0xFF) << 8 | (p[3] & 0xFF) << 16 | (p[4] & 0xFF) << 24;
        int columns = (p[5] & 0xFF) | (p[6] & 0xFF) << 8;
        int params = (p[7] & 0xFF) | (p[8] & 0xFF) << 8;
        boolean eof = !client.deprecatesEof();
        for (int i = 0; i < params + (eof && params > 0 ? 1 : 0) + columns + (eof && columns > 0 ? 1 : 0); i++) {
            client.read();
        }
        return id;
    }

    /** Bytes allocated so far by each live thread but this one (the client). */
    private static java.util.Map<Long, Long> others(com.sun.management.ThreadMXBean threads) {
        long self = Thread.currentThread().threadId();
        java.util.Map<Long, Long> bytes = new java.util.HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            if (id != self) {
                long b = threads.getThreadAllocatedBytes(id);
                if (b > 0) {
                    bytes.put(id, b);
                }
            }
        }
        return bytes;
    }

    private static void run(OutputStream out, DataInputStream in, byte[] buf, byte[][] statements, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            out.write(statements[i & 63]);
            out.flush();
            // column count, definitions, rows, then the OK that ends them (no EOF after the definitions)
            while (true) {
                in.readFully(buf, 0, 4);
                int length = (buf[0] & 0xFF) | (buf[1] & 0xFF) << 8 | (buf[2] & 0xFF) << 16;
                in.readFully(buf, 4, length);
                int header = buf[4] & 0xFF;
                if (header == 0xFF) {
                    throw new AssertionError("error: " + new String(buf, 4, length, StandardCharsets.UTF_8));
                }
                if (header == 0xFE && length < 9) {
                    break; // the client logged in with CLIENT_DEPRECATE_EOF: the first short 0xFE packet is the end
                }
            }
        }
    }
}
