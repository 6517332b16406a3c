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
 * rounds of 20,000 {@code SELECT c FROM sbtest1 WHERE id=N} over both shards. Run from the server
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

    public static void main(String[] args) throws Exception {
        bytesPerRelayedPointSelect();
        System.exit(0);
    }

    private static void bytesPerRelayedPointSelect() throws Exception {
        try (SampleServer sample = SampleServer.start("alloc");
             RawClient client = RawClient.connect(sample.server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            byte[][] statements = new byte[64][];
            for (int i = 0; i < statements.length; i++) {
                byte[] text = ("SELECT c FROM sbtest1 WHERE id=" + (i * 37 % 100 + 1)).getBytes(StandardCharsets.UTF_8);
                byte[] wire = new byte[4 + 1 + text.length];
                wire[0] = (byte) (text.length + 1);
                wire[4] = 0x03;
                System.arraycopy(text, 0, wire, 5, text.length);
                statements[i] = wire;
            }
            OutputStream out = client.socket().getOutputStream();
            DataInputStream in = new DataInputStream(client.socket().getInputStream());
            byte[] buf = new byte[1 << 16];
            run(out, in, buf, statements, 30_000);
            com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            for (int round = 0; round < 3; round++) {
                long relayed = sample.server.relayedStatements();
                long before = others(threads);
                int n = 20_000;
                long t0 = System.nanoTime();
                run(out, in, buf, statements, n);
                long t1 = System.nanoTime();
                long after = others(threads);
                System.out.printf("PROBE round %d: %d statements (%d relayed), %.1f bytes per statement, %.1f us each%n", round, n,
                        sample.server.relayedStatements() - relayed, (after - before) / (double) n, (t1 - t0) / 1000.0 / n);
            }
        }
    }

    private static long others(com.sun.management.ThreadMXBean threads) {
        long self = Thread.currentThread().threadId();
        long sum = 0;
        for (long id : threads.getAllThreadIds()) {
            if (id != self) {
                long b = threads.getThreadAllocatedBytes(id);
                if (b > 0) {
                    sum += b;
                }
            }
        }
        return sum;
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
