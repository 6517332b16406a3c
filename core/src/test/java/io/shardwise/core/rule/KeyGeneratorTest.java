package io.shardwise.core.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class KeyGeneratorTest {
    private static final long EPOCH = 1_700_000_000_000L;

    @Test
    void snowflakeEncodesTimeAndWorkerAndIncreases() {
        AtomicLong clock = new AtomicLong(EPOCH + 5_000);
        SnowflakeKeyGenerator g = new SnowflakeKeyGenerator(513, EPOCH, clock::get);
        long a = g.nextId();
        long b = g.nextId();
        assertEquals(5_000, SnowflakeKeyGenerator.millisOf(a));
        assertEquals(513, SnowflakeKeyGenerator.workerOf(a));
        assertEquals(a + 1, b, "same millisecond: the sequence counts up");
        clock.set(EPOCH + 6_000);
        long c = g.nextId();
        assertEquals(6_000, SnowflakeKeyGenerator.millisOf(c));
        assertTrue(c > b);
    }

    @Test
    void snowflakeBorrowsTheNextMillisecondWhenTheSequenceOverflows() {
        SnowflakeKeyGenerator g = new SnowflakeKeyGenerator(1, EPOCH, () -> EPOCH + 10);
        long last = 0;
        for (int i = 0; i < 4096 * 3; i++) {
            long id = g.nextId();
            assertTrue(id > last);
            assertEquals(1, SnowflakeKeyGenerator.workerOf(id));
            last = id;
        }
        assertEquals(12, SnowflakeKeyGenerator.millisOf(last), "three full sequences span three milliseconds");
    }

    @Test
    void snowflakeNeverRepeatsWhenTheClockStepsBack() {
        AtomicLong clock = new AtomicLong(EPOCH + 100_000);
        SnowflakeKeyGenerator g = new SnowflakeKeyGenerator(0, EPOCH, clock::get);
        long before = g.nextId();
        clock.set(EPOCH + 50_000);
        long after = g.nextId();
        assertTrue(after > before, "ids keep increasing although the clock went back");
    }

    @Test
    void snowflakeIsUniqueUnderConcurrency() {
        SnowflakeKeyGenerator g = new SnowflakeKeyGenerator(3, EPOCH, System::currentTimeMillis);
        Set<Long> ids = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 8).parallel().forEach(t -> {
            for (int i = 0; i < 20_000; i++) {
                ids.add(g.nextId());
            }
        });
        assertEquals(160_000, ids.size());
    }

    @Test
    void snowflakeRejectsWorkerIdsOutsideTenBits() {
        assertThrows(IllegalArgumentException.class, () -> new SnowflakeKeyGenerator(1024, EPOCH, () -> EPOCH));
        assertThrows(IllegalArgumentException.class, () -> new SnowflakeKeyGenerator(-1, EPOCH, () -> EPOCH));
    }

    @Test
    void uuidV4IsRandomAndV7IsTimeOrdered() {
        UuidKeyGenerator v4 = new UuidKeyGenerator(4, System::currentTimeMillis);
        String a = (String) v4.next();
        assertEquals(4, UUID.fromString(a).version());
        assertEquals(36, a.length());

        AtomicLong clock = new AtomicLong(1_000_000);
        UuidKeyGenerator v7 = new UuidKeyGenerator(7, clock::get);
        Set<String> seen = new HashSet<>();
        String previous = "";
        for (int i = 0; i < 100; i++) {
            clock.addAndGet(1);
            String id = (String) v7.next();
            UUID u = UUID.fromString(id);
            assertEquals(7, u.version());
            assertEquals(2, u.variant());
            assertEquals(clock.get(), u.getMostSignificantBits() >>> 16);
            assertTrue(id.compareTo(previous) > 0, "later milliseconds sort later");
            assertTrue(seen.add(id));
            previous = id;
        }
        assertThrows(IllegalArgumentException.class, () -> new UuidKeyGenerator(1, System::currentTimeMillis));
    }
}
