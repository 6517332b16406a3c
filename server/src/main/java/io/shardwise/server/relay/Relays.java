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
 * have up to its {@code pool.max} relay connections open, over all event loops, besides the JDBC
 * executor's pool. Thread-safe at this level; each pool is confined to its loop.
 */
public final class Relays implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Relays.class.getName());

    private record Key(String backend, boolean foundRows, String setup) {}

    private final Map<String, BackendConfig> configs;
    private final Map<String, BackendAddress> addresses = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> budgets = new HashMap<>();
    private final java.util.concurrent.Semaphore transactionSlots;
    private final Map<EventLoop, Map<Key, RelayPool>> pools = new ConcurrentHashMap<>();
    private final LongAdder relayed = new LongAdder();
    private final LongAdder nativeRuns = new LongAdder();
    /** Connections held by open native transactions ({@link PinnedTransaction}). */
    private final AtomicInteger pinned = new AtomicInteger();
    private final Class<? extends SocketChannel> channelClass;
    private volatile boolean closed;

    /** @param channelClass the client channel of the transport the event loops run (relay connections share the loops) */
    public Relays(Map<String, BackendConfig> backends, Class<? extends SocketChannel> channelClass) {
        this.configs = Map.copyOf(backends);
        this.channelClass = channelClass;
        int slots = Integer.MAX_VALUE;
        for (BackendConfig c : backends.values()) {
            slots = Math.min(slots, c.pool().max());
        }
        this.transactionSlots = new java.util.concurrent.Semaphore(backends.isEmpty() ? 1 : slots);
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

    /** As {@link #acquire(EventLoop, String, boolean, String)}; {@code beyondBudget}: for an admitted native transaction. */
    Future<BackendConnection> acquire(EventLoop loop, String backend, boolean foundRows, String setup, boolean beyondBudget) {
        BackendAddress address = addresses.get(backend);
        if (address == null || closed) {
            return null;
        }
        BackendConfig config = configs.get(backend);
        RelayPool pool = pools.computeIfAbsent(loop, l -> new HashMap<>()).computeIfAbsent(new Key(backend, foundRows, setup),
                k -> new RelayPool(this, loop, address, foundRows, setup, budgets.get(backend), config.pool().idleTimeout().toNanos(),
                        Math.max(250, config.pool().connectionTimeout().toMillis())));
        return pool.acquire(beyondBudget);
    }

    /**
     * A slot for a native transaction, or false when all are taken (the transaction then runs on the
     * JDBC executor, whose admission makes it wait). There are as many as the smallest backend's
     * {@code pool.max}; an admitted transaction opens its relay connections beyond the backend's
     * relay budget (at most one per backend), so it never waits for a connection while holding
     * another — no pool deadlock — and each backend has at most twice its {@code pool.max} relay
     * connections open. Thread-safe.
     */
    boolean admitTransaction() {
        return transactionSlots.tryAcquire();
    }

    void transactionEnded() {
        transactionSlots.release();
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
