package io.shardwise.core.sql.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PlanCacheTest {
    private final AtomicInteger loads = new AtomicInteger();

    private String plan(NormalizedSql sql) {
        loads.incrementAndGet();
        return "plan of " + sql.digest();
    }

    @Test
    void statementsWithOneDigestLoadOnceAndThenHit() {
        PlanCache<String> cache = new PlanCache<>(100, p -> 1, Runnable::run);
        String first = cache.get(Normalizer.normalize("SELECT c FROM sbtest1 WHERE id=1"), this::plan);
        String second = cache.get(Normalizer.normalize("select c  from sbtest1 where id = 99 /* x */"), this::plan);
        assertSame(first, second);
        assertEquals("plan of select c from sbtest1 where id = ?", first);
        assertEquals(1, loads.get());
        assertEquals(new PlanCache.Stats(1, 1, 0, 1, 1), cache.stats());
    }

    @Test
    void differentDigestsGetDifferentPlans() {
        PlanCache<String> cache = new PlanCache<>(100, p -> 1, Runnable::run);
        String a = cache.get(Normalizer.normalize("SELECT c FROM Sbtest1 WHERE id=1"), this::plan);
        String b = cache.get(Normalizer.normalize("SELECT c FROM sbtest1 WHERE id=1"), this::plan);
        assertNotEquals(a, b);
        assertEquals(2, loads.get());
        assertEquals(2, cache.stats().misses());
    }

    @Test
    void theWeightBoundEvictsAndCountsEvictions() {
        PlanCache<String> cache = new PlanCache<>(10, String::length, Runnable::run);
        for (int i = 0; i < 40; i++) {
            cache.get(Normalizer.normalize("SELECT c FROM t" + i), sql -> "xx");
        }
        cache.cleanUp();
        PlanCache.Stats stats = cache.stats();
        assertTrue(stats.weight() <= 10, stats::toString);
        assertTrue(stats.entries() <= 5, stats::toString);
        assertEquals(40 - stats.entries(), stats.evictions(), stats::toString);
    }

    @Test
    void aFailingLoaderPropagatesAndLeavesNothingCached() {
        PlanCache<String> cache = new PlanCache<>(100, p -> 1, Runnable::run);
        NormalizedSql sql = Normalizer.normalize("SELECT 1");
        ShardwiseException failure = new ShardwiseException(ErrorCode.UNSUPPORTED, "x");
        ShardwiseException thrown = assertThrows(ShardwiseException.class, () -> cache.get(sql, s -> {
            throw failure;
        }));
        assertSame(failure, thrown);
        assertNull(cache.peek(sql));
        assertEquals("plan of select ?", cache.get(sql, this::plan));
        assertEquals(1, loads.get());
    }

    @Test
    void aNullPlanIsABug() {
        PlanCache<String> cache = new PlanCache<>(100, p -> 1, Runnable::run);
        ShardwiseException e = assertThrows(ShardwiseException.class,
                () -> cache.get(Normalizer.normalize("SELECT 1"), s -> null));
        assertEquals(ErrorCode.BUG, e.code());
    }

    @Test
    void concurrentMissesOfOneDigestCallTheLoaderOnce() throws Exception {
        PlanCache<String> cache = new PlanCache<>(100, p -> 1, Runnable::run);
        CountDownLatch loaderEntered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<String> results = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < 8; i++) {
            String sql = "SELECT c FROM sbtest1 WHERE id=" + i;
            Thread t = new Thread(() -> {
                try {
                    results.add(cache.get(Normalizer.normalize(sql), s -> {
                        loaderEntered.countDown();
                        await(release);
                        return plan(s);
                    }));
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            threads.add(t);
            t.start();
        }
        assertTrue(loaderEntered.await(10, TimeUnit.SECONDS));
        // every other thread must be parked on the loading entry before the loader may finish
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (threads.stream().filter(t -> t.getState() == Thread.State.RUNNABLE).count() > 0) {
            assertTrue(System.nanoTime() < deadline, "threads did not block on the loading entry");
            Thread.onSpinWait();
        }
        release.countDown();
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertNull(failure.get());
        assertEquals(1, loads.get());
        assertEquals(8, results.size());
        assertEquals(1, results.stream().distinct().count());
        assertEquals(new PlanCache.Stats(7, 1, 0, 1, 1), cache.stats());
    }

    @Test
    void aProbeEqualsTheStoredKeyOfTheSameDigestOnly() {
        NormalizedSql a = Normalizer.normalize("SELECT c FROM t WHERE id = 1");
        NormalizedSql b = Normalizer.normalize("select c from t where id=2");
        NormalizedSql other = Normalizer.normalize("SELECT c FROM T WHERE id = 1");
        assertEquals(DigestKey.probe(a), DigestKey.stored(b));
        assertEquals(DigestKey.stored(b), DigestKey.probe(a));
        assertEquals(DigestKey.probe(a).hashCode(), DigestKey.stored(b).hashCode());
        assertNotEquals(DigestKey.probe(other), DigestKey.stored(a));
        assertNotEquals(DigestKey.stored(a), DigestKey.probe(other));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
