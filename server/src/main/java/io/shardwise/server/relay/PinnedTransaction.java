package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;
import io.shardwise.core.RelaySession;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.LocalData;
import io.shardwise.core.execute.NativeTransaction;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.ErrPacket;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;

/**
 * One client session's transaction on native relay connections: one connection per backend the
 * transaction touched, taken from the relay pool at first touch (the session's settings, then its
 * isolation level and START TRANSACTION, then the savepoints set before it joined) and kept until
 * COMMIT or ROLLBACK, when it goes back to the pool, or closes if what it carries is no longer what
 * its pool's connections carry. Single-unit statements relay on these connections
 * ({@link RelayExecutor}); everything else the session runs in the transaction comes here through
 * {@link NativeTransaction}, from the session's thread, and runs on the event loop.
 *
 * <p>Confinement: every field is touched on the client's event loop only; the blocking methods
 * post their work to the loop and wait for it (never call them on the loop). Doomed: a connection
 * that closes inside the transaction took its backend's work with it; every further statement and
 * COMMIT fails until ROLLBACK, as on the JDBC path.
 */
public final class PinnedTransaction implements NativeTransaction, LoopMerges.SentAhead {
    private final Relays relays;
    /** The connections reserved at admission and not joined yet; given back when the transaction ends. */
    private final Relays.Reservation reservation;
    private final EventLoop loop;
    private final boolean foundRows;
    /** What the pool's connections carry (the pool's key). */
    private final String setup;
    private final List<String> begin;
    private final RelaySession session;
    private final String logicalSchema;
    private final Map<String, BackendConnection> joined = new LinkedHashMap<>();
    /** What each joined connection carries now: the session may SET inside the transaction. */
    private final Map<String, String> carries = new HashMap<>();
    private final List<String> savepoints = new ArrayList<>();
    private final Set<String> lost = new LinkedHashSet<>();
    /** While a statement is marked ({@link #markStatement}): the backends that set its savepoint; else null. */
    private Set<String> marked;
    /** The settings the transaction's statements run with now. */
    private String applied;
    /**
     * Responses streaming to the session's thread ({@link StreamedResponse}) whose cursors are not closed: added on the
     * loop as they start, removed by the session's thread as it closes or settles them.
     */
    private final java.util.concurrent.CopyOnWriteArrayList<StreamedResponse> streams = new java.util.concurrent.CopyOnWriteArrayList<>();
    /**
     * Connections closed, not pooled, when the transaction ends (on the loop): a stream abandoned mid-result (its end was
     * read and dropped) or a KILL QUERY sent to it, which could otherwise reach the next statement its pool's next user runs.
     */
    private final Set<BackendConnection> discardAtEnd = new HashSet<>();
    private volatile boolean open = true;

    PinnedTransaction(Relays relays, Relays.Reservation reservation, EventLoop loop, boolean foundRows, String setup, List<String> begin,
                      RelaySession session, String logicalSchema) {
        this.relays = relays;
        this.reservation = reservation;
        this.loop = loop;
        this.foundRows = foundRows;
        this.setup = setup;
        this.applied = setup;
        this.begin = List.copyOf(begin);
        this.session = session;
        this.logicalSchema = logicalSchema;
        // set before any backend joined (BEGIN; SAVEPOINT a; ...): each joining backend sets them after START TRANSACTION
        this.savepoints.addAll(session.savepoints());
    }

    /** The transaction's connections carry {@code settings} now (else the session thread runs the statement, applying them first). */
    boolean carries(String settings) {
        return applied.equals(settings);
    }

    boolean joinedNothing() {
        return joined.isEmpty() && lost.isEmpty();
    }

    /** The transaction's connection of {@code backend}, joining it at first touch. On the loop. */
    Future<BackendConnection> join(String backend) {
        return join(backend, false);
    }

    /**
     * As {@link #join(String)}; {@code pipelined}: a joining connection's opening steps go out with the
     * statement that follows, in one write ({@link BackendConnection#pipeline}), instead of one round trip
     * each before it. Only for a read: should a step fail anyway, the statement has run outside the
     * transaction, which for a read changes nothing (the connection closes and the transaction is doomed).
     */
    Future<BackendConnection> join(String backend, boolean pipelined) {
        if (!lost.isEmpty()) {
            return loop.newFailedFuture(doomed()); // on the backends still joined too, as the JDBC executor's doomed transaction
        }
        BackendConnection c = joined.get(backend);
        if (c != null) {
            return loop.newSucceededFuture(c);
        }
        if (!open) {
            return loop.newFailedFuture(new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, backend, "the transaction has ended"));
        }
        Future<BackendConnection> lease = reservation.take(backend);
        if (lease == null) {
            return loop.newFailedFuture(new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, backend,
                    relays.closed() ? "the server is closing" : "its relay connections are refused or all in use"));
        }
        Promise<BackendConnection> ready = loop.newPromise();
        lease.addListener(f -> {
            if (!f.isSuccess()) {
                // unreachable, or its login failed: the statement fails as the JDBC executor's borrow fails (1105),
                // and the transaction goes on (nothing of it was on that backend)
                ready.tryFailure(lostError(backend, f.cause()));
                return;
            }
            BackendConnection fresh = lease.getNow();
            if (!open) { // ended (the client left, a ROLLBACK from the session's close) while the connection was coming
                relays.release(loop, fresh, foundRows, setup);
                ready.tryFailure(new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, backend, "the transaction has ended"));
                return;
            }
            List<String> steps = new ArrayList<>(begin.size() + savepoints.size() + 1);
            if (!applied.equals(setup) && !applied.isEmpty()) {
                steps.add(applied);
            }
            steps.addAll(begin);
            for (String name : savepoints) {
                steps.add("SAVEPOINT " + quote(name));
            }
            if (pipelined) {
                fresh.pipeline(steps);
                pin(backend, fresh, ready);
                return;
            }
            runSteps(fresh, steps, 0, () -> {
                if (!open) { // ended while it began: what it began is rolled back as it closes, never pinned past the end
                    fresh.channel().close();
                    ready.tryFailure(new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, backend, "the transaction has ended"));
                    return;
                }
                pin(backend, fresh, ready);
            }, failure -> {
                fresh.channel().close(); // half-joined: its state is unknown
                ready.tryFailure(failure);
            });
        });
        return ready;
    }

    /** {@code fresh} is the transaction's connection of {@code backend} from now on; its loss dooms the transaction. */
    private void pin(String backend, BackendConnection fresh, Promise<BackendConnection> ready) {
        joined.put(backend, fresh);
        carries.put(backend, applied);
        relays.pinned(1);
        fresh.channel().closeFuture().addListener(closed -> {
            if (open && joined.get(backend) == fresh) {
                joined.remove(backend);
                relays.pinned(-1);
                lost.add(backend);
            }
        });
        ready.trySuccess(fresh);
    }

    /** Runs {@code steps} in order, each expected to answer OK. */
    private void runSteps(BackendConnection c, List<String> steps, int index, Runnable then, Consumer<Throwable> failed) {
        if (index == steps.size()) {
            then.run();
            return;
        }
        ResponseReader.run(c, steps.get(index), false).addListener(f -> {
            if (!f.isSuccess()) {
                failed.accept(lostError(c.backend(), f.cause()));
            } else if (((ResponseReader.Response) f.getNow()).err() != null) {
                failed.accept(error(c.backend(), ((ResponseReader.Response) f.getNow()).err()));
            } else {
                runSteps(c, steps, index + 1, then, failed);
            }
        });
    }

    /**
     * Units a merged read of this transaction sent ahead of the session's thread ({@link #prefetch}),
     * with the settings they ran under, or null. Set on the loop before the statement is handed to
     * the session's thread, taken (set null) by that thread.
     */
    private record Prefetch(List<ExecutionUnit> units, String settings, CompletableFuture<ResponseReader.Response[]> responses,
                            long[] budget) {}

    private volatile Prefetch prefetched;

    /**
     * On the loop, as a merged read's COM_QUERY arrives ({@link io.shardwise.core.RelayPlan#merged}):
     * sends its units on the transaction's connections now, so their round trips overlap the hand-off
     * to the session's thread and its planning, which would otherwise come first (and, on a loaded
     * machine, cost more than the round trips: measured 2-3 ms per statement). The session's thread
     * takes the responses if it plans the very same units ({@link #execute}); anything else it runs
     * there first waits for them to end, so a connection never has two commands at once.
     */
    CompletableFuture<ResponseReader.Response[]> prefetch(List<ExecutionUnit> units) {
        if (prefetched != null || !open || !lost.isEmpty()) {
            return null;
        }
        CompletableFuture<ResponseReader.Response[]> responses = new CompletableFuture<>();
        long[] budget = budget(units, false);
        prefetched = new Prefetch(units, applied, responses, budget);
        run(units, applied, false, budget, null, responses);
        return responses;
    }

    /**
     * Bytes of row packets the units sent ahead as {@code responses} read ({@link #budget}), or -1 when they
     * are not this transaction's units sent ahead any more. On the loop.
     */
    @Override
    public long prefetchedBytes(CompletableFuture<ResponseReader.Response[]> responses) {
        Prefetch p = prefetched;
        return p == null || p.responses() != responses || p.budget() == null ? -1 : AutocommitReads.budget() - p.budget()[0];
    }

    /** The loop answered the units sent ahead as {@code responses} itself ({@link LoopMerges}): nothing is left to settle. On the loop. */
    @Override
    public void prefetchAnswered(CompletableFuture<ResponseReader.Response[]> responses) {
        if (prefetched != null && prefetched.responses() == responses) {
            prefetched = null;
        }
    }

    /**
     * A statement's bound on the rows it holds whole: its units (not a CALL's results) may hold
     * {@link AutocommitReads#BUDGET} bytes of row packets, as an autocommit merge — a merged read's several units,
     * and a single unit the session's thread runs here (a first execution of its shape, a statement it rewrites),
     * whose rows are read whole into memory as well; null for no bound.
     */
    private static long[] budget(List<ExecutionUnit> units, boolean allResults) {
        return allResults ? null : new long[] {AutocommitReads.budget()};
    }

    /**
     * Units sent ahead are not taken yet, or a response still streams to the session's thread: nothing else may use the
     * connections before the session's thread settles them. On the loop. (A stream ends within its command, the session's
     * thread reading it to the end or closing it; this guards the loop's paths should any outlive it.)
     */
    boolean prefetching() {
        if (prefetched != null) {
            return true;
        }
        for (StreamedResponse s : streams) {
            if (!s.wireEnded()) {
                return true;
            }
        }
        return false;
    }

    /**
     * On the session's thread: the responses still streaming end (the rest of each read and dropped) before the
     * connections run anything else, as the JDBC executor closes a transaction's open cursors before its next statement.
     */
    private void settleStreams() {
        for (StreamedResponse s : streams) {
            streamClosed(s);
        }
    }

    /** A stream's cursor closed (or was settled): an abandoned one's connection closes at the transaction's end. Session's thread. */
    private void streamClosed(StreamedResponse s) {
        if (streams.remove(s) && s.abandon()) {
            loop.execute(() -> discardAtEnd.add(s.connection())); // before anything the session's thread sends next: tasks run in order
        }
    }

    /** On the session's thread: the units sent ahead, taken; their responses are ended (read, or the connection failed) before it returns. */
    private void settlePrefetch() {
        Prefetch p = prefetched;
        if (p != null) {
            prefetched = null;
            try {
                p.responses().get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
            } catch (ExecutionException e) {
                // the failure (a lost connection) shows again on the next command that uses the connection
            }
        }
    }

    @Override
    public List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, String settings, boolean allResults,
                                    boolean readWhole) {
        settleStreams();
        Prefetch p = prefetched;
        boolean stream = !allResults && !readWhole;
        StreamedResponse[] streamed = stream ? new StreamedResponse[units.size()] : null;
        ResponseReader.Response[] answered = null;
        if (p != null && !allResults && p.settings().equals(settings) && p.units().equals(units)) {
            prefetched = null;
            relays.countPrefetched();
            try {
                answered = await(p.responses());
            } catch (ShardwiseException e) {
                if (!stream || p.budget()[0] >= 0) {
                    throw e;
                }
                // the units sent ahead outgrew what is held whole (their responses were read to their end, rows dropped):
                // the statement runs again, streaming — nothing of the first run reached the client or changed a row
            }
        } else {
            settlePrefetch();
        }
        if (answered == null) {
            long[] budget = budget(units, allResults);
            try {
                answered = await(onLoop(done -> run(units, settings, allResults, budget, streamed, done)));
            } catch (RuntimeException e) {
                settleStreams(); // a sibling's failure: what streams already ends before the error goes out
                throw e;
            }
        }
        // on the calling thread: the loop only read the wire
        List<UnitResult> results = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            ExecutionUnit unit = units.get(i);
            ResponseReader.Response r = answered[i];
            if (streamed != null && streamed[i] != null && r.columns() != null) {
                results.add(new UnitResult.Rows(streamed[i].rows(NativeResults.columns(unit, r.columns(), logicalSchema), session, unit, i,
                        diagnostics, this::streamClosed)));
                continue;
            }
            NativeResults.warnings(session, unit, i, r, diagnostics);
            UnitResult last = NativeResults.result(unit, r, logicalSchema);
            if (allResults) {
                List<UnitResult> all = new ArrayList<>(r.earlier().size() + 1);
                for (ResponseReader.Response e : r.earlier()) {
                    all.add(NativeResults.result(unit, e, logicalSchema));
                }
                all.add(last);
                last = new UnitResult.Results(all);
            }
            results.add(last);
        }
        return results;
    }

    /**
     * The units' responses, backends in parallel, one backend's units in order. On the loop. {@code streamed} (or null):
     * each backend's last unit streams ({@link StreamedResponse}, set at its index), its response there being only its head.
     */
    private void run(List<ExecutionUnit> units, String settings, boolean allResults, long[] budget, StreamedResponse[] streamed,
                     CompletableFuture<ResponseReader.Response[]> done) {
        relays.countNative();
        if (!settings.equals(applied) && !settings.isEmpty()) {
            applied = settings; // joined connections run it before their next unit
        }
        Map<String, List<Integer>> byBackend = new LinkedHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            byBackend.computeIfAbsent(units.get(i).backend(), b -> new ArrayList<>()).add(i);
        }
        ResponseReader.Response[] results = new ResponseReader.Response[units.size()];
        Throwable[] failure = new Throwable[1];
        int[] pending = {byBackend.size()};
        Runnable backendDone = () -> {
            if (--pending[0] == 0) {
                if (failure[0] == null) {
                    done.complete(results);
                } else {
                    done.completeExceptionally(failure[0]);
                }
            }
        };
        Consumer<Throwable> fail = t -> {
            if (failure[0] == null) {
                failure[0] = t;
            }
            backendDone.run();
        };
        byBackend.forEach((backend, indexes) -> join(backend).addListener(f -> {
            if (!f.isSuccess()) {
                fail.accept(lostError(backend, f.cause()));
                return;
            }
            BackendConnection c = (BackendConnection) f.getNow();
            String carried = carries.get(backend);
            boolean mark = marked != null && !marked.contains(backend);
            List<String> refresh = applied.equals(carried) ? (mark ? MARK : List.of())
                    : mark ? List.of(applied, MARK.get(0)) : List.of(applied);
            runSteps(c, refresh, 0, () -> {
                carries.put(backend, applied);
                if (mark) {
                    marked.add(backend);
                }
                runUnits(c, units, indexes, 0, allResults, budget, streamed, results, backendDone, fail);
            }, fail);
        }));
    }

    /** One backend's units in order on its connection. */
    private void runUnits(BackendConnection c, List<ExecutionUnit> units, List<Integer> indexes, int k, boolean allResults,
                          long[] budget, StreamedResponse[] streamed, ResponseReader.Response[] results, Runnable finished,
                          Consumer<Throwable> fail) {
        if (k == indexes.size()) {
            finished.run();
            return;
        }
        int index = indexes.get(k);
        ExecutionUnit unit = units.get(index);
        LocalData file = LocalData.of(unit); // a LOAD DATA LOCAL batch: its rows go when the backend asks for the file
        if (streamed != null && file == null && k == indexes.size() - 1) {
            StreamedResponse s = StreamedResponse.run(c, unit.sql(), relays);
            streams.add(s);
            streamed[index] = s;
            s.head.whenComplete((r, failure) -> {
                if (failure != null) {
                    fail.accept(lostError(c.backend(), failure));
                } else if (r.err() != null) {
                    fail.accept(error(c.backend(), r.err()));
                } else {
                    results[index] = r;
                    finished.run();
                }
            });
            return;
        }
        Promise<ResponseReader.Response> response = file != null ? ResponseReader.load(c, unit.sql(), file)
                : budget != null ? ResponseReader.runDraining(c, unit.sql(), true, budget)
                : ResponseReader.run(c, unit.sql(), true, allResults);
        response.addListener(f -> {
            if (f.cause() instanceof ResponseReader.OverBudget) {
                // read to its end, the connection is clean: the statement fails, the transaction goes on
                fail.accept(new ShardwiseException(ErrorCode.UNSUPPORTED, streamed != null
                        ? "a read inside a transaction whose units on one backend return more than " + AutocommitReads.budget()
                                + " bytes of rows before its last (they are held whole while the last streams; outside a"
                                + " transaction it streams)"
                        : "a result inside a transaction of more than " + AutocommitReads.budget() + " bytes of rows that a"
                                + " cursor fetches (it is read whole; outside a transaction, or without a cursor, it streams)"));
                return;
            }
            if (!f.isSuccess()) {
                fail.accept(lostError(c.backend(), f.cause()));
                return;
            }
            ResponseReader.Response r = (ResponseReader.Response) f.getNow();
            if (r.err() != null) {
                fail.accept(error(c.backend(), r.err()));
                return;
            }
            results[index] = r;
            runUnits(c, units, indexes, k + 1, allResults, budget, streamed, results, finished, fail);
        });
    }

    @Override
    public void commit() {
        settleStreams();
        settlePrefetch();
        await(onLoop(this::commitNow));
    }

    /** COMMIT on every connection, on the loop ({@link TransactionStatements} calls it there with nothing sent ahead). */
    void commitNow(CompletableFuture<Object> done) {
        if (!lost.isEmpty()) {
            done.completeExceptionally(doomed()); // stays open: only ROLLBACK ends it
            return;
        }
        open = false;
        finish("COMMIT", new ArrayList<>(joined.values()), done);
    }

    /**
     * The error of a COMMIT that failed on some backends, worded as the JDBC executor's
     * ({@code Transaction.commit}): the first failure, then which backends committed and which did not
     * (the COMMITs went out in parallel, so a failure on one does not stop the others').
     */
    private ShardwiseException commitFailed(List<BackendConnection> all, Throwable[] failures) {
        List<String> committed = new ArrayList<>();
        List<String> notCommitted = new ArrayList<>();
        String failed = null;
        Throwable cause = null;
        for (int i = 0; i < all.size(); i++) {
            if (failures[i] == null) {
                committed.add(all.get(i).backend());
            } else {
                notCommitted.add(all.get(i).backend());
                if (cause == null) {
                    failed = all.get(i).backend();
                    cause = failures[i];
                }
            }
        }
        String note = committed.isEmpty()
                ? " (commit failed; nothing committed; rolled back on " + String.join(", ", notCommitted) + ")"
                : " (commit is partial: committed on " + String.join(", ", committed) + "; not committed on "
                        + String.join(", ", notCommitted) + ")";
        if (cause instanceof BackendException b) {
            return new BackendException(failed, new SQLException(b.getCause().getMessage() + note, b.sqlState(), b.errno()),
                    b.getMessage() + note);
        }
        String reason = cause instanceof ShardwiseException s ? s.getMessage() : NativeResults.reason(cause);
        return new ShardwiseException(cause, ErrorCode.SHARD_UNAVAILABLE, failed, reason + note);
    }

    @Override
    public void rollback() {
        if (loop.inEventLoop()) {
            rollbackNow(new CompletableFuture<>());
            return;
        }
        try {
            settleStreams();
            settlePrefetch();
            await(onLoop(this::rollbackNow));
        } catch (ShardwiseException ignored) {
            // connections that failed to roll back were closed, which rolls back their part
        }
    }

    /** ROLLBACK on every connection, on the loop; {@code done} completes normally (a connection that failed to roll back closed). */
    void rollbackNow(CompletableFuture<Object> done) {
        if (!open) {
            done.complete(null);
            return;
        }
        open = false;
        finish("ROLLBACK", new ArrayList<>(joined.values()), done);
    }

    /**
     * Deadlock (1213): the backend rolled back its part and ended the transaction there; the rest is
     * rolled back as MySQL ends the whole transaction, and the session is out of it. On the loop.
     */
    void deadlocked() {
        session.nativeEnded();
        rollbackNow(new CompletableFuture<>());
    }

    /**
     * {@code sql} (COMMIT or ROLLBACK) on every connection at once, so a transaction's end costs one
     * backend round trip however many backends it touched. Every connection goes back to its pool, or
     * closes if it failed or carries other settings; the reservation's unused units go back after.
     */
    private void finish(String sql, List<BackendConnection> all, CompletableFuture<?> done) {
        if (all.isEmpty()) {
            joined.clear();
            discardAtEnd.clear();
            reservation.release();
            done.complete(null);
            return;
        }
        Throwable[] failures = new Throwable[all.size()];
        int[] pending = {all.size()};
        for (int i = 0; i < all.size(); i++) {
            BackendConnection c = all.get(i);
            int index = i;
            if (c.running()) {
                // units sent ahead still answering (the loop's own ROLLBACK: a deadlock, the client gone): closing rolls back its part
                c.channel().close();
                relays.pinned(-1);
                if (--pending[0] == 0) {
                    joined.clear();
                    discardAtEnd.clear();
                    reservation.release();
                    done.complete(null);
                }
                continue;
            }
            ResponseReader.run(c, sql, false).addListener(f -> {
                boolean clean = f.isSuccess() && ((ResponseReader.Response) f.getNow()).err() == null;
                if (!clean) {
                    failures[index] = f.isSuccess() ? error(c.backend(), ((ResponseReader.Response) f.getNow()).err()) : f.cause();
                }
                if (clean && setup.equals(carries.get(c.backend())) && !discardAtEnd.contains(c)) {
                    relays.release(loop, c, foundRows, setup);
                } else {
                    c.channel().close();
                }
                relays.pinned(-1);
                if (--pending[0] > 0) {
                    return;
                }
                joined.clear();
                discardAtEnd.clear();
                reservation.release();
                boolean failed = false;
                for (Throwable t : failures) {
                    failed |= t != null;
                }
                if (failed && sql.equals("COMMIT")) {
                    done.completeExceptionally(commitFailed(all, failures));
                } else {
                    done.complete(null); // a ROLLBACK that failed closed its connection, which rolls back
                }
            });
        }
    }

    private static final List<String> MARK = List.of("SAVEPOINT " + STATEMENT_SAVEPOINT);

    @Override
    public void markStatement() {
        loop.execute(() -> marked = new HashSet<>()); // before the statement's units: the loop runs tasks in order
    }

    @Override
    public void statementEnded(boolean failed) {
        if (!failed) {
            loop.execute(() -> marked = null); // the savepoint stays: the next mark moves it, a RELEASE would cost a round trip
            return;
        }
        settleStreams();
        await(onLoop(done -> {
            Set<String> marks = marked;
            marked = null;
            List<BackendConnection> reached = new ArrayList<>();
            if (marks != null && lost.isEmpty() && open) { // doomed or ended (deadlock): nothing goes on but the ROLLBACK
                for (String backend : marks) {
                    BackendConnection c = joined.get(backend);
                    if (c != null) {
                        reached.add(c);
                    }
                }
            }
            onEach("ROLLBACK TO SAVEPOINT " + STATEMENT_SAVEPOINT, reached, 0, null, () -> done.complete(null), done);
        }));
    }

    @Override
    public void savepoint(String name) {
        onAll(done -> savepointNow(name, done));
    }

    @Override
    public void rollbackToSavepoint(String name) {
        onAll(done -> rollbackToSavepointNow(name, done));
    }

    @Override
    public void releaseSavepoint(String name) {
        onAll(done -> releaseSavepointNow(name, done));
    }

    /**
     * SAVEPOINT on every joined connection at once, on the loop ({@link TransactionStatements} calls it there
     * with nothing sent ahead; the session's thread through {@link #savepoint}): recorded once all answered OK,
     * so a backend joining later sets it too ({@link #join}), and moved to the end when set again, as MySQL.
     */
    void savepointNow(String name, CompletableFuture<Object> done) {
        onAllNow("SAVEPOINT " + quote(name), null, true, () -> {
            savepoints.removeIf(name::equalsIgnoreCase); // MySQL moves a savepoint set again
            savepoints.add(name);
        }, done);
    }

    /** ROLLBACK TO SAVEPOINT on every joined connection at once, on the loop; the later savepoints are gone, this one stays. */
    void rollbackToSavepointNow(String name, CompletableFuture<Object> done) {
        // sent now, never pipelined: undoing rows a savepoint covers releases the locks of rows it inserted, which
        // another session may be waiting for
        onAllNow("ROLLBACK TO SAVEPOINT " + quote(name), name, false, () -> trim(name, true), done);
    }

    /** RELEASE SAVEPOINT on every joined connection at once, on the loop; it and the later ones are gone. */
    void releaseSavepointNow(String name, CompletableFuture<Object> done) {
        onAllNow("RELEASE SAVEPOINT " + quote(name), name, true, () -> trim(name, false), done);
    }

    /** Keeps the savepoints before {@code name}, and {@code name} itself if {@code keep}. */
    private void trim(String name, boolean keep) {
        for (int i = 0; i < savepoints.size(); i++) {
            if (savepoints.get(i).equalsIgnoreCase(name)) {
                savepoints.subList(keep ? i + 1 : i, savepoints.size()).clear();
                return;
            }
        }
    }

    /** A savepoint statement from the session's thread: the units sent ahead settled first, then run on the loop. */
    private void onAll(Consumer<CompletableFuture<Object>> now) {
        settleStreams();
        settlePrefetch();
        await(onLoop(now));
    }

    /**
     * {@code sql} on every joined connection, on the loop; 1305 when {@code known} names a savepoint the transaction
     * does not hold, as MySQL, before any backend. When {@code deferrable} (SAVEPOINT, RELEASE: neither changes a row
     * nor a lock) and every joined connection is idle and open (the usual case), {@code sql} is pipelined: it goes out ahead of the next command each connection sends (a statement, COMMIT,
     * ROLLBACK: {@link BackendConnection#pipelineAlso}), in order, its OK read and dropped there, and the statement is
     * answered now: no backend round trip at all, which is what ORMs' SAVEPOINT and RELEASE around every nested block
     * cost otherwise. Sound because nothing can tell the difference on the transaction's own connections (each runs
     * its commands in order), neither changes what another session sees, and a savepoint the backend lacks
     * cannot be named (the transaction checks its own record first); should the backend refuse it anyway, the
     * connection closes with its message, which dooms the transaction (its next statement or COMMIT fails with 1105).
     * Else (a connection not idle or closing) it is sent on all at once and answered when they have: {@code recorded}
     * runs when every connection answered OK, else {@code done} fails with the first failure in join order (as the
     * JDBC executor's, which runs them one after another and stops at it) and nothing is recorded.
     */
    private void onAllNow(String sql, String known, boolean deferrable, Runnable recorded, CompletableFuture<Object> done) {
        if (!lost.isEmpty()) {
            done.completeExceptionally(doomed());
            return;
        }
        if (known != null && savepoints.stream().noneMatch(known::equalsIgnoreCase)) {
            done.completeExceptionally(new ShardwiseException(ErrorCode.SAVEPOINT_DOES_NOT_EXIST, known));
            return;
        }
        List<BackendConnection> all = new ArrayList<>(joined.values());
        boolean idle = deferrable || all.isEmpty();
        for (BackendConnection c : all) {
            idle &= c.usable();
        }
        if (idle) {
            for (BackendConnection c : all) {
                c.pipelineAlso(sql);
            }
            recorded.run();
            done.complete(null);
            return;
        }
        Throwable[] failures = new Throwable[all.size()];
        int[] pending = {all.size()};
        for (int i = 0; i < all.size(); i++) {
            int index = i;
            Runnable answered = () -> {
                if (--pending[0] > 0) {
                    return;
                }
                for (Throwable t : failures) {
                    if (t != null) {
                        done.completeExceptionally(t);
                        return;
                    }
                }
                recorded.run();
                done.complete(null);
            };
            runSteps(all.get(i), List.of(sql), 0, answered, t -> {
                failures[index] = t;
                answered.run();
            });
        }
    }

    private void onEach(String sql, List<BackendConnection> all, int index, Throwable failure, Runnable then, CompletableFuture<?> done) {
        if (index == all.size()) {
            if (failure == null) {
                then.run();
            } else {
                done.completeExceptionally(failure);
            }
            return;
        }
        BackendConnection c = all.get(index);
        runSteps(c, List.of(sql), 0, () -> onEach(sql, all, index + 1, failure, then, done),
                t -> onEach(sql, all, index + 1, failure == null ? t : failure, then, done));
    }

    /** KILL QUERY on whatever a joined connection runs now (from any thread). */
    @Override
    public void cancel() {
        loop.execute(() -> {
            for (BackendConnection c : joined.values()) {
                if (c.running()) {
                    discardAtEnd.add(c); // a KILL that arrives after the statement ended must find no other client's statement there
                    session.killQuery(c.backend(), c.threadId());
                }
            }
        });
    }

    @Override
    public boolean open() {
        return open;
    }

    private ShardwiseException doomed() {
        return new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, String.join(", ", lost),
                "the connection was lost inside a transaction and the backend rolled back its part;"
                        + " the transaction cannot continue: ROLLBACK to end it");
    }

    private BackendException error(String backend, ErrPacket err) {
        return NativeResults.error(session, backend, err);
    }

    private static ShardwiseException lostError(String backend, Throwable cause) {
        return NativeResults.lostError(backend, cause);
    }

    static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    private <T> CompletableFuture<T> onLoop(Consumer<CompletableFuture<T>> work) {
        if (loop.inEventLoop()) {
            throw new IllegalStateException("a native transaction's blocking call on its own event loop");
        }
        CompletableFuture<T> done = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                work.accept(done);
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static <T> T await(CompletableFuture<T> done) {
        return NativeResults.await(done, "native transaction");
    }
}
