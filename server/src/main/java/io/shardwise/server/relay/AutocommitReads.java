package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.shardwise.core.RelaySession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.NativeReads;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One client session's autocommit reads of several units that core merges (ORDER BY, aggregates,
 * DISTINCT, LIMIT over several shards), on pooled relay connections instead of the JDBC executor:
 * a connection of each backend the units reach is leased as a relayed statement leases it (from the
 * relay pool that carries the session's settings, within the backend's relay budget), each backend's
 * units are sent in order on it, backends in parallel, and every response is read whole into core's
 * rows ({@link NativeResults}, as a native transaction's merged reads). The connections go back to
 * the pool once their responses ended cleanly; one that was killed or broke closes instead.
 *
 * <p>Declines (null, nothing sent) when a backend is not relayable or has no relay connection to
 * lease (all in use, or its login failed): the JDBC executor then runs the statement as before, and
 * reports an unreachable backend as it always did.
 *
 * <p>Memory: the responses are held whole, so they are bounded: once their rows pass
 * {@link #BUDGET} bytes the units are stopped (their connections closed) and the statement declines
 * too, and the JDBC executor runs it again, streaming. Nothing reached the client yet, and a SELECT in
 * autocommit reads its own snapshot either way.
 *
 * <p>Sent ahead: a merged read of a cached shape has its units leased and sent by the loop as its COM_QUERY
 * arrives ({@link #prefetch}); when they are in and few the loop merges and answers it ({@link LoopMerges}),
 * else the session's thread plans the statement and {@link #execute} takes what they answered (rows, an
 * error, a kill, a decline) instead of sending them again. So everything past the loop's answer — the 8
 * MiB bound, warnings, errors, KILL QUERY, the JDBC fallback — is this class's one path.
 *
 * <p>Threads: {@link #execute} on the session's thread, which waits while the loop sends and reads;
 * {@link #prefetch} and the {@link LoopMerges.SentAhead} methods on the loop; {@link #cancel} from any
 * thread. The statement's state is confined to the loop.
 */
final class AutocommitReads implements NativeReads, LoopMerges.SentAhead {
    /** Bytes of row packets one statement may hold before it goes to the streaming JDBC path (see the class comment). */
    static final long BUDGET = 8L << 20;

    private final Relays relays;
    private final EventLoop loop;
    private final boolean foundRows;
    private final RelaySession session;
    /** The running statement's connections still answering, or empty. On the loop. */
    private final Set<BackendConnection> running = new HashSet<>();
    /** Connections {@link #cancel} or a sibling's failure killed: they close rather than go back (a late KILL would hit their next user). */
    private final Set<BackendConnection> killed = new HashSet<>();
    /** The running statement was cancelled. On the loop. */
    private boolean cancelled;

    /**
     * A statement's units the loop sent ahead ({@link #prefetch}): what they are, the settings they ran under, their
     * responses, and their budget (its start, and what is left). Set on the loop, taken by whichever answers.
     */
    private record Ahead(List<ExecutionUnit> units, String settings, CompletableFuture<ResponseReader.Response[]> responses,
                         long limit, long[] budget) {}

    private volatile Ahead ahead;

    AutocommitReads(Relays relays, EventLoop loop, boolean foundRows, RelaySession session) {
        this.relays = relays;
        this.loop = loop;
        this.foundRows = foundRows;
        this.session = session;
    }

    @Override
    public List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, String settings, String logicalSchema) {
        if (loop.inEventLoop()) {
            return null; // it would wait for itself
        }
        CompletableFuture<ResponseReader.Response[]> done = taken(units, settings);
        if (done == null) {
            if (!relayable(units)) {
                return null;
            }
            CompletableFuture<ResponseReader.Response[]> started = new CompletableFuture<>();
            long[] budget = {budget()};
            loop.execute(() -> {
                try {
                    start(units, settings, budget, started);
                } catch (RuntimeException e) {
                    started.completeExceptionally(e);
                }
            });
            done = started;
        }
        ResponseReader.Response[] answered = NativeResults.await(done, "autocommit read");
        if (answered == null) {
            return null;
        }
        relays.countAutocommitRead();
        // on the calling thread: the loop only read the wire
        List<UnitResult> results = new ArrayList<>(units.size());
        for (int i = 0; i < units.size(); i++) {
            NativeResults.warnings(session, units.get(i), i, answered[i], diagnostics);
            results.add(NativeResults.result(units.get(i), answered[i], logicalSchema));
        }
        return results;
    }

    private boolean relayable(List<ExecutionUnit> units) {
        for (ExecutionUnit u : units) {
            if (!relays.relayable(u.backend())) {
                return false;
            }
        }
        return true;
    }

    /**
     * On the loop, as a merged read's COM_QUERY arrives: leases a connection of each backend and sends the units
     * now, as {@link #execute} would once the session's thread had planned them; their responses, which the loop
     * merges ({@link LoopMerges}) or the session's thread takes. Null (nothing sent) when a backend is not
     * relayable, or units sent ahead earlier are still running (never two statements' at once).
     */
    CompletableFuture<ResponseReader.Response[]> prefetch(List<ExecutionUnit> units, String settings) {
        Ahead before = ahead;
        if (before != null && !before.responses().isDone() || !relayable(units)) {
            return null;
        }
        CompletableFuture<ResponseReader.Response[]> responses = new CompletableFuture<>();
        long limit = budget();
        long[] budget = {limit};
        ahead = new Ahead(units, settings, responses, limit, budget);
        try {
            start(units, settings, budget, responses);
        } catch (RuntimeException e) {
            responses.completeExceptionally(e); // the session's thread takes it and reports a bug, as execute's
        }
        return responses;
    }

    /**
     * On the session's thread: the responses of the units sent ahead, if they are {@code units} under {@code settings},
     * else null. Units sent ahead for another route (the session's thread planned otherwise: ENUM ordering keys) are
     * killed and waited for first, so two statements' units never run at once.
     */
    private CompletableFuture<ResponseReader.Response[]> taken(List<ExecutionUnit> units, String settings) {
        Ahead a = ahead;
        if (a == null) {
            return null;
        }
        ahead = null;
        if (a.units().equals(units) && a.settings().equals(settings)) {
            relays.countPrefetched();
            return a.responses();
        }
        cancel();
        try {
            a.responses().handle((r, t) -> null).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
        } catch (java.util.concurrent.ExecutionException e) {
            throw ShardwiseException.bug("autocommit read", e.getCause()); // handle() completes normally
        }
        return null;
    }

    @Override
    public long prefetchedBytes(CompletableFuture<ResponseReader.Response[]> responses) {
        Ahead a = ahead;
        return a == null || a.responses() != responses ? -1 : a.limit() - a.budget()[0];
    }

    @Override
    public void prefetchAnswered(CompletableFuture<ResponseReader.Response[]> responses) {
        Ahead a = ahead;
        if (a != null && a.responses() == responses) {
            ahead = null;
            relays.countAutocommitRead();
        }
    }

    /** Leases a connection of every backend, then runs the units; {@code done} gets null when a lease fails. On the loop. */
    private void start(List<ExecutionUnit> units, String settings, long[] budget, CompletableFuture<ResponseReader.Response[]> done) {
        cancelled = false;
        killed.clear();
        Map<String, List<Integer>> byBackend = new LinkedHashMap<>();
        for (int i = 0; i < units.size(); i++) {
            byBackend.computeIfAbsent(units.get(i).backend(), b -> new ArrayList<>()).add(i);
        }
        List<Future<BackendConnection>> leases = new ArrayList<>(byBackend.size());
        for (String backend : byBackend.keySet()) {
            Future<BackendConnection> lease = relays.acquire(loop, backend, foundRows, settings);
            if (lease == null) {
                giveBack(leases, settings);
                done.complete(null);
                return;
            }
            leases.add(lease);
        }
        int[] pending = {leases.size()};
        for (Future<BackendConnection> lease : leases) {
            lease.addListener(f -> {
                if (--pending[0] > 0) {
                    return;
                }
                for (Future<BackendConnection> l : leases) {
                    if (!l.isSuccess()) { // unreachable or its login failed: the JDBC executor runs it and says so
                        giveBack(leases, settings);
                        done.complete(null);
                        return;
                    }
                }
                run(units, byBackend, leases, settings, budget, done);
            });
        }
    }

    /** Leases that were granted go back unused. */
    private void giveBack(List<Future<BackendConnection>> leases, String settings) {
        for (Future<BackendConnection> lease : leases) {
            lease.addListener(f -> {
                if (f.isSuccess()) {
                    relays.release(loop, lease.getNow(), foundRows, settings);
                }
            });
        }
    }

    private void run(List<ExecutionUnit> units, Map<String, List<Integer>> byBackend, List<Future<BackendConnection>> leases,
                     String settings, long[] budget, CompletableFuture<ResponseReader.Response[]> done) {
        ResponseReader.Response[] results = new ResponseReader.Response[units.size()];
        Throwable[] failure = new Throwable[1];
        int[] pending = {byBackend.size()};
        int b = 0;
        for (List<Integer> indexes : byBackend.values()) {
            BackendConnection c = leases.get(b++).getNow();
            running.add(c);
            runUnits(c, units, indexes, 0, results, failure, budget, settings, () -> {
                if (--pending[0] > 0) {
                    return;
                }
                if (cancelled) {
                    done.completeExceptionally(new ShardwiseException(ErrorCode.QUERY_INTERRUPTED));
                } else if (failure[0] instanceof ResponseReader.OverBudget) {
                    done.complete(null); // too large to hold: the JDBC executor streams it
                } else if (failure[0] != null) {
                    done.completeExceptionally(failure[0]);
                } else {
                    done.complete(results);
                }
            });
        }
    }

    /** One backend's units in order on {@code c}; the first failure stops them and kills what the other backends still run. */
    private void runUnits(BackendConnection c, List<ExecutionUnit> units, List<Integer> indexes, int k, ResponseReader.Response[] results,
                          Throwable[] failure, long[] budget, String settings, Runnable finished) {
        if (k == indexes.size() || failure[0] != null || cancelled) {
            end(c, true, settings);
            finished.run();
            return;
        }
        int index = indexes.get(k);
        ResponseReader.run(c, units.get(index).sql(), true, budget).addListener(f -> {
            if (!f.isSuccess()) {
                fail(failure, f.cause() instanceof ResponseReader.OverBudget over ? over : NativeResults.lostError(c.backend(), f.cause()));
                end(c, false, settings);
                finished.run();
                return;
            }
            ResponseReader.Response r = (ResponseReader.Response) f.getNow();
            if (r.err() != null) {
                fail(failure, NativeResults.error(session, c.backend(), r.err()));
                end(c, true, settings);
                finished.run();
                return;
            }
            results[index] = r;
            runUnits(c, units, indexes, k + 1, results, failure, budget, settings, finished);
        });
    }

    /** The statement's budget: {@link #BUDGET}, or the system property {@code shardwise.nativeReadBudget} (tests). */
    static long budget() {
        return Long.getLong("shardwise.nativeReadBudget", BUDGET);
    }

    /** The first failure fails the statement (as the JDBC executor's first failing unit); what still runs elsewhere is killed. */
    private void fail(Throwable[] failure, Throwable t) {
        if (failure[0] != null) {
            return;
        }
        failure[0] = t;
        killRunning();
    }

    /** {@code c}'s last response ended ({@code clean}: read to its end): back to its pool, or closed. */
    private void end(BackendConnection c, boolean clean, String settings) {
        running.remove(c);
        if (clean && !killed.remove(c) && c.usable()) {
            relays.release(loop, c, foundRows, settings);
        } else {
            killed.remove(c);
            c.channel().close();
        }
    }

    private void killRunning() {
        for (BackendConnection c : running) {
            if (c.running() && killed.add(c)) {
                session.killQuery(c.backend(), c.threadId());
            }
        }
    }

    /** KILL QUERY / the client gone: what the statement's connections run now is killed, and the statement fails with 1317. */
    @Override
    public void cancel() {
        loop.execute(() -> {
            if (!running.isEmpty()) {
                cancelled = true;
                killRunning();
            }
        });
    }
}
