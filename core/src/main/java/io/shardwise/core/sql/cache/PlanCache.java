package io.shardwise.core.sql.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Digest → plan, bounded by the plans' estimated weight (Caffeine's W-TinyLFU eviction). A hit
 * costs one hash lookup and one digest comparison, with no digest string built; a miss runs the
 * loader once per digest even when many threads miss together, the others waiting for its result.
 * A loader that throws leaves nothing cached and its exception reaches every waiting caller.
 *
 * <p>Generic so that it does not depend on the analyzer that builds the plans. Thread-safe.
 * Hazard: plans are shared by every statement with the same digest, so they must be immutable
 * and must not hold the literal values or offsets of the statement that built them.
 *
 * @param <T> the cached plan
 */
public final class PlanCache<T> {
    private final Cache<DigestKey, T> cache;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    /** Counters since creation, and the current size and total weight. */
    public record Stats(long hits, long misses, long evictions, long entries, long weight) {}

    /**
     * @param maximumWeight the bound on the sum of {@code weigher} over cached plans
     * @param weigher a plan's estimated size (for instance in bytes); must not be negative
     */
    public PlanCache(long maximumWeight, ToIntFunction<? super T> weigher) {
        this(maximumWeight, weigher, null);
    }

    /** As above, with the executor for Caffeine's maintenance; null for Caffeine's default (tests use {@code Runnable::run}). */
    public PlanCache(long maximumWeight, ToIntFunction<? super T> weigher, Executor executor) {
        Objects.requireNonNull(weigher, "weigher");
        if (maximumWeight < 0) {
            throw new ShardwiseException(ErrorCode.BUG, "negative plan cache weight " + maximumWeight);
        }
        Caffeine<Object, Object> builder = Caffeine.newBuilder().maximumWeight(maximumWeight);
        if (executor != null) {
            builder.executor(executor);
        }
        this.cache = builder
                .<DigestKey, T>weigher((key, plan) -> weigh(weigher, key, plan))
                .<DigestKey, T>evictionListener((key, plan, cause) -> {
                    if (cause.wasEvicted()) {
                        evictions.increment();
                    }
                })
                .build();
    }

    /**
     * The plan for the statement's digest, loading it with {@code loader} on a miss. The loader
     * must not return null and must not use this cache.
     */
    public T get(NormalizedSql statement, Function<? super NormalizedSql, ? extends T> loader) {
        T plan = cache.getIfPresent(DigestKey.probe(statement));
        if (plan != null) {
            hits.increment();
            return plan;
        }
        Loader<T> load = new Loader<>(statement, loader);
        plan = cache.get(DigestKey.stored(statement), load);
        if (load.ran) {
            misses.increment();
        } else {
            hits.increment(); // another thread loaded it between our probe and get
        }
        if (plan == null) {
            throw new ShardwiseException(ErrorCode.BUG, "plan loader returned null for: " + statement.digest());
        }
        return plan;
    }

    /** The cached plan for the statement's digest, counted as a hit, or null (counting nothing: no plan is loaded). */
    public T ifCached(NormalizedSql statement) {
        T plan = cache.getIfPresent(DigestKey.probe(statement));
        if (plan != null) {
            hits.increment();
        }
        return plan;
    }

    /** The cached plan for the statement's digest, or null; counts nothing. */
    public T peek(NormalizedSql statement) {
        return cache.getIfPresent(DigestKey.probe(statement));
    }

    /** Drops every plan, for instance after the sharding rules change. */
    public void invalidateAll() {
        cache.invalidateAll();
    }

    /** Runs pending maintenance (evictions) now. */
    public void cleanUp() {
        cache.cleanUp();
    }

    public Stats stats() {
        long weight = cache.policy().eviction().map(e -> e.weightedSize().orElse(0)).orElse(0L);
        return new Stats(hits.sum(), misses.sum(), evictions.sum(), cache.estimatedSize(), weight);
    }

    private static <T> int weigh(ToIntFunction<? super T> weigher, DigestKey key, T plan) {
        int weight = weigher.applyAsInt(plan);
        if (weight < 0) {
            throw new ShardwiseException(ErrorCode.BUG, "negative plan weight " + weight + " for: " + key);
        }
        return weight;
    }

    /** Runs the user's loader at most once and remembers whether it did. */
    private static final class Loader<T> implements Function<DigestKey, T> {
        private final NormalizedSql statement;
        private final Function<? super NormalizedSql, ? extends T> loader;
        private boolean ran;

        Loader(NormalizedSql statement, Function<? super NormalizedSql, ? extends T> loader) {
            this.statement = statement;
            this.loader = loader;
        }

        @Override
        public T apply(DigestKey key) {
            ran = true;
            return loader.apply(statement);
        }
    }
}
