package io.shardwise.server.relay;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.shardwise.server.protocol.PacketDecoder;
import io.shardwise.server.protocol.PacketEncoder;
import io.shardwise.server.protocol.ReadBuffers;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle relay connections of one backend, for one event loop, one CLIENT_FOUND_ROWS choice (fixed
 * at login, as for the JDBC pools) and one setup (the SET of session settings each connection ran
 * once after login, "" for none). Event-loop confined, so no locks: the deque is touched only by
 * the loop that owns the connections. The number of open connections is bounded per backend over
 * every loop ({@code budget}), native transactions' pinned connections included (they reserve theirs
 * up front, {@link #reserve}); when it is spent, {@link #acquire} answers null and an autocommit statement takes
 * the JDBC path instead of waiting (a transaction waits for its reservation: {@link Relays#admit}). Connections idle longer than the backend's pool idle timeout are
 * closed as the pool is used, and the most recently used connection is handed out first, so the rest
 * age out.
 */
final class RelayPool {
    private static final System.Logger LOG = System.getLogger(RelayPool.class.getName());
    /** No relayed message is bigger than the backend's max_allowed_packet, which MySQL caps at 1 GiB. */
    private static final int MAX_MESSAGE = 1 << 30;

    private final Relays relays;
    private final EventLoop loop;
    private final BackendAddress address;
    private final boolean foundRows;
    private final String setup;
    private final AtomicInteger budget;
    private final long idleNanos;
    private final long connectTimeoutMillis;
    private final ArrayDeque<BackendConnection> idle = new ArrayDeque<>();

    /** Whether this is the pool of connections made with these settings. */
    boolean serves(boolean foundRows, String setup) {
        return this.foundRows == foundRows && this.setup.equals(setup);
    }

    RelayPool(Relays relays, EventLoop loop, BackendAddress address, boolean foundRows, String setup, AtomicInteger budget,
              long idleNanos, long connectTimeoutMillis) {
        this.relays = relays;
        this.loop = loop;
        this.address = address;
        this.foundRows = foundRows;
        this.setup = setup;
        this.budget = budget;
        this.idleNanos = idleNanos;
        this.connectTimeoutMillis = connectTimeoutMillis;
    }

    /**
     * An idle connection, or a new one when the budget allows (completing once logged in); null when the budget is spent.
     *
     * @param reserved the caller holds a unit of the budget ({@link #reserve}) that this call consumes: an idle
     *     connection hands the unit back, a new one takes it over (its close frees it), so a native transaction's
     *     connections stay within the budget without ever waiting for one
     */
    Future<BackendConnection> acquire(boolean reserved) {
        for (BackendConnection c; (c = idle.pollLast()) != null; ) {
            if (!c.usable()) {
                c.channel().close(); // closed already, or in a state no idle connection may be in: it must not stay counted
            } else {
                if (reserved) {
                    budget.decrementAndGet();
                    relays.unitFreed();
                }
                return c.asLease(loop);
            }
        }
        if (!reserved && !takeUnit()) {
            return null;
        }
        Promise<BackendConnection> connected = loop.newPromise();
        BackendConnection handler = new BackendConnection(address, foundRows, setup, connected);
        new Bootstrap().group(loop).channel(relays.channelClass())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.RECVBUF_ALLOCATOR, ReadBuffers.backend()) // one read per answer
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeoutMillis))
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.closeFuture().addListener(closed -> {
                            budget.decrementAndGet();
                            relays.unitFreed();
                        });
                        ch.pipeline().addLast(new PacketDecoder(MAX_MESSAGE), PacketEncoder.INSTANCE, handler);
                    }
                })
                .connect(address.host(), address.port())
                .addListener(f -> {
                    if (!f.isSuccess()) {
                        connected.tryFailure(f.cause());
                    }
                });
        // a backend that accepts but never answers must not hold the statement
        loop.schedule(() -> {
            if (connected.tryFailure(new IllegalStateException("backend " + address.backend() + " did not complete the login in "
                    + connectTimeoutMillis + " ms"))) {
                handler.channel().close();
            }
        }, connectTimeoutMillis, TimeUnit.MILLISECONDS);
        connected.addListener(f -> {
            if (!f.isSuccess() && f.cause() instanceof BackendAddress.Unrelayable u) {
                relays.unrelayable(address.backend(), u);
            } else if (!f.isSuccess()) {
                LOG.log(System.Logger.Level.DEBUG, "relay connection to " + address.backend() + " failed: " + f.cause());
            }
        });
        return connected;
    }

    /** One unit of the backend's budget (an open connection, or one a native transaction may open), if any is left. */
    private boolean takeUnit() {
        if (budget.incrementAndGet() > relays.maxConnections(address.backend())) {
            budget.decrementAndGet();
            return false;
        }
        return true;
    }

    /**
     * Reserves a connection for a native transaction: a unit of the budget ({@code true}; {@link #acquire}
     * with {@code reserved} consumes it, {@link Relays.Reservation#release} gives it back), or, when the budget is spent, an
     * idle connection of this pool taken out of it (the connection; it already counts); null when neither is
     * left. Call on the pool's loop.
     */
    Object reserve() {
        if (takeUnit()) {
            return Boolean.TRUE;
        }
        for (BackendConnection c; (c = idle.pollLast()) != null; ) {
            if (!c.usable()) {
                c.channel().close(); // closed already, or in a state no idle connection may be in: it must not stay counted
            } else {
                return c;
            }
        }
        return null;
    }

    /** Back to the idle deque if it finished its response cleanly; closes what sat idle too long. */
    void release(BackendConnection c, boolean wake) {
        long now = System.nanoTime();
        if (!c.usable() || c.pipelining() || relays.closed()) { // pipelined steps would open a transaction for the next user
            c.channel().close();
            return;
        }
        if (relays.wantedElsewhere(loop, foundRows, setup)) {
            c.channel().close(); // transactions wait that could not use it idle here: its unit goes to them
            return;
        }
        c.idleSince = now;
        idle.addLast(c);
        BackendConnection oldest = idle.peekFirst();
        if (oldest != null && now - oldest.idleSince > idleNanos) {
            idle.pollFirst().channel().close();
        }
        if (wake) {
            relays.idled(loop);
        }
    }

    /** Idle connections now. On the loop. */
    int idleCount() {
        return idle.size();
    }

    /** Closes one idle connection, freeing its unit of the budget for a waiting transaction; false when none is idle. */
    boolean closeOneIdle() {
        BackendConnection c = idle.pollFirst();
        if (c == null) {
            return false;
        }
        c.channel().close();
        return true;
    }
}
