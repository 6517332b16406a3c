package io.shardwise.core.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.common.hash.Hashing;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class Murmur3Test {
    @Test
    void matchesTheReferenceVectors() {
        assertEquals(0, Murmur3.hash32(new byte[0]));
        assertEquals(0x248bfa47, Murmur3.hash32("hello".getBytes(StandardCharsets.UTF_8)));
        assertEquals(0x2e4ff723, Murmur3.hash32("The quick brown fox jumps over the lazy dog".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void hashingALongsDigitsDirectlyEqualsHashingItsText() {
        java.util.Random random = new java.util.Random(7);
        long[] edges = {0, 1, -1, 9, 10, -10, 999_999_999_999L, Long.MAX_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE};
        for (long v : edges) {
            assertEquals(Murmur3.hash32(Long.toString(v).getBytes(StandardCharsets.UTF_8)), Murmur3.hash32Decimal(v), () -> "" + v);
        }
        for (int i = 0; i < 20_000; i++) {
            long v = random.nextLong() >> random.nextInt(64);
            assertEquals(Murmur3.hash32(Long.toString(v).getBytes(StandardCharsets.UTF_8)), Murmur3.hash32Decimal(v), () -> "" + v);
        }
    }

    @Test
    @SuppressWarnings("UnstableApiUsage")
    void agreesWithGuavaOnRandomInputsOfEveryTailLength() {
        Random random = new Random(42);
        for (int i = 0; i < 5_000; i++) {
            byte[] data = new byte[random.nextInt(40)];
            random.nextBytes(data);
            assertEquals(Hashing.murmur3_32_fixed().hashBytes(data).asInt(), Murmur3.hash32(data), () -> "length " + data.length);
        }
    }
}
