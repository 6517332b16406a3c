package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

class LeaksTest {
    @Test
    void aBufferNeverReleasedIsReported() {
        Leaks.collect();
        RecordingLeakDetector.quiet = true;
        try {
            leak();
            boolean found = false;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!found && System.nanoTime() < deadline) {
                found = !Leaks.collect().isEmpty();
            }
            assertTrue(found, "the check is not vacuous: a dropped buffer is found");
        } finally {
            RecordingLeakDetector.quiet = false;
        }
        Leaks.assertNone();
    }

    private static void leak() {
        ByteBuf lost = PooledByteBufAllocator.DEFAULT.buffer(16);
        lost.writeLong(42);
    }
}
