package io.shardwise.core.execute;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Engine-wide admission of every holder that may wait for a backend connection while it holds
 * another, so that the pools cannot deadlock. Two kinds of holder do that: a transaction (one
 * connection per backend it touches, kept until it ends, taken one statement at a time) and an
 * autocommit statement of several units (each unit's connection stays busy until its rows are read,
 * while its siblings borrow theirs). Each takes slots before its first connection: a transaction one,
 * whatever backends it will touch; a statement as many as it has units on its busiest backend.
 *
 * <p>Why no deadlock: there are as many slots as the smallest pool has connections ({@code pool.max}),
 * and an admitted transaction holds at most one connection of each backend, a statement at most
 * its slot count. So on every backend the connections admitted holders may hold at once never exceed
 * that backend's {@code max}; a holder that waits for one holds fewer than its share, so at least
 * one connection is free or held by someone not admitted: an autocommit statement of one unit, which
 * waits for no other connection and gives its own back. Every admitted holder therefore gets its
 * next connection, ends and frees its slots; holders waiting for slots hold no connection at all.
 * Not covered: a client of the JDBC face that keeps a result set open while it runs a transaction on
 * another connection (the holder is then the application).
 *
 * <p>Fair (first come, first admitted), so a statement waiting for several slots is not overtaken
 * forever by transactions taking one. A wait longer than the longest {@code connectionTimeout} of
 * the backends (what a wait for a connection could last) fails with {@link ErrorCode#LOCK_WAIT_TIMEOUT}.
 *
 * <p>Thread-safe.
 */
final class Admission {
    private final Semaphore slots;
    private final int size;
    private final Duration timeout;

    Admission(int size, Duration timeout) {
        if (size < 1) {
            throw new IllegalArgumentException("admission needs at least one slot: " + size);
        }
        this.slots = new Semaphore(size, true);
        this.size = size;
        this.timeout = timeout;
    }

    /** Slots: the smallest {@code pool.max}; timeout: the longest {@code connectionTimeout}. */
    static Admission of(Collection<BackendConfig> backends) {
        int size = Integer.MAX_VALUE;
        Duration timeout = Duration.ZERO;
        for (BackendConfig b : backends) {
            size = Math.min(size, b.pool().max());
            if (b.pool().connectionTimeout().compareTo(timeout) > 0) {
                timeout = b.pool().connectionTimeout();
            }
        }
        return new Admission(backends.isEmpty() ? 1 : size, timeout);
    }

    int size() {
        return size;
    }

    /**
     * Slots for a statement that holds up to {@code connections} of one backend at once. One that
     * needs more than a pool has can never run whole, slots or not; it takes them all, so it at least
     * waits for no one else and fails as it would without admission.
     */
    int slotsFor(int connections) {
        return Math.min(connections, size);
    }

    /**
     * Waits up to the timeout for {@code n} slots.
     *
     * @throws ShardwiseException {@link ErrorCode#LOCK_WAIT_TIMEOUT} when they did not come free in time
     */
    void acquire(int n) throws InterruptedException {
        if (!slots.tryAcquire(n, timeout.toNanos(), TimeUnit.NANOSECONDS)) {
            throw new ShardwiseException(ErrorCode.LOCK_WAIT_TIMEOUT, " (no transaction slot came free within " + timeout.toMillis()
                    + " ms; all " + size + ", one per connection of the smallest backend pool, are held by open transactions"
                    + " and multi-shard statements)");
        }
    }

    void release(int n) {
        slots.release(n);
    }

    /** Slots held now: zero whenever no transaction is open and no multi-unit statement runs. */
    int held() {
        return size - slots.availablePermits();
    }

    /** Holders waiting for slots now. */
    int waiting() {
        return slots.getQueueLength();
    }
}
