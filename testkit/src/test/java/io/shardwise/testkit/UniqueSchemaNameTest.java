package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class UniqueSchemaNameTest {

    @Test
    void namesNeverRepeatAcrossThreads() throws Exception {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> futures = new java.util.ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        seen.add(TestBackends.uniqueSchemaName("same"));
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(40_000, seen.size());
    }

    @Test
    void namesAreValidMysqlIdentifiersWhateverThePrefix() {
        for (String prefix : new String[] {"Orders-Test", "", null, "x".repeat(100), "sch`ema; DROP", "ünï"}) {
            String name = TestBackends.uniqueSchemaName(prefix);
            assertTrue(name.matches("[a-z0-9_]{1,64}"), name);
        }
    }

    @Test
    void nameKeepsTheCleanedPrefixForReadableLogs() {
        assertTrue(TestBackends.uniqueSchemaName("Orders-IT").startsWith("orders_it_"));
    }

    @Test
    void twoCallsDifferOnlyInTheCounter() {
        String a = TestBackends.uniqueSchemaName("p");
        String b = TestBackends.uniqueSchemaName("p");
        String stemA = a.substring(0, a.lastIndexOf('_'));
        assertEquals(stemA, b.substring(0, b.lastIndexOf('_')));
        assertTrue(Long.parseLong(b.substring(b.lastIndexOf('_') + 1)) > Long.parseLong(a.substring(a.lastIndexOf('_') + 1)));
    }
}
