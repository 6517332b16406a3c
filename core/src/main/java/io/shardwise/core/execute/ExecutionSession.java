package io.shardwise.core.execute;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One client session's view of the backends: its {@link SessionState}, its transaction, and the
 * execution of a statement's units.
 *
 * <p>Execution: the units of a statement run in parallel on virtual threads. Outside a transaction
 * each unit borrows its own pooled connection and gives it back when its update is done or its
 * cursor is closed; rows always stream. Inside a transaction (after {@link #begin}, or any
 * statement while autocommit is off) the session holds one connection per touched backend until
 * COMMIT or ROLLBACK; backends still run in parallel, but the units of one backend run one after
 * another on its connection, so the rows of every unit but the last on a backend are read whole
 * into memory (a streaming result blocks its connection). Limit: a transactional statement that
 * sends several large SELECTs to one backend holds all but the last in memory.
 *
 * <p>Admission: a transaction before its first connection, and an autocommit statement of several
 * units before its units borrow, wait for slots of the engine-wide {@link Admission}, so that
 * holders that wait for a connection while holding another can never drain the pools into a
 * deadlock (see there). A wait for slots ends like a statement: with cancel or the statement
 * timeout (1317), or after the pools' {@code connectionTimeout} (1205).
 *
 * <p>Failure: the first failing unit fails the statement; the siblings get KILL QUERY, their
 * cursors are closed and every connection goes back to its pool. A lost connection (SQLSTATE 08) is
 * evicted from its pool and dooms a transaction; a deadlock (1213) has rolled back the backend's
 * part, so the session rolls back the rest of the transaction as MySQL would.
 *
 * <p>Threads: one caller at a time drives the session (the faces call it serially per client);
 * only {@link #cancel} may come from another thread. Cursors returned by {@link #execute} must be
 * closed before the session's next command touches the same transaction connection, or that
 * command closes them itself (cancelling what they still stream).
 */
public final class ExecutionSession implements AutoCloseable {
    /** "This command is not supported in the prepared statement protocol yet". */

    private final BackendPools pools;
    private final ExecutorOptions options;
    private final String logicalSchema;
    private final boolean clientFoundRows;
    private final SessionState state = new SessionState();
    /** The markers of the unit texts this session inlines values into, found once per text and mode. */
    private final InlinedUnits inlinedUnits = new InlinedUnits();
    private final Set<StatementRun> runs = ConcurrentHashMap.newKeySet();
    private final java.util.concurrent.atomic.AtomicLong cancels = new java.util.concurrent.atomic.AtomicLong();
    private final Set<StreamingCursor> openCursors = ConcurrentHashMap.newKeySet();
    private Duration statementTimeout;
    /** While a statement made of several executions runs ({@link #oneDeadline}): when it must end, {@link System#nanoTime}. */
    private long deadline;
    private boolean underDeadline;
    private boolean autocommit = true;
    private Transaction transaction;
    /** The connections holding the session's LOCK TABLES, or null: statements outside a transaction run on them. */
    private Transaction locks;
    /**
     * The open transaction's native connections (a face's own executor), or null: while set, the
     * transaction ({@link #transaction}, which then holds no JDBC connection) runs only there.
     */
    private volatile NativeTransaction nativeTx;
    /**
     * A face's native transactions for a transaction's first statement that runs here (see
     * {@link #nativeNow}): the settings it must carry in, the transaction out (null: declined); or null.
     */
    private volatile java.util.function.Function<String, NativeTransaction> opener;
    /** The face's executor of autocommit multi-unit reads ({@link NativeReads}), or null. */
    private volatile NativeReads nativeReads;
    /** The running statement's rows are fetched by a cursor ({@link #streaming}): no native read. Session thread only. */
    private boolean streaming;
    /** The face's java.time parameters are binary-protocol temporals, written as CASTs to their type ({@link TemporalText}). */
    private volatile boolean typedTemporals;
    private volatile boolean closed;

    /**
     * @param logicalSchema reported as the schema of every column that comes from a table
     * @param clientFoundRows the client's CLIENT_FOUND_ROWS handshake flag: affected rows count
     *     matched rows when set (Connector/J's default), changed rows when not (the mysql CLI's)
     */
    public ExecutionSession(BackendPools pools, ExecutorOptions options, String logicalSchema, boolean clientFoundRows) {
        this.pools = Objects.requireNonNull(pools, "pools");
        this.options = Objects.requireNonNull(options, "options");
        this.logicalSchema = Objects.requireNonNull(logicalSchema, "logicalSchema");
        this.clientFoundRows = clientFoundRows;
        this.statementTimeout = options.statementTimeout();
    }

    public SessionState state() {
        return state;
    }

    /** Runs the units of one statement; results are in unit order, and the caller closes their cursors. */
    public List<UnitResult> execute(List<ExecutionUnit> units) {
        return execute(units, new Diagnostics(0));
    }

    /**
     * As {@link #execute(List)}, recording each unit's backend warnings in {@code diagnostics}
     * (slot = unit index): updates' before this returns, result sets' when their cursors reach the end.
     */
    public List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics) {
        return execute(units, diagnostics, false);
    }

    /**
     * Runs one unit that may return several results (CALL) and reads them all before its connection
     * is free again: the result sets, each whole, then the final update count.
     */
    public List<UnitResult> executeAll(ExecutionUnit unit, Diagnostics diagnostics) {
        return ((UnitResult.Results) execute(List.of(unit), diagnostics, true).get(0)).results();
    }

    /**
     * Runs units of one backend one after another on one connection, reading all results of each
     * ({@link UnitResult.Results}, one per unit): for statements that share the connection's state,
     * as a CALL whose OUT parameters go through user variables set before it and read after it.
     */
    public List<UnitResult> executeSequence(List<ExecutionUnit> units, Diagnostics diagnostics) {
        for (ExecutionUnit u : units) {
            if (!u.backend().equals(units.get(0).backend())) {
                throw new ShardwiseException(ErrorCode.BUG, "a sequence over several backends");
            }
        }
        return execute(units, diagnostics, true, null);
    }

    /**
     * As {@link #executeSequence}, except that the last unit's rows stream (a cursor that keeps the
     * connection, as {@link #execute} returns) and {@code cleanUp} runs on that same connection once
     * the sequence is over: when the cursor ends however it ends (read to its end, closed early,
     * failed, cancelled, the session closed), or at once when an earlier unit fails. Only then does
     * the connection go back to its pool (outside a transaction). For state that lives on one
     * connection and must not outlive the statement: the federated tier's temporary copies. A
     * cleanup statement that fails (other than by a lost connection) discards the connection, so
     * nothing it should have removed reaches the next borrower.
     */
    public List<UnitResult> executeSequenceStreaming(List<ExecutionUnit> units, List<String> cleanUp, Diagnostics diagnostics) {
        for (ExecutionUnit u : units) {
            if (!u.backend().equals(units.get(0).backend())) {
                throw new ShardwiseException(ErrorCode.BUG, "a sequence over several backends");
            }
        }
        return execute(units, diagnostics, true, List.copyOf(cleanUp));
    }

    /** Runs {@code cleanUp} on {@code lease} (see {@link #executeSequenceStreaming}); never throws. */
    private static void cleanUp(Lease lease, List<String> cleanUp) {
        if (lease.isBroken()) {
            return; // the connection is evicted: whatever lived on it goes with it
        }
        try (java.sql.Statement s = lease.connection().createStatement()) {
            for (String sql : cleanUp) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            lease.noteFailure(e);
            lease.discard();
        }
    }

    /** A unit end that then runs {@code cleanUp} on the unit's connection ({@code release}: and gives it back). */
    private static UnitRunner.UnitEnd thenCleanUp(UnitRunner.UnitEnd end, List<String> cleanUp, boolean release) {
        return (lease, failure) -> {
            end.ended(lease, failure);
            cleanUp(lease, cleanUp);
            if (release) {
                lease.release();
            }
        };
    }

    private List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, boolean allResults) {
        return execute(units, diagnostics, allResults, null);
    }

    /**
     * {@code allResults}: every unit's results read whole ({@link UnitRunner#runAll}); several units
     * then are one sequence on one connection ({@link #executeSequence}). {@code cleanUp} (or null): such
     * a sequence whose last unit streams ({@link #executeSequenceStreaming}).
     */
    private List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, boolean allResults, List<String> cleanUp) {
        ensureOpen();
        if (units.isEmpty()) {
            return List.of();
        }
        if (typedTemporals) {
            units = TemporalText.typed(units);
        }
        // a federated sequence's clean-up is the JDBC executor's; a read opens the transaction natively as a write does
        // (its rows stream on the native connections: mysqldump --single-transaction's first SELECT of a big table), but
        // not one a cursor fetches in batches between other commands (native, it would be read whole, bounded: nativeNow)
        NativeTransaction on = cleanUp != null ? nativeTx : nativeNow();
        if (on != null && locks == null) {
            return executeNative(on, units, diagnostics, allResults); // a LOAD DATA LOCAL batch too: the native connections send its rows
        }
        List<UnitResult> read = allResults ? null : nativeRead(units, diagnostics);
        if (read != null) {
            return read;
        }
        Transaction tx = null;
        if (locks != null && transaction == null) {
            tx = locks; // with autocommit off too: the locked connections stay in autocommit mode (documented)
            closeTransactionCursors();
        } else if (transaction != null || !autocommit) {
            tx = openTransaction();
            closeTransactionCursors();
        }
        StatementRun run = new StatementRun(runs, timeoutNow());
        UnitResult[] results = new UnitResult[units.size()];
        try {
            admit(run, tx, allResults ? units.subList(0, 1) : units); // a sequence holds one connection and waits for none
            // an autocommit statement is a transaction of its own: it consumes a next-transaction level
            SessionState.Isolation isolation = tx == null ? state.takeNextIsolation() : null;
            runAll(tx != null ? backendTasks(run, tx, units, results, diagnostics, allResults, cleanUp)
                    : allResults ? List.of(sequenceTask(run, units, results, diagnostics, isolation, cleanUp))
                    : unitTasks(run, units, results, diagnostics, isolation), run);
        } finally {
            run.launched();
        }
        ShardwiseException failure = run.failure();
        if (failure == null) {
            return Collections.unmodifiableList(Arrays.asList(results));
        }
        for (UnitResult r : results) {
            if (r instanceof UnitResult.Rows rows) {
                rows.cursor().close();
            }
        }
        if (tx != null && tx == transaction && !tx.isDoomed() && isDeadlock(failure)) {
            transaction = null;
            try {
                tx.rollback();
            } catch (ShardwiseException e) {
                failure.addSuppressed(e);
            }
        }
        throw run.explain(failure);
    }

    /**
     * An autocommit read of several units on the face's native executor ({@link NativeReads}), or null
     * when it does not take them: writes (and anything but a plain SELECT) stay on JDBC, as does a
     * session whose settings a fresh connection cannot carry ({@link #relaySetup}).
     */
    private List<UnitResult> nativeRead(List<ExecutionUnit> units, Diagnostics diagnostics) {
        NativeReads reads = nativeReads;
        String setup = reads != null && takesNativeRead(units) ? relaySetup() : null;
        return setup == null ? null : reads.execute(inlinedUnits.of(units, state.lexicalMode()), diagnostics, setup, logicalSchema);
    }

    /**
     * {@code units} with their {@code ?} values written into their text, as this session sends them on the face's
     * native connections (its reads, its native transaction): a face that sends a prepared execution's units ahead
     * of the session's thread sends these, so that thread takes their responses as its own.
     */
    public List<ExecutionUnit> inlined(List<ExecutionUnit> units) {
        return inlinedUnits.of(typedTemporals ? TemporalText.typed(units) : units, state.lexicalMode());
    }

    /**
     * From now on the java.time values among the session's parameters are MySQL's binary temporal types (the
     * server face's COM_STMT_EXECUTE), written into SQL as CASTs to their type ({@link TemporalText}) so the backend
     * types them as it types the bound parameter; otherwise (the JDBC face) as quoted strings, as Connector/J does.
     * Routing has read the values by then: the sharding algorithms see the java.time values.
     */
    public void typeTemporalParameters() {
        typedTemporals = true;
    }

    /**
     * Whether {@code units}, executed now in autocommit, would be offered to the face's native reads: several
     * plain SELECTs, no cursor fetching them in batches, the session's settings such that a fresh connection
     * carries them ({@link #relaySetup}). A face may then send them ahead of the session's thread (the server's
     * event loop, as the statement arrives) and hand what they answered to its {@link NativeReads}.
     */
    public boolean takesNativeRead(List<ExecutionUnit> units) {
        if (nativeReads == null || streaming || units.size() < 2 || relaySetup() == null) {
            return false;
        }
        for (ExecutionUnit u : units) {
            if (!isSelect(u.sql())) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSelect(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.regionMatches(true, i, "SELECT", 0, 6) && (sql.length() == i + 6 || !Character.isLetterOrDigit(sql.charAt(i + 6)));
    }

    /**
     * Runs {@code statement} with its units streaming on JDBC connections, never read whole by the native
     * reads: a cursor's rows are fetched in batches while it stays open, however large the result.
     */
    public <T> T streaming(java.util.function.Supplier<T> statement) {
        boolean was = streaming;
        streaming = true;
        try {
            return statement.get();
        } finally {
            streaming = was;
        }
    }

    /** From now on autocommit reads of several units may run on {@code reads} (null: never). */
    public void useNativeReads(NativeReads reads) {
        nativeReads = reads;
    }

    /** A statement of a native transaction; a deadlock (1213) ends the transaction, as on the JDBC path. */
    private List<UnitResult> executeNative(NativeTransaction on, List<ExecutionUnit> units, Diagnostics diagnostics, boolean allResults) {
        try {
            return on.execute(inlinedUnits.of(units, state.lexicalMode()), diagnostics, transactionSetup(), allResults, streaming);
        } catch (ShardwiseException failure) {
            if (isDeadlock(failure)) {
                endNative().rollback();
            }
            throw failure;
        }
    }

    /**
     * Takes admission slots ({@link Admission}) before the statement's first connection, when it may
     * wait for a connection while holding another: a transaction's first statement that reaches a
     * backend (one slot, held until the transaction ends); an autocommit statement of several units,
     * whose cursors keep their connections while siblings borrow theirs (slots for its busiest
     * backend, held until its last cursor closes). A single autocommit unit holds one connection and
     * waits for none: it needs no slot, so the common point query pays nothing.
     */
    private void admit(StatementRun run, Transaction tx, List<ExecutionUnit> units) {
        Admission admission = pools.admission();
        if (tx != null) {
            if (tx.needsAdmission()) {
                run.admit(admission, 1, false);
                tx.admitted();
            }
        } else if (units.size() > 1) {
            run.admit(admission, admission.slotsFor(busiestBackend(units)), true);
        }
    }

    /** The most units any one backend runs. */
    private static int busiestBackend(List<ExecutionUnit> units) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        int most = 0;
        for (ExecutionUnit u : units) {
            most = Math.max(most, counts.merge(u.backend(), 1, Integer::sum));
        }
        return most;
    }

    /**
     * The columns the backend announces when it prepares {@code unit}'s SQL (COM_STMT_PREPARE: the
     * statement is never run), with logical names as {@link #execute} reports them; empty when it
     * announces none: no rows, or only running can tell (CALL), or the backend cannot prepare the
     * statement (1295). Uses the transaction's connection when the transaction holds an idle one of
     * that backend (a second one would exceed what its admission counts on, see {@link Admission}),
     * otherwise a pooled connection of its own in this session's state, so describing never joins a
     * backend to a transaction nor disturbs rows a client still reads.
     */
    public List<Column> describe(ExecutionUnit unit) {
        return describe(unit, List.of(), List.of());
    }

    /**
     * {@link #describe(ExecutionUnit)} after {@code setup} ran on the same connection (statements that
     * neither commit nor change data a transaction sees: a federated copy's empty temporary table), and
     * {@code teardown} after, whatever happened (a temporary table a failed teardown leaves is dropped by
     * the next statement that makes it: each drops a stale copy first).
     */
    public List<Column> describe(ExecutionUnit unit, List<String> setup, List<String> teardown) {
        ensureOpen();
        Lease held = transaction == null ? null : transaction.existing(unit.backend());
        if (held != null && !streaming(held)) {
            return describe(unit, held, setup, teardown);
        }
        Lease lease = pools.borrow(unit.backend(), clientFoundRows);
        try {
            return describe(unit, lease, setup, teardown);
        } finally {
            lease.release();
        }
    }

    private List<Column> describe(ExecutionUnit unit, Lease lease, List<String> setup, List<String> teardown) {
        SQLException failure = null;
        try {
            // a transaction's connection already runs at its level; a describe alone starts no transaction
            StateApplier.apply(lease, state, lease.isPinned() ? lease.isolation : state.isolation(), lease.isPinned(), options);
            if (setup.isEmpty()) {
                return prepared(unit, lease);
            }
            try {
                run(lease, setup);
                return prepared(unit, lease);
            } finally {
                try {
                    run(lease, teardown);
                } catch (SQLException e) {
                    failure = e; // a lost connection is not reused (noteFailure below)
                }
            }
        } catch (SQLException e) {
            if (ErrorCode.UNSUPPORTED_PREPARED_STATEMENT.is(e.getErrorCode())) {
                return List.of();
            }
            failure = failure == null ? e : failure;
            throw Errors.of(pools, unit.backend(), e);
        } finally {
            lease.noteFailure(failure);
        }
    }

    private List<Column> prepared(ExecutionUnit unit, Lease lease) throws SQLException {
        try (PreparedStatement ps = lease.physical().serverPrepareStatement(unit.sql())) {
            ResultSetMetaData md = ps.getMetaData();
            return md == null ? List.of() : Columns.of(md, unit.logicalTables(), logicalSchema);
        }
    }

    private static void run(Lease lease, List<String> statements) throws SQLException {
        try (java.sql.Statement s = lease.physical().createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        }
    }

    /**
     * Outside a transaction: a task per unit, each on its own pooled connection.
     *
     * @param isolation the statement's level: an autocommit statement is a transaction of its own, so it consumes a next-transaction one
     */
    private List<Runnable> unitTasks(StatementRun run, List<ExecutionUnit> units, UnitResult[] results, Diagnostics diagnostics,
                                     SessionState.Isolation isolation) {
        UnitRunner.UnitEnd end = (lease, failure) -> {
            run.exit(lease);
            lease.noteFailure(failure);
            lease.release();
        };
        List<Runnable> tasks = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            int index = i;
            ExecutionUnit unit = units.get(i);
            tasks.add(() -> {
                Lease lease = null;
                try {
                    run.checkNotCancelled();
                    lease = pools.borrow(unit.backend(), clientFoundRows);
                    StateApplier.apply(lease, state, isolation, false, options);
                } catch (SQLException | RuntimeException e) {
                    if (lease != null) {
                        lease.noteFailure(e instanceof SQLException s ? s : null);
                        lease.release();
                    }
                    run.fail(Errors.of(pools, unit.backend(), e));
                    return;
                }
                try {
                    results[index] = UnitRunner.run(run, lease, unit, logicalSchema, true, end, openCursors,
                            new BackendWarnings.Slot(diagnostics, index, pools.messages(), unit.backend()));
                } catch (RuntimeException e) {
                    run.fail(Errors.of(pools, unit.backend(), e));
                }
            });
        }
        return tasks;
    }

    /** Outside a transaction, for {@link #executeSequence}: the units in order on one pooled connection. */
    private Runnable sequenceTask(StatementRun run, List<ExecutionUnit> units, UnitResult[] results, Diagnostics diagnostics,
                                  SessionState.Isolation isolation, List<String> cleanUp) {
        UnitRunner.UnitEnd end = (lease, failure) -> {
            run.exit(lease);
            lease.noteFailure(failure);
        };
        String backend = units.get(0).backend();
        return () -> {
            Lease lease = null;
            boolean handedOver = false; // the streaming last unit's end cleans up and releases
            try {
                run.checkNotCancelled();
                lease = pools.borrow(backend, clientFoundRows);
                StateApplier.apply(lease, state, isolation, false, options);
                for (int i = 0; i < units.size(); i++) {
                    BackendWarnings.Slot slot = new BackendWarnings.Slot(diagnostics, i, pools.messages(), backend);
                    if (cleanUp != null && i == units.size() - 1) {
                        handedOver = true;
                        results[i] = UnitRunner.run(run, lease, units.get(i), logicalSchema, true, thenCleanUp(end, cleanUp, true),
                                openCursors, slot);
                    } else {
                        results[i] = UnitRunner.runAll(run, lease, units.get(i), logicalSchema, end, slot);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (lease != null && e instanceof SQLException s) {
                    lease.noteFailure(s);
                }
                run.fail(Errors.of(pools, backend, e));
            } finally {
                if (lease != null && !handedOver) {
                    if (cleanUp != null) {
                        cleanUp(lease, cleanUp);
                    }
                    lease.release();
                }
            }
        };
    }

    /** Inside a transaction: a task per backend, running that backend's units in order on its connection. */
    private List<Runnable> backendTasks(StatementRun run, Transaction tx, List<ExecutionUnit> units, UnitResult[] results,
                                        Diagnostics diagnostics, boolean allResults, List<String> cleanUp) {
        Map<String, List<Integer>> byBackend = new LinkedHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            byBackend.computeIfAbsent(units.get(i).backend(), b -> new ArrayList<>()).add(i);
        }
        UnitRunner.UnitEnd end = (lease, failure) -> {
            run.exit(lease);
            lease.noteFailure(failure);
        };
        List<Runnable> tasks = new ArrayList<>(byBackend.size());
        byBackend.forEach((backend, indexes) -> tasks.add(() -> {
            Lease lease;
            try {
                run.checkNotCancelled();
                lease = tx.connection(backend);
                StateApplier.apply(lease, state, tx.isolation(), true, options);
                tx.markBefore(backend, lease);
            } catch (SQLException | RuntimeException e) {
                run.fail(Errors.of(pools, backend, e));
                return;
            }
            for (int k = 0; k < indexes.size(); k++) {
                int index = indexes.get(k);
                try {
                    boolean last = k == indexes.size() - 1;
                    ExecutionUnit unit = units.get(index);
                    BackendWarnings.Slot slot = new BackendWarnings.Slot(diagnostics, index, pools.messages(), unit.backend());
                    results[index] = cleanUp != null && last
                            ? UnitRunner.run(run, lease, unit, logicalSchema, true, thenCleanUp(end, cleanUp, false), openCursors, slot)
                            : allResults ? UnitRunner.runAll(run, lease, unit, logicalSchema, end, slot)
                            : UnitRunner.run(run, lease, unit, logicalSchema, last, end, openCursors, slot);
                } catch (RuntimeException e) {
                    run.fail(Errors.of(pools, backend, e));
                    if (cleanUp != null && k < indexes.size() - 1) {
                        cleanUp(lease, cleanUp); // the last unit's end has cleaned up already
                    }
                    return;
                }
            }
        }));
        return tasks;
    }

    /**
     * Runs the tasks in parallel and waits for all: every task but the last on a virtual thread of
     * its own, the last on the caller's thread, which would otherwise only wait (one thread start and
     * one wake-up fewer per statement; a single task never leaves the caller's thread).
     */
    private static void runAll(List<Runnable> tasks, StatementRun run) {
        int forked = tasks.size() - 1;
        List<Thread> threads = new ArrayList<>(forked);
        for (int i = 0; i < forked; i++) {
            threads.add(Thread.ofVirtual().name("shardwise-unit").start(tasks.get(i)));
        }
        tasks.get(forked).run();
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                run.fail(Errors.interrupted());
                StatementRun.joinUninterruptibly(t);
                Thread.currentThread().interrupt();
            }
        }
    }

    private static boolean isDeadlock(ShardwiseException failure) {
        if (failure instanceof BackendException b && ErrorCode.LOCK_DEADLOCK.is(b.errno())) {
            return true;
        }
        for (Throwable s : failure.getSuppressed()) {
            if (s instanceof BackendException b && ErrorCode.LOCK_DEADLOCK.is(b.errno())) {
                return true;
            }
        }
        return false;
    }

    /**
     * LOCK TABLES: releases the locks the session holds, commits an open transaction (both as MySQL
     * does), then runs {@code units} (one LOCK TABLES per backend, in order) on connections the
     * session keeps until {@link #unlockTables}, START TRANSACTION or its end; statements outside a
     * transaction run on them meanwhile. If a backend refuses, every lock already taken is released.
     */
    public void lockTables(List<ExecutionUnit> units) {
        ensureOpen();
        unlockTables();
        commit();
        locks = new Transaction(pools, state, options, clientFoundRows, true);
        try {
            for (UnitResult r : execute(units)) {
                if (r instanceof UnitResult.Rows rows) {
                    rows.cursor().close();
                }
            }
        } catch (RuntimeException e) {
            unlockTables();
            throw e;
        }
    }

    /** UNLOCK TABLES: the locks released, their connections back to the pools; a no-op without locks. */
    public void unlockTables() {
        Transaction held = locks;
        if (held == null) {
            return;
        }
        closeTransactionCursors();
        locks = null;
        held.unlock();
    }

    /** Whether the session holds LOCK TABLES. */
    public boolean holdsTableLocks() {
        return locks != null;
    }

    /** START TRANSACTION; like MySQL, it first commits a transaction already open and releases table locks. */
    public void begin() {
        ensureOpen();
        unlockTables();
        commit();
        transaction = new Transaction(pools, state, options, clientFoundRows);
    }

    /**
     * BEGIN as a face's event loop runs it ({@code RelaySession#transactionCommand}): only when nothing
     * is open to commit or unlock first and the transaction may still run natively (no xa, no statement
     * timeout); it reaches no backend. False, nothing changed, when {@link #begin} must run.
     */
    public boolean beginWithoutBackend() {
        if (closed || transaction != null || locks != null || !statementTimeout.isZero() || pools.xa() != null) {
            return false;
        }
        transaction = new Transaction(pools, state, options, clientFoundRows);
        return true;
    }

    /**
     * COMMIT or ROLLBACK as a face's event loop runs it: with no transaction open, or one no backend
     * joined yet (nothing to end anywhere: {@link Transaction#untouched}), it ends here and answers true;
     * false, nothing changed, when a JDBC transaction holds connections or a native one is open (the
     * face ends that one on its connections, or {@link #commit} / {@link #rollback} run).
     */
    public boolean endWithoutBackend() {
        Transaction tx = transaction;
        if (closed || tx != null && (nativeTx != null || !tx.untouched())) {
            return false;
        }
        transaction = null;
        return true;
    }

    /** COMMIT on every touched backend, in touch order; a no-op outside a transaction. See {@link Transaction}. */
    public void commit() {
        ensureOpen();
        Transaction tx = transaction;
        if (tx == null) {
            return;
        }
        NativeTransaction on = nativeTx;
        if (on != null) {
            try {
                on.commit();
            } finally {
                if (!on.open()) {
                    nativeEnded(); // a doomed transaction stays until ROLLBACK, as on the JDBC path
                }
            }
            return;
        }
        closeTransactionCursors();
        if (tx.isDoomed()) {
            throw tx.doomed();
        }
        transaction = null;
        tx.commit();
    }

    /** ROLLBACK on every touched backend; ends a doomed transaction too. A no-op outside a transaction. */
    public void rollback() {
        ensureOpen();
        Transaction tx = transaction;
        if (tx == null) {
            return;
        }
        if (nativeTx != null) {
            endNative().rollback();
            return;
        }
        closeTransactionCursors();
        transaction = null;
        tx.rollback();
    }

    /**
     * The next statement runs several units or steps inside a transaction: each backend it reaches
     * first sets a savepoint, so that {@link #statementEnded} can undo what it did when it fails, as
     * MySQL's failing statement changes nothing. False (nothing marked, nothing to end) outside a
     * transaction: the caller runs such a statement in a transaction of its own; and on LOCK TABLES
     * connections, which stay in autocommit mode.
     */
    public boolean markStatement() {
        ensureOpen();
        if (transaction == null && (autocommit || locks != null)) {
            return false;
        }
        NativeTransaction on = nativeNow();
        if (on != null) {
            on.markStatement();
        } else {
            openTransaction().markStatement();
        }
        return true;
    }

    /**
     * Ends the statement {@link #markStatement} marked; {@code failure} (or null) is how it ended:
     * then it rolls back to the statement's savepoint wherever it set one, unless the failure ended
     * the transaction (deadlock) or doomed it. A failure to roll back is added to {@code failure}.
     */
    public void statementEnded(RuntimeException failure) {
        Transaction tx = transaction;
        if (tx == null) {
            return; // ended by the failure (deadlock), or by the statement itself
        }
        try {
            NativeTransaction on = nativeTx;
            if (on != null) {
                on.statementEnded(failure != null);
            } else {
                if (failure != null) {
                    closeTransactionCursors(); // their connections take the ROLLBACK TO next
                }
                tx.statementEnded(failure != null);
            }
        } catch (RuntimeException e) {
            if (failure == null) {
                throw e;
            }
            failure.addSuppressed(e);
        }
    }

    /**
     * No backend holds the session's transaction (none is open, or no backend joined it), none runs natively and
     * no table locks are held: a savepoint statement is the session's record alone (a face's event loop may run it).
     */
    public boolean holdsNoBackend() {
        Transaction tx = transaction;
        return !closed && nativeTx == null && locks == null && (tx == null || tx.untouched());
    }

    /** SAVEPOINT; with autocommit on and no transaction open it does nothing, as in MySQL. */
    public void savepoint(String name) {
        Transaction.quote(name);
        ensureOpen();
        if (transaction == null && autocommit) {
            return;
        }
        if (nativeTx != null) {
            nativeTx.savepoint(name);
            return;
        }
        liveTransaction().savepoint(name);
    }

    public void rollbackToSavepoint(String name) {
        ensureOpen();
        if (transaction == null) {
            throw new ShardwiseException(ErrorCode.SAVEPOINT_DOES_NOT_EXIST, name);
        }
        if (nativeTx != null) {
            nativeTx.rollbackToSavepoint(name);
            return;
        }
        liveTransaction().rollbackToSavepoint(name);
    }

    public void releaseSavepoint(String name) {
        ensureOpen();
        if (transaction == null) {
            throw new ShardwiseException(ErrorCode.SAVEPOINT_DOES_NOT_EXIST, name);
        }
        if (nativeTx != null) {
            nativeTx.releaseSavepoint(name);
            return;
        }
        liveTransaction().releaseSavepoint(name);
    }

    /** SET autocommit; switching it on commits an open transaction, as in MySQL. */
    public void setAutocommit(boolean on) {
        ensureOpen();
        if (on && !autocommit) {
            autocommit = true;
            commit();
        }
        autocommit = on;
    }

    /**
     * SET autocommit = 1 with a native transaction open, as a face's event loop runs it: the mode
     * switches now and the face commits that transaction on its connections ({@link #setAutocommit}'s
     * commit, done there).
     */
    public void autocommitBeforeCommit() {
        autocommit = true;
    }

    public boolean autocommit() {
        return autocommit;
    }

    public boolean inTransaction() {
        return transaction != null;
    }

    /**
     * The isolation level the open transaction began at (a one-shot SET TRANSACTION's, else the session's then),
     * null outside one or at the backends' default: COMMIT AND CHAIN gives it to the next transaction.
     */
    public SessionState.Isolation transactionLevel() {
        Transaction tx = transaction;
        return tx == null ? null : tx.begunAt();
    }

    /**
     * What a fresh connection needs to run a statement now exactly as a pooled one would (a SET of
     * the session's forwarded settings, "" for none), or null when it cannot: in a transaction or
     * with autocommit off, with a statement timeout to enforce, or with settings applied through JDBC
     * (isolation, read-only). A face may then run a read elsewhere (the server's packet relay).
     */
    public String relaySetup() {
        if (!autocommit || transaction != null || locks != null || closed || !statementTimeout.isZero()) {
            return null;
        }
        return state.setup();
    }

    /**
     * The settings a native connection needs to run this session's transaction as a JDBC one would
     * ({@link #nativeBegin} starts it), or null when the transaction cannot run natively: the JDBC
     * transaction already touched a backend, transaction mode xa (its two-phase commit is the JDBC
     * executor's), table locks, a statement timeout to enforce, or no transaction at all. Savepoints set
     * before any backend joined go with it ({@link #savepointsBeforeJoin}): each backend joining sets them.
     */
    public String nativeSetup() {
        if (closed || locks != null || !statementTimeout.isZero() || pools.xa() != null
                || (transaction == null ? autocommit
                        : nativeTx == null && !transaction.untouched())) {
            return null;
        }
        return transactionSetup();
    }

    /** One SET that gives a connection the session's settings as a transaction's connections carry them. */
    private String transactionSetup() {
        return state.transactionSetup(options.lockWaitSeconds());
    }

    /**
     * What a native connection runs, in order, when it joins this session's transaction: the
     * transaction's isolation level (for that transaction only) and START TRANSACTION, READ ONLY
     * when the transaction is. Opens the transaction (autocommit off) if none is open yet.
     */
    public List<String> nativeBegin(boolean readOnly) {
        if (transaction == null) {
            transaction = new Transaction(pools, state, options, clientFoundRows);
        }
        SessionState.Isolation level = transaction.isolation();
        String start = readOnly ? "START TRANSACTION READ ONLY" : "START TRANSACTION";
        return level == null ? List.of(start)
                : List.of("SET TRANSACTION ISOLATION LEVEL " + level.name().replace('_', ' '), start);
    }

    /**
     * The savepoints the open transaction holds while no backend joined it, oldest first (empty when none, or
     * when it runs natively already): a native transaction attached now takes them over (its joining backends set
     * them), since {@link #savepoint} and the others go to it from then on.
     */
    public List<String> savepointsBeforeJoin() {
        Transaction tx = transaction;
        return tx == null || nativeTx != null ? List.of() : tx.savepoints();
    }

    /** From now on the open transaction runs on {@code on} (see {@link NativeTransaction}); call while no statement runs. */
    public void attachNative(NativeTransaction on) {
        if (transaction == null || !transaction.untouched() || nativeTx != null) {
            throw new ShardwiseException(ErrorCode.BUG, "a native transaction attached to a transaction that is not new");
        }
        nativeTx = on;
    }

    /** A face opens the session's transactions natively from this thread too ({@link #nativeNow}); {@code opener} as its field. */
    public void nativeOpener(java.util.function.Function<String, NativeTransaction> opener) {
        this.opener = opener;
    }

    /**
     * The transaction's native connections, opened now if a face offers them and the transaction may
     * run natively but has not reached a backend yet (its first statement missed the loop's plan cache):
     * so one cold statement does not keep the whole transaction on the JDBC executor. Null: the JDBC
     * executor runs it (whatever {@link #nativeSetup} refuses, or no connections at once).
     */
    private NativeTransaction nativeNow() {
        NativeTransaction on = nativeTx;
        var open = opener;
        if (on != null || open == null || locks != null || transaction == null && autocommit) {
            return on;
        }
        if (streaming) {
            return null; // a cursor's rows stream on a JDBC connection; the native connections would read them whole
        }
        String setup = nativeSetup();
        if (setup == null) {
            return null;
        }
        on = open.apply(setup);
        if (on != null) {
            attachNative(on);
        }
        return on;
    }

    /** The attached native transaction, or null. */
    public NativeTransaction nativeTransaction() {
        return nativeTx;
    }

    /**
     * The native transaction ended on its own connections (a deadlock the backend rolled back, or
     * the face rolled it back): the session is out of the transaction, no I/O here.
     */
    public void nativeEnded() {
        nativeTx = null;
        transaction = null;
    }

    private NativeTransaction endNative() {
        NativeTransaction on = nativeTx;
        nativeEnded();
        return on;
    }

    /** The backends' error messages in logical names (see {@link BackendMessages}). */
    public BackendMessages messages() {
        return pools.messages();
    }

    /**
     * Until the returned scope closes, the session's executions are steps of one statement: the statement
     * timeout bounds their sum, not each (the federated tier's catalog read, scans and coordinator
     * sequence; the last step's rows stream within what is left). A scope opened inside another is the
     * outer one's; with no statement timeout it does nothing.
     */
    public StatementScope oneDeadline() {
        if (underDeadline || statementTimeout.isZero()) {
            return () -> { };
        }
        deadline = System.nanoTime() + statementTimeout.toNanos();
        underDeadline = true;
        return () -> underDeadline = false;
    }

    /** {@link #oneDeadline}'s scope; closing it throws nothing. */
    public interface StatementScope extends AutoCloseable {
        @Override
        void close();
    }

    /** The limit of the execution starting now: the statement timeout, or what a multi-step statement has left of it (3024 when none). */
    private Duration timeoutNow() {
        if (!underDeadline) {
            return statementTimeout;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new ShardwiseException(ErrorCode.QUERY_TIMEOUT);
        }
        return Duration.ofNanos(left);
    }

    /** Per-statement limit for this session ({@link Duration#ZERO}: none); see {@link ExecutorOptions#statementTimeout}. */
    public void setStatementTimeout(Duration timeout) {
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("statement timeout must not be negative: " + timeout);
        }
        statementTimeout = timeout;
    }

    /**
     * KILL QUERY on everything the session is running, from any thread: statements under way fail
     * with the backend's 1317, cursors still streaming fail on their next row. A transaction stays open.
     */
    public void cancel() {
        cancels.incrementAndGet();
        for (StatementRun run : runs) {
            run.cancel();
        }
        NativeTransaction on = nativeTx;
        if (on != null) {
            on.cancel();
        }
        NativeReads reads = nativeReads;
        if (reads != null) {
            reads.cancel();
        }
    }

    /**
     * How many times {@link #cancel} was called: a statement made of several executions (the
     * federated tier's) compares it between them, so a cancel that falls between two still ends it.
     */
    public long cancels() {
        return cancels.get();
    }

    /** Cancels what runs, closes open cursors and rolls back an open transaction. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        cancel();
        for (StreamingCursor c : List.copyOf(openCursors)) {
            c.close();
        }
        Transaction tx = transaction;
        transaction = null;
        NativeTransaction on = nativeTx;
        nativeTx = null;
        if (on != null) {
            try {
                on.rollback();
            } catch (RuntimeException ignored) {
                // closing: the backends roll back what a closed connection held
            }
        } else if (tx != null) {
            try {
                tx.rollback();
            } catch (ShardwiseException ignored) {
                // closing: the connections are released either way
            }
        }
        Transaction held = locks;
        locks = null;
        if (held != null) {
            held.unlock();
        }
    }

    private Transaction openTransaction() {
        if (transaction == null) {
            transaction = new Transaction(pools, state, options, clientFoundRows);
        }
        if (transaction.isDoomed()) {
            throw transaction.doomed();
        }
        return transaction;
    }

    private Transaction liveTransaction() {
        Transaction tx = openTransaction();
        closeTransactionCursors();
        return tx;
    }

    /** A cursor still reads rows on {@code lease}: the connection can run nothing else until it ends. */
    private boolean streaming(Lease lease) {
        for (StreamingCursor c : openCursors) {
            if (c.lease() == lease) {
                return true;
            }
        }
        return false;
    }

    private void closeTransactionCursors() {
        for (StreamingCursor c : openCursors) {
            if (c.lease().isPinned()) {
                c.close();
            }
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new ShardwiseException(ErrorCode.BUG, "statement on a closed execution session");
        }
    }
}
