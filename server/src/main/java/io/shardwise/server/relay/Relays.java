package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.shardwise.core.config.BackendConfig;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The server's packet relay connections: per backend its address (or why it cannot be relayed),
 * and per event loop a {@link RelayPool} per backend, CLIENT_FOUND_ROWS choice and session setup. Each backend may
 * have up to its {@code pool.max} relay connections open, over all event loops — those native
 * transactions pin included ({@link #reserve}) — besides the JDBC executor's pool. Thread-safe at this level; each pool is confined to its loop.
 */
public final class Relays implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Relays.class.getName());

    private record Key(String backend, boolean foundRows, String setup) {}

    private final Map<String, BackendConfig> configs;
    private final Map<String, BackendAddress> addresses = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> budgets = new HashMap<>();
    private final Map<EventLoop, Map<Key, RelayPool>> pools = new ConcurrentHashMap<>();
    /**
     * The same pools per loop and backend, found on every statement's lease and release without a {@link Key}
     * and a capturing lambda each (computeIfAbsent's); written on the loop when a pool is made, never shrinks.
     */
    private final Map<EventLoop, Map<String, RelayPool[]>> byBackend = new ConcurrentHashMap<>();
    /** Native transactions waiting for a reservation, per event loop (each queue confined to its loop). */
    private final Map<EventLoop, Waiters> waiters = new ConcurrentHashMap<>();
    /** Transactions waiting over every loop: while any does, a connection given back where nobody can use it closes. */
    private final AtomicInteger waiting = new AtomicInteger();
    /** How long a transaction waits for its reservation: the longest {@code pool.connectionTimeout}, as the JDBC admission. */
    private final Duration admissionTimeout;
    private final LongAdder relayed = new LongAdder();
    private final LongAdder nativeRuns = new LongAdder();
    private final LongAdder prefetched = new LongAdder();
    private final LongAdder loopMerged = new LongAdder();
    private final LongAdder autocommitReads = new LongAdder();
    private final LongAdder streamed = new LongAdder();
    /** The most row bytes one streamed response ({@link StreamedResponse}) held queued at once. */
    private final java.util.concurrent.atomic.AtomicLong streamPeak = new java.util.concurrent.atomic.AtomicLong();
    /** Connections held by open native transactions ({@link PinnedTransaction}). */
    private final AtomicInteger pinned = new AtomicInteger();
    private final Class<? extends SocketChannel> channelClass;
    private volatile boolean closed;

    /** @param channelClass the client channel of the transport the event loops run (relay connections share the loops) */
    public Relays(Map<String, BackendConfig> backends, Class<? extends SocketChannel> channelClass) {
        this.configs = Map.copyOf(backends);
        this.channelClass = channelClass;
        Duration timeout = Duration.ZERO;
        for (BackendConfig c : backends.values()) {
            if (c.pool().connectionTimeout().compareTo(timeout) > 0) {
                timeout = c.pool().connectionTimeout();
            }
            budgets.put(c.name(), new AtomicInteger());
            try {
                addresses.put(c.name(), BackendAddress.of(c));
            } catch (BackendAddress.Unrelayable e) {
                LOG.log(System.Logger.Level.INFO, e.getMessage());
            }
        }
        this.admissionTimeout = timeout;
    }

    Class<? extends SocketChannel> channelClass() {
        return channelClass;
    }

    /** Whether statements on {@code backend} may be relayed (its URL allows it, and no login of the relay's failed for good). */
    public boolean relayable(String backend) {
        return addresses.containsKey(backend);
    }

    /**
     * A relay connection of {@code backend} for a client on {@code loop}: an idle one, or one being
     * opened; null when the backend is not relayable or its relay connections are all in use.
     * Call on {@code loop}.
     */
    public Future<BackendConnection> acquire(EventLoop loop, String backend, boolean foundRows, String setup) {
        return acquire(loop, backend, foundRows, setup, false);
    }


    /** As {@link #acquire(EventLoop, String, boolean, String)}; {@code reserved}: consumes a unit {@link #reserve} took. */
    Future<BackendConnection> acquire(EventLoop loop, String backend, boolean foundRows, String setup, boolean reserved) {
        RelayPool pool = pool(loop, backend, foundRows, setup);
        return pool == null ? null : pool.acquire(reserved);
    }

    private RelayPool pool(EventLoop loop, String backend, boolean foundRows, String setup) {
        BackendAddress address = addresses.get(backend);
        if (address == null || closed) {
            return null;
        }
        RelayPool known = known(loop, backend, foundRows, setup);
        if (known != null) {
            return known;
        }
        BackendConfig config = configs.get(backend);
        RelayPool made = pools.computeIfAbsent(loop, l -> new HashMap<>()).computeIfAbsent(new Key(backend, foundRows, setup),
                k -> new RelayPool(this, loop, address, foundRows, setup, budgets.get(backend), config.pool().idleTimeout().toNanos(),
                        Math.max(250, config.pool().connectionTimeout().toMillis())));
        Map<String, RelayPool[]> of = byBackend.computeIfAbsent(loop, l -> new HashMap<>());
        RelayPool[] before = of.getOrDefault(backend, new RelayPool[0]);
        RelayPool[] after = java.util.Arrays.copyOf(before, before.length + 1);
        after[before.length] = made;
        of.put(backend, after);
        return made;
    }

    /** The loop's pool of {@code backend} with these settings once made, else null. */
    private RelayPool known(EventLoop loop, String backend, boolean foundRows, String setup) {
        Map<String, RelayPool[]> of = byBackend.get(loop);
        RelayPool[] made = of == null ? null : of.get(backend);
        if (made != null) {
            for (RelayPool p : made) {
                if (p.serves(foundRows, setup)) {
                    return p;
                }
            }
        }
        return null;
    }

    /**
     * Admission of a native transaction: one connection of every relayable backend reserved within
     * that backend's relay budget ({@link RelayPool#reserve}: a unit of the budget, or an idle
     * connection of this loop's pool when the budget is spent), or null, nothing reserved, when some
     * backend has none left ({@link #admit} then queues the transaction, text or prepared alike).
     * Reserving up front is what keeps pinned connections within {@code pool.max} without a pool
     * deadlock: a transaction never waits for a connection while it holds another. The reservation
     * must be given back ({@link Reservation#release}) when the transaction ends. Call on {@code loop}.
     */
    Reservation reserve(EventLoop loop, boolean foundRows, String setup) {
        Map<String, Object> held = new HashMap<>();
        for (String backend : configs.keySet()) {
            RelayPool pool = pool(loop, backend, foundRows, setup);
            if (pool == null) {
                continue; // not relayable: joining it fails, as before the reservation
            }
            Object unit = pool.reserve();
            if (unit == null) {
                // what it took a moment ago goes back without waking the waiters: they could not use it before either,
                // and waking them here would make every failed attempt wake the next (a spin while the budget is spent)
                new Reservation(this, loop, foundRows, setup, held).release(false);
                return null;
            }
            held.put(backend, unit);
        }
        return new Reservation(this, loop, foundRows, setup, held);
    }

    /**
     * Admission of a native transaction that waits instead of leaving the native path: the
     * reservation at once when one can be made and nobody on this loop waits before it, else a
     * place in this loop's queue (first come, first admitted) until one can — never holding part of a
     * reservation while it waits, so waiting transactions hold no connection and cannot deadlock the
     * pools. The future fails with 1205 after the longest {@code pool.connectionTimeout} (the JDBC
     * admission's bound and error), and is cancelled by {@link #abandon}. Call on {@code loop}.
     */
    Future<Reservation> admit(EventLoop loop, boolean foundRows, String setup) {
        Waiters queue = waiters.computeIfAbsent(loop, Waiters::new);
        if (queue.deque.isEmpty()) {
            Reservation now = reserve(loop, foundRows, setup);
            if (now != null) {
                return loop.newSucceededFuture(now);
            }
        }
        Waiter w = new Waiter(new Key("", foundRows, setup), loop.newPromise());
        queue.deque.addLast(w);
        waiting.incrementAndGet();
        w.timeout = loop.schedule(() -> {
            if (queue.deque.remove(w)) {
                waiting.decrementAndGet();
                w.admitted.tryFailure(new ShardwiseException(ErrorCode.LOCK_WAIT_TIMEOUT, " (no relay connection came free for the"
                        + " transaction within " + admissionTimeout.toMillis() + " ms; every backend's pool.max relay connections"
                        + " are held by open transactions and statements)"));
            }
        }, admissionTimeout.toMillis(), TimeUnit.MILLISECONDS);
        evictIdle(w.key); // idle connections of other settings may hold the budget: they can never serve it
        queue.schedule(); // a unit freed on another loop between the failed reservation and the enqueue woke nobody
        queue.recheck();
        return w.admitted;
    }

    /** The client left while its transaction waited: out of the queue, and anything admitted meanwhile given back. Call on {@code loop}. */
    void abandon(EventLoop loop, Future<Reservation> admitted) {
        if (admitted.isDone()) {
            if (admitted.isSuccess()) {
                admitted.getNow().release();
            }
            return;
        }
        Waiters queue = waiters.get(loop);
        if (queue != null && queue.deque.removeIf(w -> w.admitted == admitted)) {
            waiting.decrementAndGet();
        }
        ((Promise<Reservation>) admitted).cancel(false);
    }

    /**
     * The first transaction waiting on {@code loop} needs other settings than an idle connection of this
     * key carries: better closed than idle. (With nobody waiting here it stays: a loop's own transactions
     * use it next, and closing it for another loop's waiters would make every transaction a new login;
     * a waiter starving meanwhile gets idle connections closed for it, {@link Waiters#recheck}.)
     */
    boolean wantedElsewhere(EventLoop loop, boolean foundRows, String setup) {
        if (waiting.get() == 0) {
            return false;
        }
        Waiters queue = waiters.get(loop);
        Waiter head = queue == null ? null : queue.deque.peekFirst();
        return head != null && (head.key.foundRows() != foundRows || !head.key.setup().equals(setup));
    }

    /** A connection went idle on {@code loop}: its waiters try again. Call on {@code loop}. */
    void idled(EventLoop loop) {
        if (waiting.get() > 0) {
            Waiters queue = waiters.get(loop);
            if (queue != null) {
                queue.schedule();
            }
        }
    }

    /** A unit of some backend's budget came free (a connection closed, a reservation given back): every waiting loop tries again. */
    void unitFreed() {
        if (waiting.get() > 0) {
            for (Waiters queue : waiters.values()) {
                queue.schedule();
            }
        }
    }

    /**
     * With transactions waiting, one idle connection per loop closes (of a setting no waiter of that
     * loop asks for, nor {@code of} when given), so the unit it holds goes to a waiter: idle connections
     * of other settings, or of another loop, are of no use to it.
     */
    private void evictIdle(Key of) {
        for (Map.Entry<EventLoop, Map<Key, RelayPool>> e : pools.entrySet()) {
            e.getKey().execute(() -> {
                if (waiting.get() == 0) {
                    return;
                }
                Waiters local = waiters.get(e.getKey());
                Waiter head = local == null ? null : local.deque.peekFirst();
                for (Map.Entry<Key, RelayPool> pool : e.getValue().entrySet()) {
                    boolean wantedHere = head != null && head.key.foundRows() == pool.getKey().foundRows()
                            && head.key.setup().equals(pool.getKey().setup())
                            || of != null && of.foundRows() == pool.getKey().foundRows() && of.setup().equals(pool.getKey().setup());
                    if (!wantedHere && pool.getValue().closeOneIdle()) {
                        return;
                    }
                }
            });
        }
    }

    /**
     * Relay connections open and not idle in a pool — leased by a statement, pinned by a transaction, logging in —
     * over every backend: 0 once nothing runs, so a connection neither given back nor closed shows here (tests).
     * Waits while each event loop counts its idle ones: never call it on an event loop.
     */
    public int busyConnections() {
        int open = 0;
        for (AtomicInteger budget : budgets.values()) {
            open += budget.get();
        }
        int idle = 0;
        for (Map.Entry<EventLoop, Map<Key, RelayPool>> e : pools.entrySet()) {
            idle += e.getKey().submit(() -> {
                int n = 0;
                for (RelayPool pool : e.getValue().values()) {
                    n += pool.idleCount();
                }
                return n;
            }).syncUninterruptibly().getNow();
        }
        return open - idle;
    }

    /** Transactions waiting for a reservation now (tests and diagnostics). */
    public int waitingTransactions() {
        return waiting.get();
    }

    private static final long RECHECK_MILLIS = 20;
    /** A waiter this old gets idle connections of other loops closed for it (earlier, closing them would churn logins). */
    private static final long STARVING_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private static final class Waiter {
        final Key key;
        final Promise<Reservation> admitted;
        final long since = System.nanoTime();
        ScheduledFuture<?> timeout;

        Waiter(Key key, Promise<Reservation> admitted) {
            this.key = key;
            this.admitted = admitted;
        }
    }

    /** One loop's waiting transactions, first come first admitted; the deque is touched on the loop only. */
    private final class Waiters {
        final EventLoop loop;
        final ArrayDeque<Waiter> deque = new ArrayDeque<>();
        /** A drain is posted and has not run yet: wake-ups between coalesce into it. */
        final AtomicBoolean scheduled = new AtomicBoolean();
        /** A {@link #recheck} is scheduled (on the loop only). */
        boolean rechecking;

        Waiters(EventLoop loop) {
            this.loop = loop;
        }

        void schedule() {
            if (scheduled.compareAndSet(false, true)) {
                loop.execute(this::drain);
            }
        }

        /**
         * While transactions wait here, a drain every {@link #RECHECK_MILLIS}: a reservation attempt that
         * fails gives back what it took without waking anyone, so a waiter of another loop that failed
         * meanwhile retries at the latest then. Call on the loop.
         */
        void recheck() {
            if (rechecking || deque.isEmpty()) {
                return;
            }
            rechecking = true;
            loop.schedule(() -> {
                rechecking = false;
                drain();
                Waiter head = deque.peekFirst();
                if (head != null && System.nanoTime() - head.since > STARVING_NANOS) {
                    evictIdle(null); // idle connections of another loop, where nobody waits, are of no use to it
                }
                recheck();
            }, RECHECK_MILLIS, TimeUnit.MILLISECONDS);
        }

        /** Admits waiters in order while reservations can be made; the first that cannot stays first. */
        private void drain() {
            scheduled.set(false);
            for (Waiter head; (head = deque.peekFirst()) != null; ) {
                Reservation r = reserve(loop, head.key.foundRows(), head.key.setup());
                if (r == null) {
                    return;
                }
                deque.pollFirst();
                waiting.decrementAndGet();
                head.timeout.cancel(false);
                if (!head.admitted.trySuccess(r)) {
                    r.release();
                }
            }
        }
    }

    /**
     * What a native transaction reserved and has not used yet, per backend: {@code Boolean.TRUE} for
     * a unit of the budget, or an idle connection taken out of its pool. Confined to the loop.
     */
    static final class Reservation {
        private final Relays relays;
        private final EventLoop loop;
        private final boolean foundRows;
        private final String setup;
        private final Map<String, Object> held;

        private Reservation(Relays relays, EventLoop loop, boolean foundRows, String setup, Map<String, Object> held) {
            this.relays = relays;
            this.loop = loop;
            this.foundRows = foundRows;
            this.setup = setup;
            this.held = held;
        }

        /**
         * A connection of {@code backend} for the transaction, its reservation spent on it: the reserved idle one,
         * an idle one, or one being opened on the reserved unit. Without a reservation there (the backend was not
         * relayable at admission, or a join of it failed and spent it) one within the budget, never beyond; null
         * when none is left.
         */
        Future<BackendConnection> take(String backend) {
            Object unit = held.remove(backend);
            if (unit instanceof BackendConnection c) {
                if (c.usable()) {
                    return loop.newSucceededFuture(c);
                }
                c.channel().close(); // lost while reserved (its close frees its unit): a new one if the budget allows
                unit = null;
            }
            if (unit == null) {
                return relays.acquire(loop, backend, foundRows, setup, false);
            }
            Future<BackendConnection> lease = relays.acquire(loop, backend, foundRows, setup, true);
            if (lease == null) {
                relays.budgets.get(backend).decrementAndGet(); // unrelayable since, or closing: the unit goes back
                relays.unitFreed();
            }
            return lease;
        }

        /** Gives back what was not taken: units to the budgets, connections to their pools. Idempotent. */
        void release() {
            release(true);
        }

        private void release(boolean wake) {
            held.forEach((backend, unit) -> {
                if (unit instanceof BackendConnection c) {
                    relays.release(loop, c, foundRows, setup, wake);
                } else {
                    relays.budgets.get(backend).decrementAndGet();
                }
            });
            if (wake && !held.isEmpty()) {
                relays.unitFreed();
            }
            held.clear();
        }
    }

    /** Hands {@code connection} back after a response that ended cleanly; anything else must be closed instead. Call on its loop. */
    public void release(EventLoop loop, BackendConnection connection, boolean foundRows, String setup) {
        release(loop, connection, foundRows, setup, true);
    }

    /** @param wake waiters may try again (false: it was idle a moment ago, in a reservation that failed — trying would spin) */
    private void release(EventLoop loop, BackendConnection connection, boolean foundRows, String setup, boolean wake) {
        RelayPool pool = known(loop, connection.backend(), foundRows, setup);
        if (pool == null) {
            connection.channel().close();
        } else {
            pool.release(connection, wake);
        }
    }

    int maxConnections(String backend) {
        return configs.get(backend).pool().max();
    }

    void unrelayable(String backend, BackendAddress.Unrelayable why) {
        if (addresses.remove(backend) != null) {
            LOG.log(System.Logger.Level.WARNING, why.getMessage());
        }
    }

    boolean closed() {
        return closed;
    }

    /** Counts statements answered by relaying (tests and diagnostics read it). */
    public void countRelayed() {
        relayed.increment();
    }

    public long relayedStatements() {
        return relayed.sum();
    }

    /** Counts statements of native transactions the session ran through its executor ({@link PinnedTransaction}). */
    void countNative() {
        nativeRuns.increment();
    }

    public long nativeStatements() {
        return nativeRuns.sum();
    }

    /** Counts merged reads of native transactions whose units were sent ahead of the session's thread ({@link PinnedTransaction#prefetch}) and taken by it. */
    void countPrefetched() {
        prefetched.increment();
    }

    public long prefetchedStatements() {
        return prefetched.sum();
    }

    /** Counts merged reads of native transactions the event loop merged and answered itself ({@link LoopMerges}). */
    void countLoopMerged() {
        loopMerged.increment();
    }

    public long loopMergedStatements() {
        return loopMerged.sum();
    }

    /** Counts autocommit reads of several units that ran on relay connections ({@link AutocommitReads}). */
    void countAutocommitRead() {
        autocommitReads.increment();
    }

    public long autocommitReads() {
        return autocommitReads.sum();
    }

    /** Counts responses of native transactions streamed to the session's thread ({@link StreamedResponse}). */
    void countStreamed() {
        streamed.increment();
    }

    public long streamedResponses() {
        return streamed.sum();
    }

    /** A streamed response holds {@code bytes} of rows queued now. */
    void streamQueued(long bytes) {
        if (bytes > streamPeak.get()) {
            streamPeak.accumulateAndGet(bytes, Math::max);
        }
    }

    /** The most row bytes a streamed response held queued at once since the start (its bound: {@link StreamedResponse#PAUSE_BYTES} and one read). */
    public long streamedPeakBytes() {
        return streamPeak.get();
    }

    void pinned(int delta) {
        pinned.addAndGet(delta);
    }

    /** Relay connections native transactions hold now; zero whenever no transaction is open. */
    public int pinnedConnections() {
        return pinned.get();
    }

    /** Idle connections close as their loops shut down; from now on nothing is pooled. */
    @Override
    public void close() {
        closed = true;
    }
}
