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
