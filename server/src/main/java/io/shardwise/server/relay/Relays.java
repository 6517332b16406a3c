package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.shardwise.core.config.BackendConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
    private final LongAdder relayed = new LongAdder();
    private final LongAdder nativeRuns = new LongAdder();
    private final LongAdder prefetched = new LongAdder();
    /** Connections held by open native transactions ({@link PinnedTransaction}). */
    private final AtomicInteger pinned = new AtomicInteger();
    private final Class<? extends SocketChannel> channelClass;
    private volatile boolean closed;

    /** @param channelClass the client channel of the transport the event loops run (relay connections share the loops) */
    public Relays(Map<String, BackendConfig> backends, Class<? extends SocketChannel> channelClass) {
        this.configs = Map.copyOf(backends);
        this.channelClass = channelClass;
        for (BackendConfig c : backends.values()) {
            budgets.put(c.name(), new AtomicInteger());
            try {
                addresses.put(c.name(), BackendAddress.of(c));
            } catch (BackendAddress.Unrelayable e) {
                LOG.log(System.Logger.Level.INFO, e.getMessage());
            }
        }
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
        BackendConfig config = configs.get(backend);
        return pools.computeIfAbsent(loop, l -> new HashMap<>()).computeIfAbsent(new Key(backend, foundRows, setup),
                k -> new RelayPool(this, loop, address, foundRows, setup, budgets.get(backend), config.pool().idleTimeout().toNanos(),
                        Math.max(250, config.pool().connectionTimeout().toMillis())));
    }

    /**
     * Admission of a native transaction: one connection of every relayable backend reserved within
     * that backend's relay budget ({@link RelayPool#reserve}: a unit of the budget, or an idle
     * connection of this loop's pool when the budget is spent), or null, nothing reserved, when some
     * backend has none left — the transaction then runs on the JDBC executor, whose admission waits.
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
                new Reservation(this, loop, foundRows, setup, held).release();
                return null;
            }
            held.put(backend, unit);
        }
        return new Reservation(this, loop, foundRows, setup, held);
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
            }
            return lease;
        }

        /** Gives back what was not taken: units to the budgets, connections to their pools. Idempotent. */
        void release() {
            held.forEach((backend, unit) -> {
                if (unit instanceof BackendConnection c) {
                    relays.release(loop, c, foundRows, setup);
                } else {
                    relays.budgets.get(backend).decrementAndGet();
                }
            });
            held.clear();
        }
    }

    /** Hands {@code connection} back after a response that ended cleanly; anything else must be closed instead. Call on its loop. */
    public void release(EventLoop loop, BackendConnection connection, boolean foundRows, String setup) {
        Map<Key, RelayPool> of = pools.get(loop);
        RelayPool pool = of == null ? null : of.get(new Key(connection.backend(), foundRows, setup));
        if (pool == null) {
            connection.channel().close();
        } else {
            pool.release(connection);
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
