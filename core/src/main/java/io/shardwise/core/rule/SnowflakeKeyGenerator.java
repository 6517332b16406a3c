package io.shardwise.core.rule;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Twitter-style 63-bit ids: 41 bits of milliseconds since {@code epoch}, 10 bits of worker id, 12
 * bits of sequence. Ids from one generator strictly increase. When the clock stands still past 4096
 * ids in a millisecond, or steps back (NTP), the generator borrows the next millisecond instead of
 * waiting or failing, so it never blocks and never repeats; the wall clock catches up later.
 */
public final class SnowflakeKeyGenerator implements KeyGenerator {
    static final int WORKER_BITS = 10;
    static final int SEQUENCE_BITS = 12;
    public static final int MAX_WORKER_ID = (1 << WORKER_BITS) - 1;
    private static final long SEQUENCE_MASK = (1L << SEQUENCE_BITS) - 1;

    private final long workerBits;
    private final long epochMillis;
    private final LongSupplier clock;
    /** (millis since epoch << 12) | sequence of the last id handed out. */
    private final AtomicLong last = new AtomicLong(-1);

    public SnowflakeKeyGenerator(int workerId, long epochMillis, LongSupplier clock) {
        if (workerId < 0 || workerId > MAX_WORKER_ID) {
            throw new IllegalArgumentException("workerId " + workerId + " outside 0.." + MAX_WORKER_ID);
        }
        this.workerBits = (long) workerId << SEQUENCE_BITS;
        this.epochMillis = epochMillis;
        this.clock = clock;
    }

    @Override
    public Object next() {
        return nextId();
    }

    public long nextId() {
        long now = (clock.getAsLong() - epochMillis) << SEQUENCE_BITS;
        long previous;
        long candidate;
        do {
            previous = last.get();
            // the next slot after the previous id, or the start of the current millisecond if later;
            // a sequence overflow carries into the millisecond bits by itself
            candidate = Math.max(previous + 1, now);
        } while (!last.compareAndSet(previous, candidate));
        long millis = candidate >>> SEQUENCE_BITS;
        return millis << (WORKER_BITS + SEQUENCE_BITS) | workerBits | (candidate & SEQUENCE_MASK);
    }

    /** The worker id encoded in an id. */
    public static int workerOf(long id) {
        return (int) ((id >>> SEQUENCE_BITS) & MAX_WORKER_ID);
    }

    /** The milliseconds since the epoch encoded in an id. */
    public static long millisOf(long id) {
        return id >>> (WORKER_BITS + SEQUENCE_BITS);
    }
}
