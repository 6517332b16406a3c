package io.shardwise.server.relay;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Packet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The packet relay for one client connection's COM_STMT_EXECUTE: an execution its session plans
 * as one unit passed through ({@link RelaySession#prepared}) runs as a backend-side prepared
 * statement on a relay connection of that unit's backend (in a transaction, the transaction's
 * pinned connection, which it pins if it is the transaction's first statement: {@link TransactionPins}) — prepared there first if that connection
 * has not yet ({@link RelayStatements}), then executed with the client's values as they came, its
 * binary rows relayed by a {@link QueryRelay}. Until the execute is sent nothing has reached the
 * client, so a backend that cannot be leased, reached or that refuses the prepare hands the command
 * back to the session's own executor, which answers it as it would have.
 *
 * <p>Event-loop confined (the client's loop); at most one execution relayed or starting at a time
 * ({@link #busy}), as {@link RelayExecutor}, beside which it runs.
 *
 * <p>Buffer lifetime: a packet passed to {@link #relay} is this executor's once the call answers
 * true (released when the relay starts, or handed to the fallback); on false the caller keeps it.
 */
public final class PreparedRelayExecutor {
    private final Relays relays;
    private final Channel client;
    private final Capabilities capabilities;
    private final RelaySession session;
    private QueryRelay relay;
    private boolean starting;

    public PreparedRelayExecutor(Relays relays, Channel client, Capabilities capabilities, RelaySession session) {
        this.relays = relays;
        this.client = client;
        this.capabilities = capabilities;
        this.session = session;
    }

    public boolean busy() {
        return relay != null || starting;
    }

    /**
     * Starts relaying the execute {@code packet} of statement {@code sql} if the session plans it for
     * the relay and a connection of its backend can be leased; false (nothing changed) otherwise.
     *
     * @param values the values bound, decoded (for routing)
     * @param types each parameter's type and flag byte as bound
     * @param valuesOffset where the values start in the packet's payload
     * @param fallback takes the packet when the relay cannot start after all
     * @param ended runs once the execution was relayed or handed to {@code fallback}
     */
    public boolean relay(Packet packet, String sql, List<Object> values, int[] types, int valuesOffset, Consumer<Packet> fallback,
                         Runnable ended) {
        RelayPlan plan = session.prepared(sql, values);
        if (plan == null) {
            return false;
        }
        ExecutionUnit unit = plan.units().get(0);
        PinnedTransaction pinned = null;
        Future<BackendConnection> lease;
        if (plan.transactional()) {
            // in a transaction: on its pinned connection of that backend, or as its first statement, which pins
            pinned = TransactionPins.pin(relays, session, client.eventLoop(), capabilities.countsFoundRows(), plan);
            lease = pinned == null ? null : pinned.join(unit.backend());
        } else {
            lease = relays.acquire(client.eventLoop(), unit.backend(), capabilities.countsFoundRows(), plan.setup());
        }
        if (lease == null) {
            return false;
        }
        starting = true;
        Start start = new Start(packet, sql, plan, pinned, TransactionPins.fresh(session, pinned), types, valuesOffset, fallback, ended);
        if (lease.isDone()) {
            start.leased(lease);
        } else {
            lease.addListener(f -> start.leased(lease));
        }
        return true;
    }

    /** One execution between its lease and its relay's start. */
    private final class Start implements RelayStatements.Prepared {
        private final Packet packet;
        private final String sql;
        private final RelayPlan plan;
        /** The transaction whose connection runs it, or null in autocommit. */
        private final PinnedTransaction pinned;
        /** {@link #pinned} begins with this execution: the session attaches it when the relay starts. */
        private final boolean fresh;
        private final int[] types;
        private final int valuesOffset;
        private final Consumer<Packet> fallback;
        private final Runnable ended;
        private BackendConnection connection;

        Start(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned, boolean fresh, int[] types, int valuesOffset,
              Consumer<Packet> fallback, Runnable ended) {
            this.packet = packet;
            this.sql = sql;
            this.plan = plan;
            this.pinned = pinned;
            this.fresh = fresh;
            this.types = types;
            this.valuesOffset = valuesOffset;
            this.fallback = fallback;
            this.ended = ended;
        }

        void leased(Future<BackendConnection> lease) {
            if (!lease.isSuccess()) {
                fallBack(); // the session's executor runs it and reports any error
                return;
            }
            connection = lease.getNow();
            if (!client.isActive()) {
                fallBack();
                return;
            }
            String physical = plan.units().get(0).sql();
            if (RelayStatements.of(connection).get(physical) != null) {
                begin();
            } else {
                RelayStatements.prepare(connection, physical, types.length, this);
            }
        }

        @Override
        public void prepared(RelayStatements.Statement statement) {
            if (client.isActive()) {
                begin();
            } else {
                fallBack();
            }
        }

        @Override
        public void refused(Packet error) {
            error.release(); // the session's executor gets the same error its own way, or runs what the backend cannot prepare
            fallBack();
        }

        @Override
        public void lost(Throwable cause) {
            connection.channel().close(); // a pinned one dooms its transaction, as a connection lost under a text statement
            connection = null;
            fallBack();
        }

        /**
         * The session's executor runs it: in autocommit on its own connection; in a transaction that was
         * native already on the same pinned connections (through core's executor); one this execution was
         * to begin stays on the JDBC executor whole, so nothing of it is left on the native side.
         */
        private void fallBack() {
            starting = false;
            if (fresh) {
                pinned.rollback(); // on the loop: gives back its reservation and what it joined, which ran only START TRANSACTION
            } else if (pinned == null && connection != null) {
                relays.release(client.eventLoop(), connection, capabilities.countsFoundRows(), plan.setup());
            }
            if (client.isActive()) {
                fallback.accept(packet);
            } else {
                packet.release();
            }
            ended.run();
        }

        private void begin() {
            starting = false;
            EventLoop loop = client.eventLoop();
            boolean foundRows = capabilities.countsFoundRows();
            PreparedRelay request = PreparedRelay.of(packet.content(), types, valuesOffset, client.alloc());
            int firstSequenceId = packet.sequenceId() + 1;
            packet.release();
            if (fresh) {
                session.attach(pinned);
            }
            PinnedTransaction transaction = pinned;
            QueryRelay.ReleaseTo release = transaction != null ? c -> { } // the transaction keeps its connection
                    : c -> relays.release(loop, c, foundRows, plan.setup());
            relay = new QueryRelay(client, capabilities, session, plan, Map.of(connection.backend(), connection), firstSequenceId,
                    release, done -> {
                        relay = null;
                        request.release();
                        TransactionPins.ended(session, transaction, done.failedWith());
                        ended.run();
                    }, request);
            session.started(sql, plan);
            relays.countRelayed();
            relay.start();
        }
    }

    /** The client can take more: the backend reads again. */
    public void writable() {
        if (relay != null) {
            relay.writable();
        }
    }

    /** KILL QUERY: the relayed execution, if any, ends with 1317. */
    public void kill() {
        if (relay != null) {
            relay.kill();
        }
    }

    /** The client left: the relayed execution, if any, ends without a word and its connection closes. */
    public void abort() {
        if (relay != null) {
            relay.abort();
        }
    }
}
