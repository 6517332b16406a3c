package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.ArrayList;
import java.util.List;

/** Asserts that no ByteBuf leaked: collects garbage, lets the detector poll, and reads what it recorded. */
public final class Leaks {
    private Leaks() {}

    /**
     * The reports since the last call (and forgets them). Detection needs the collector to have
     * found the lost buffer, so this collects several times; a leak missed here shows in a later check.
     */
    public static List<String> collect() {
        assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel(), "tests run with paranoid leak detection");
        assertEquals(RecordingLeakDetector.class.getName(), System.getProperty("io.netty.customResourceLeakDetector"),
                "the recording leak detector is installed (see server/pom.xml)");
        for (int round = 0; round < 5; round++) {
            System.gc();
            try {
                Thread.sleep(20); // the reference handler thread enqueues what the collector found
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            // in paranoid mode every allocation polls the reference queue, which reports what was collected
            for (int i = 0; i < 64; i++) {
                PooledByteBufAllocator.DEFAULT.buffer(8).release();
                UnpooledByteBufAllocator.DEFAULT.buffer(8).release();
                PooledByteBufAllocator.DEFAULT.directBuffer(8).release();
            }
        }
        List<String> out = new ArrayList<>(RecordingLeakDetector.REPORTS);
        RecordingLeakDetector.REPORTS.clear();
        return out;
    }

    public static void assertNone() {
        List<String> reports = collect();
        assertTrue(reports.isEmpty(), () -> reports.size() + " ByteBuf leak(s):\n" + String.join("\n", reports));
    }
}
