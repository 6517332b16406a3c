package io.shardwise.core;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shardwise.core.execute.Column;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Prepare-time result columns per statement text, shared by every session: a client that prepares
 * the same statements on each of its connections (sysbench, a pool of application connections)
 * costs a backend round trip once. Keyed by the exact text, not the digest (the literals of
 * {@code SELECT 1} and {@code SELECT 'a'} give different types), and by the session's character
 * sets of results (they change the collations and lengths backends report). Bounded; emptied by
 * DDL the engine runs (a description under way meanwhile is returned but not kept).
 *
 * <p>Hazard: DDL run on the backends directly is not seen, so a prepare may announce a table's old
 * columns until the entry is evicted; each execute still sends the current ones. Thread-safe. The
 * describing runs outside the cache's locks (it blocks on a backend, on a virtual thread), so two
 * sessions missing together may both describe.
 */
final class Descriptions {
    private static final long MAX_WEIGHT = 16L * 1024 * 1024;

    private record Key(String sql, String charsets) {}

    private final Cache<Key, List<Column>> cache = Caffeine.newBuilder()
            .maximumWeight(MAX_WEIGHT)
            .<Key, List<Column>>weigher((key, columns) -> 64 + key.sql().length() * 2 + columns.size() * 128)
            .build();

    /** Bumped by every invalidation: a description begun before it must not be cached after it. */
    private final AtomicLong generation = new AtomicLong();

    List<Column> get(String sql, String charsets, Supplier<List<Column>> describe) {
        Key key = new Key(sql, charsets);
        List<Column> known = cache.getIfPresent(key);
        if (known == null) {
            long before = generation.get();
            known = List.copyOf(describe.get());
            if (generation.get() == before) {
                cache.put(key, known);
            }
        }
        return known;
    }

    void invalidateAll() {
        generation.incrementAndGet();
        cache.invalidateAll();
    }
}
