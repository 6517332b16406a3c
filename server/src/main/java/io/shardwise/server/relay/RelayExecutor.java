package io.shardwise.server.relay;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Packet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The packet relay as an executor of one client connection: for a COM_QUERY its session finds
 * relayable, it leases a relay connection of each backend the plan needs, relays the units
 * ({@link QueryRelay}) and releases the connections — or gives the command back to the session's
 * own executor when a backend cannot be leased or logged into. Session state is touched only
 * through {@link RelaySession}.
 *
 * <p>Event-loop confined (the client's loop). At most one statement is relayed or starting at a
 * time; the caller holds back the client's later commands while {@link #busy()}.
 *
 * <p>Buffer lifetime: a packet passed to {@link #relay} is this executor's once the call answers
 * true (released when the relay starts, or handed to the fallback); on false the caller keeps it.
 */
public final class RelayExecutor {
    private final Relays relays;
    private final Channel client;
    private final Capabilities capabilities;
    private final RelaySession session;
    /** ER_LOCK_DEADLOCK: the backend rolled back the whole transaction there. */
    private static final int DEADLOCK = 1213;
    /** The statement being relayed, or null. */
    private QueryRelay relay;
    /** A relay waits for its backend connections to log in. */
    private boolean starting;

    public RelayExecutor(Relays relays, Channel client, Capabilities capabilities, RelaySession session) {
        this.relays = relays;
        this.client = client;
        this.capabilities = capabilities;
        this.session = session;
    }

    /** A statement is being relayed or its connections are being leased: the client's next commands wait. */
    public boolean busy() {
        return relay != null || starting;
    }

    /**
     * Starts relaying {@code sql} (the text of COM_QUERY {@code packet}) if the session finds it
     * relayable and a connection of each backend it needs can be leased; false (nothing changed)
     * when the session's executor must answer it.
     *
     * @param fallback takes the packet when the relay cannot start after all (a backend unreachable)
     * @param ended runs once the statement was relayed or handed to {@code fallback}
     */
    public boolean relay(Packet packet, String sql, Consumer<Packet> fallback, Runnable ended) {
        RelayPlan plan = session.plan(sql);
        if (plan == null) {
            return false;
        }
        EventLoop loop = client.eventLoop();
        boolean foundRows = capabilities.countsFoundRows();
        PinnedTransaction pinned = null;
        if (plan.transactional()) {
            pinned = session.nativeTransaction() instanceof PinnedTransaction p ? p : null;
            if (pinned == null && session.nativeTransaction() != null) {
                return false;
            }
            if (pinned != null && pinned.prefetching()) {
                return false; // an earlier statement's units are still on the connections: the session's thread settles them
            }
            if (plan.merged()) {
                // the session's thread merges it; its units start now, while that thread wakes and plans
                if (pinned != null && pinned.carries(plan.setup())) {
                    pinned.prefetch(plan.units());
                }
                return false;
            }
            if (pinned != null && !pinned.carries(plan.setup())) {
                return false; // the session SET something inside the transaction: its thread applies it first
            }
            if (pinned == null) {
                Relays.Reservation reservation = relays.reserve(loop, foundRows, plan.setup());
                if (reservation == null) {
                    return false; // some backend's relay connections are all taken: the JDBC executor's admission waits
                }
                pinned = new PinnedTransaction(relays, reservation, loop, foundRows, plan.setup(), plan.begin(), session,
                        plan.logicalSchema());
            }
        }
        Map<String, Future<BackendConnection>> leases = new LinkedHashMap<>(4);
        for (ExecutionUnit u : plan.units()) {
            if (!leases.containsKey(u.backend())) {
                Future<BackendConnection> lease = pinned != null ? pinned.join(u.backend())
                        : relays.acquire(loop, u.backend(), foundRows, plan.setup());
                if (lease == null) {
                    giveBack(leases, plan.setup());
                    return false;
                }
                leases.put(u.backend(), lease);
            }
        }
        PinnedTransaction transaction = pinned;
        starting = true;
        int[] pending = {leases.size()};
        for (Future<BackendConnection> lease : leases.values()) {
            if (lease.isDone()) {
                pending[0]--;
            } else {
                lease.addListener(f -> {
                    if (--pending[0] == 0) {
                        begin(packet, sql, plan, transaction, leases, fallback, ended);
                    }
                });
            }
        }
        if (pending[0] == 0) {
            begin(packet, sql, plan, transaction, leases, fallback, ended);
        }
        return true;
    }

    private void begin(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned,
                       Map<String, Future<BackendConnection>> leases, Consumer<Packet> fallback, Runnable ended) {
        starting = false;
        Map<String, BackendConnection> connections = new LinkedHashMap<>(4);
        for (Map.Entry<String, Future<BackendConnection>> e : leases.entrySet()) {
            if (e.getValue().isSuccess()) {
                connections.put(e.getKey(), e.getValue().getNow());
            }
        }
        boolean fresh = pinned != null && session.nativeTransaction() == null;
        if (connections.size() < leases.size() || !client.isActive()) {
            // a backend could not be reached or logged into: the session's executor runs it (and reports any error);
            // in a transaction that was not native yet it stays on the JDBC executor whole
            if (fresh) {
                pinned.rollback();
            } else if (pinned == null) {
                giveBack(leases, plan.setup());
            }
            if (client.isActive()) {
                fallback.accept(packet);
            } else {
                packet.release();
            }
            ended.run();
            return;
        }
        int firstSequenceId = packet.sequenceId() + 1;
        packet.release();
        EventLoop loop = client.eventLoop();
        boolean foundRows = capabilities.countsFoundRows();
        if (fresh) {
            session.attach(pinned);
        }
        QueryRelay.ReleaseTo release = pinned != null ? c -> { } // the transaction keeps its connections
                : c -> relays.release(loop, c, foundRows, plan.setup());
        relay = new QueryRelay(client, capabilities, session, plan, connections, firstSequenceId, release, done -> {
            relay = null;
            if (pinned != null && done.failedWith() == DEADLOCK && session.nativeTransaction() == pinned) {
                pinned.deadlocked();
            }
            ended.run();
        });
        session.started(sql, plan);
        relays.countRelayed();
        relay.start();
    }

    private void giveBack(Map<String, Future<BackendConnection>> leases, String setup) {
        EventLoop loop = client.eventLoop();
        boolean foundRows = capabilities.countsFoundRows();
        for (Future<BackendConnection> lease : leases.values()) {
            lease.addListener(f -> {
                if (f.isSuccess()) {
                    relays.release(loop, lease.getNow(), foundRows, setup);
                }
            });
        }
    }

    /** The client can take more (channelWritabilityChanged): the backend reads again. */
    public void writable() {
        if (relay != null) {
            relay.writable();
        }
    }

    /** KILL QUERY: the relayed statement, if any, ends with 1317. */
    public void kill() {
        if (relay != null) {
            relay.kill();
        }
    }

    /** The client left: the relayed statement, if any, ends without a word and its connections close. */
    public void abort() {
        if (relay != null) {
            relay.abort();
        }
    }
}
