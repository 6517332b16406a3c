package io.shardwise.server.relay;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.HeldColumns;
import io.shardwise.server.protocol.Packet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The packet relay as an executor of one client connection: for a COM_QUERY its session finds
 * relayable, it leases a relay connection of each backend the plan needs, relays the units
 * ({@link QueryRelay}) and releases the connections — or gives the command back to the session's
 * own executor when a backend cannot be leased or logged into. Session state is touched only
 * through {@link RelaySession}.
 *
 * <p>A COM_STMT_EXECUTE ({@link #relayExecute}) that its session plans as one unit passed through
 * ({@link RelaySession#prepared}) runs as a backend-side prepared statement on a relay connection of
 * that unit's backend — prepared there first if that connection has not yet ({@link RelayStatements}),
 * then executed with the client's values as they came, its binary rows relayed by a {@link QueryRelay}.
 * Until the execute is sent nothing has reached the client, so a backend that cannot be leased,
 * reached or that refuses the prepare hands the command back to the session's own executor. An execute
 * that core merges ({@link RelayPlan#merged}) goes to {@link LoopMerges} as a text merged read does.
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
    /** A relay waits for its backend connections to log in, or its transaction for admission. */
    private boolean starting;
    /** The transaction's admission being waited for, or null. */
    private Future<Relays.Reservation> admitting;
    /** KILL QUERY reached the statement while its transaction waited for admission. */
    private boolean killedWaiting;
    /** The native transaction whose COMMIT or ROLLBACK runs from the loop ({@link TransactionStatements}), or null. */
    private PinnedTransaction ending;
    /** The last relayed column definitions, made logical (made with the first relay). */
    private LogicalColumns columns;
    /** Merged reads answered here ({@link LoopMerges}): a native transaction's, and autocommit ones on {@link #reads}. */
    private final LoopMerges merges;
    /** The session's autocommit merged reads on relay connections (its {@link io.shardwise.core.execute.NativeReads}). */
    private final AutocommitReads reads;

    public RelayExecutor(Relays relays, Channel client, Capabilities capabilities, RelaySession session) {
        this.relays = relays;
        this.client = client;
        this.capabilities = capabilities;
        this.session = session;
        this.reads = new AutocommitReads(relays, client.eventLoop(), capabilities.countsFoundRows(), session);
        // a transaction whose first statement the session's thread runs (a plan-cache miss) pins these connections too
        session.nativeOpener(new SessionThreadPins(relays, client.eventLoop(), capabilities.countsFoundRows(), session));
        session.useNativeReads(reads);
        this.merges = new LoopMerges(relays, client, capabilities, session);
    }

    /** A statement is being relayed or its connections are being leased: the client's next commands wait. */
    public boolean busy() {
        return relay != null || starting || ending != null || merges.busy();
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
        if (answeredTransaction(packet, sql, ended)) {
            return true;
        }
        RelayPlan plan = session.plan(sql);
        if (plan == null) {
            return false;
        }
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
                return merge(packet, sql, plan, null, null, fallback, ended);
            }
            if (pinned != null && !pinned.carries(plan.setup())) {
                return false; // the session SET something inside the transaction: its thread applies it first
            }
            if (pinned == null) {
                return admit(packet, sql, plan, fallback, ended, fresh -> start(packet, sql, plan, fresh, fallback, ended));
            }
        } else if (plan.merged()) {
            return merge(packet, sql, plan, null, null, fallback, ended);
        }
        return start(packet, sql, plan, pinned, fallback, ended);
    }

    /**
     * A merged read ({@link RelayPlan#merged}), a text statement's ({@code described} and {@code held} null) or a prepared
     * execute's (the columns its prepare announced, answered in binary rows; and the definitions its client holds under
     * MariaDB's metadata cache, as the session's thread honours them): the session's thread merges it; its units start now,
     * while that thread wakes and plans, and when they are in, and few, this loop merges them and answers (no thread at
     * all, {@link LoopMerges}). False (nothing sent) when the session's thread runs it whole: a native transaction whose
     * earlier units are not settled or whose settings changed; and when it takes the units sent at once.
     */
    private boolean merge(Packet packet, String sql, RelayPlan plan, List<io.shardwise.core.execute.Column> described,
                          HeldColumns held, Consumer<Packet> fallback, Runnable ended) {
        if (!plan.transactional()) {
            return merges.answerAutocommit(packet, sql, plan, described, held, reads, fallback, ended);
        }
        if (!(session.nativeTransaction() instanceof PinnedTransaction pinned) || pinned.prefetching() || !pinned.carries(plan.setup())) {
            return false;
        }
        java.util.concurrent.CompletableFuture<ResponseReader.Response[]> responses = pinned.prefetch(plan.units());
        if (responses != null && !responses.isDone() && plan.mergeRoute() != null && LoopMerges.bound() > 0) {
            merges.answer(packet, sql, plan, described, held, pinned, responses, fallback, ended);
            return true;
        }
        return false;
    }

    /**
     * BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK TO, RELEASE SAVEPOINT, text or prepared (an execute answers them
     * with the OK a query does):
     * answered here when the session lets the loop ({@link TransactionStatements}), the session's thread
     * left asleep; false (nothing changed) otherwise.
     */
    private boolean answeredTransaction(Packet packet, String sql, Runnable ended) {
        if (!TransactionStatements.mayAnswer(session)) {
            return false;
        }
        io.shardwise.core.TransactionCommand command = session.transactionCommand(sql);
        if (command == null) {
            return false;
        }
        int sequenceId = (packet.sequenceId() + 1) & 0xFF;
        packet.release();
        ending = TransactionStatements.answer(client, session, sequenceId, command, () -> {
            ending = null;
            session.ended();
            ended.run();
        });
        return true;
    }

    /**
     * A transaction's first statement, text or prepared: its transaction is admitted now, or waits for its
     * reservation — every backend's relay connections taken — holding none meanwhile, rather than leaving
     * the native path; the client's next commands wait behind it. {@code then} starts the statement in
     * the new transaction (true: it started; never false once a reservation is made).
     */
    private boolean admit(Packet packet, String sql, RelayPlan plan, Consumer<Packet> fallback, Runnable ended,
                          java.util.function.Predicate<PinnedTransaction> then) {
        Future<Relays.Reservation> admitted = relays.admit(client.eventLoop(), capabilities.countsFoundRows(), plan.setup());
        if (admitted.isDone() && admitted.isSuccess()) {
            return then.test(transaction(plan, admitted.getNow()));
        }
        starting = true;
        admitting = admitted;
        admitted.addListener(f -> admitted(packet, sql, plan, admitted, fallback, ended, then));
        return true;
    }

    private PinnedTransaction transaction(RelayPlan plan, Relays.Reservation reservation) {
        return new PinnedTransaction(relays, reservation, client.eventLoop(), capabilities.countsFoundRows(), plan.setup(), plan.begin(),
                session, plan.logicalSchema());
    }

    /** The wait for a reservation ended: the statement starts, or fails with the admission's 1205 (the transaction goes on). */
    private void admitted(Packet packet, String sql, RelayPlan plan, Future<Relays.Reservation> admitted, Consumer<Packet> fallback,
                          Runnable ended, java.util.function.Predicate<PinnedTransaction> then) {
        starting = false;
        admitting = null;
        boolean killed = killedWaiting;
        killedWaiting = false;
        if (admitted.isCancelled() && !killed) { // the client left
            packet.release();
            ended.run();
            return;
        }
        if (!admitted.isSuccess()) {
            // KILL QUERY took it out of the queue: MySQL's 1317, as for a statement killed while it waits for a lock
            ShardwiseException e = killed ? new ShardwiseException(ErrorCode.QUERY_INTERRUPTED)
                    : admitted.cause() instanceof ShardwiseException s ? s
                    : new ShardwiseException(admitted.cause(), ErrorCode.LOCK_WAIT_TIMEOUT, "");
            int sequenceId = (packet.sequenceId() + 1) & 0xFF;
            packet.release();
            session.started(sql, plan);
            session.failed(e.code().errno(), e.getMessage());
            client.writeAndFlush(new Packet(sequenceId, new ErrPacket(e.code().errno(), e.code().sqlState(), e.getMessage())
                    .encode(client.alloc())), client.voidPromise());
            session.ended();
            ended.run();
            return;
        }
        if (!then.test(transaction(plan, admitted.getNow()))) {
            fallback.accept(packet); // not reached for a transaction (joining never answers null); kept for the contract
            ended.run();
        }
    }

    /** Leases (or joins) a connection of each backend the plan needs and relays once they are ready; false when one cannot be leased. */
    private boolean start(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned, Consumer<Packet> fallback, Runnable ended) {
        EventLoop loop = client.eventLoop();
        boolean foundRows = capabilities.countsFoundRows();
        String only = oneBackend(plan);
        Map<String, Future<BackendConnection>> leases;
        if (only != null) {
            // the common case (a point select, a keyed write): no map to build, none to walk
            Future<BackendConnection> lease = pinned != null ? pinned.join(only, !plan.write())
                    : relays.acquire(loop, only, foundRows, plan.setup());
            if (lease == null) {
                return false;
            }
            leases = Map.of(only, lease);
        } else {
            leases = new LinkedHashMap<>(4);
        }
        for (ExecutionUnit u : only != null ? List.<ExecutionUnit>of() : plan.units()) {
            if (!leases.containsKey(u.backend())) {
                Future<BackendConnection> lease = pinned != null ? pinned.join(u.backend(), !plan.write())
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
        if (only != null) {
            // no walk over the one-entry map (its values view, entry set and iterator are garbage per statement)
            Future<BackendConnection> lease = leases.get(only);
            if (lease.isDone()) {
                begin(packet, sql, plan, transaction, leases, fallback, ended);
            } else {
                lease.addListener(f -> begin(packet, sql, plan, transaction, leases, fallback, ended));
            }
            return true;
        }
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

    /** The backend of every unit when they share one, else null. */
    private static String oneBackend(RelayPlan plan) {
        List<ExecutionUnit> units = plan.units();
        String first = units.get(0).backend();
        for (int i = 1; i < units.size(); i++) {
            if (!units.get(i).backend().equals(first)) {
                return null;
            }
        }
        return first;
    }

    private void begin(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned,
                       Map<String, Future<BackendConnection>> leases, Consumer<Packet> fallback, Runnable ended) {
        starting = false;
        Map<String, BackendConnection> connections;
        if (leases.size() == 1) {
            String backend = plan.units().get(0).backend(); // the one backend: every unit's (oneBackend)
            Future<BackendConnection> lease = leases.get(backend);
            connections = lease.isSuccess() ? Map.of(backend, lease.getNow()) : Map.of();
        } else {
            connections = new LinkedHashMap<>(4);
            for (Map.Entry<String, Future<BackendConnection>> e : leases.entrySet()) {
                if (e.getValue().isSuccess()) {
                    connections.put(e.getKey(), e.getValue().getNow());
                }
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
        run(new QueryRelay(client, capabilities, session, plan, connections, firstSequenceId, release, done -> {
            relay = null;
            if (pinned != null && done.failedWith() == DEADLOCK && session.nativeTransaction() == pinned) {
                pinned.deadlocked();
            }
            ended.run();
        }), sql, plan);
    }

    /** Starts a statement's relay; the processlist and the question count see it as on the session thread. */
    private void run(QueryRelay started, String sql, RelayPlan plan) {
        if (columns == null) {
            columns = new LogicalColumns();
        }
        started.columns(columns);
        relay = started;
        session.started(sql, plan);
        relays.countRelayed();
        started.start();
    }

    /**
     * Starts relaying the execute {@code packet} of statement {@code sql} if the session plans it for
     * the relay and a connection of its backend can be leased; false (nothing changed) otherwise.
     *
     * @param values the values bound, decoded (for routing)
     * @param types each parameter's type and flag byte as bound
     * @param valuesOffset where the values start in the packet's payload
     * @param held the column definitions the client holds for the statement (used under MariaDB's metadata cache, by the
     *     relay and by a merged result the loop answers alike)
     * @param described the columns the statement's prepare announced (a merged result takes their names)
     * @param fallback takes the packet when the relay cannot start after all
     * @param ended runs once the execution was relayed or handed to {@code fallback}
     */
    public boolean relayExecute(Packet packet, String sql, List<Object> values, int[] types, int valuesOffset, HeldColumns held,
                                List<io.shardwise.core.execute.Column> described, Consumer<Packet> fallback, Runnable ended) {
        if (values.isEmpty() && answeredTransaction(packet, sql, ended)) { // sysbench --db-ps-mode=auto prepares BEGIN and COMMIT
            return true;
        }
        RelayPlan plan = session.prepared(sql, values);
        if (plan == null) {
            return false;
        }
        if (plan.merged()) {
            return merge(packet, sql, plan, described, held, fallback, ended);
        }
        String backend = plan.units().get(0).backend();
        if (!plan.transactional()) {
            Future<BackendConnection> lease = relays.acquire(client.eventLoop(), backend, capabilities.countsFoundRows(), plan.setup());
            return lease != null && execute(packet, sql, plan, null, lease, types, valuesOffset, held, fallback, ended);
        }
        // in a transaction: on its pinned connection of that backend, or as its first statement, which pins (admitted as text's)
        if (session.nativeTransaction() instanceof PinnedTransaction pinned) {
            return pinned.carries(plan.setup()) && !pinned.prefetching()
                    && execute(packet, sql, plan, pinned, pinned.join(backend), types, valuesOffset, held, fallback, ended);
        }
        return session.nativeTransaction() == null && admit(packet, sql, plan, fallback, ended,
                fresh -> execute(packet, sql, plan, fresh, fresh.join(backend), types, valuesOffset, held, fallback, ended));
    }

    /** Starts the execution once {@code lease} (a pooled connection, or {@code pinned}'s) is ready. */
    private boolean execute(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned, Future<BackendConnection> lease,
                            int[] types, int valuesOffset, HeldColumns held, Consumer<Packet> fallback, Runnable ended) {
        starting = true;
        Start start = new Start(packet, sql, plan, pinned, TransactionPins.fresh(session, pinned), types, valuesOffset, held, fallback,
                ended);
        if (lease.isDone()) {
            start.leased(lease);
        } else {
            lease.addListener(f -> start.leased(lease));
        }
        return true;
    }

    /** One prepared statement's execution between its lease and its relay's start. */
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
        private final HeldColumns held;
        private final Consumer<Packet> fallback;
        private final Runnable ended;
        private BackendConnection connection;

        Start(Packet packet, String sql, RelayPlan plan, PinnedTransaction pinned, boolean fresh, int[] types, int valuesOffset,
              HeldColumns held, Consumer<Packet> fallback, Runnable ended) {
            this.held = held;
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
            PreparedRelay request = PreparedRelay.of(packet.content(), types, valuesOffset);
            int firstSequenceId = packet.sequenceId() + 1;
            packet.release();
            if (fresh) {
                session.attach(pinned);
            }
            PinnedTransaction transaction = pinned;
            QueryRelay.ReleaseTo release = transaction != null ? c -> { } // the transaction keeps its connection
                    : c -> relays.release(loop, c, foundRows, plan.setup());
            run(new QueryRelay(client, capabilities, session, plan, Map.of(connection.backend(), connection), firstSequenceId,
                    release, done -> {
                        relay = null;
                        request.release();
                        TransactionPins.ended(session, transaction, done.failedWith());
                        ended.run();
                    }, request).held(held), sql, plan);
        }
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

    /** KILL QUERY: the relayed statement, if any, ends with 1317; so does one whose transaction waits for admission. */
    public void kill() {
        if (relay != null) {
            relay.kill();
        }
        if (ending != null) {
            ending.cancel(); // as the session thread's cancel: KILL QUERY on what its connections run
        }
        merges.kill();
        if (admitting != null) {
            killedWaiting = true; // out of the queue now, not at pool.connectionTimeout; answered 1317 (admitted)
            relays.abandon(client.eventLoop(), admitting);
        }
    }

    /** The client left: the relayed statement, if any, ends without a word and its connections close. */
    public void abort() {
        if (relay != null) {
            relay.abort();
        }
        if (admitting != null) {
            relays.abandon(client.eventLoop(), admitting);
        }
    }
}

