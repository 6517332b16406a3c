package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A session's transaction: one connection per backend it has touched, kept from first touch until
 * COMMIT or ROLLBACK, in local (per-backend) transactions.
 *
 * <p>Transaction mode local: commit is not atomic across backends: backends commit one after
 * another in configuration order; if one fails, the rest are rolled back and the error names the
 * backends that committed and those that did not.
 *
 * <p>Transaction mode xa: each backend's part is an XA branch, started when the backend joins
 * (MySQL cannot turn a running local transaction into an XA branch, so a branch must start with
 * the backend's first statement, before anyone knows whether a second backend will follow); one
 * branch commits in one phase, several in two with a logged decision ({@link XaCommit}).
 *
 * <p>Savepoints belong to the session. A backend first touched after a savepoint was set gets that
 * savepoint (and every later one) the moment it joins, before any work, so ROLLBACK TO undoes its
 * work too, exactly as on a single server; ROLLBACK TO and RELEASE apply to every touched backend.
 *
 * <p>Statement savepoint: a statement of several units or steps marks itself ({@link #markStatement});
 * each backend it reaches gets the statement's savepoint before its first unit there (a backend it
 * joins too), and a failure rolls back to it on those backends only, so a failing statement
 * changes nothing, as MySQL's. A single-unit statement never marks: the backend undoes it alone.
 * Left in place on success (a RELEASE per backend would cost a round trip): the next mark moves
 * it, and its name is none a client's SAVEPOINT can set ({@link NativeTransaction#STATEMENT_SAVEPOINT}).
 *
 * <p>Doomed: a connection lost (SQLSTATE 08) inside the transaction has taken that backend's work
 * with it; every further statement, COMMIT and savepoint fails until ROLLBACK.
 *
 * <p>Admitted: before its first connection the transaction takes a slot of the engine's
 * {@link Admission} (its session's statement waits for it), and gives it back when it ends, with
 * its connections; see there why the pools then cannot deadlock.
 */
final class Transaction {
    private final BackendPools pools;
    private final SessionState state;
    private final ExecutorOptions options;
    private final boolean clientFoundRows;
    private final ReentrantLock lock = new ReentrantLock();
    private final Map<String, Lease> leases = new LinkedHashMap<>();
    private final List<String> savepoints = new ArrayList<>();
    /** The statement savepoint's backends while a statement is marked ({@link #markStatement}), else null. */
    private volatile Set<String> marked;
    private final XaCoordinator xa;
    /** The XA global transaction id in mode xa, null in mode local. */
    private final String gtrid;
    private boolean admitted;
    /** The level every backend joining runs at, fixed when the transaction began (null: the pool's default). */
    private final SessionState.Isolation isolation;
    /** See {@link #begunAt}: what COMMIT AND CHAIN gives the next transaction (a later SET SESSION does not change it). */
    private final SessionState.Isolation begunAt;

    /** Holds table locks (LOCK TABLES) rather than a transaction: its connections stay in autocommit mode. */
    private final boolean locking;

    Transaction(BackendPools pools, SessionState state, ExecutorOptions options, boolean clientFoundRows) {
        this(pools, state, options, clientFoundRows, false);
    }

    /** @param locking a holder of LOCK TABLES connections: autocommit stays on; {@link #unlock} ends it */
    Transaction(BackendPools pools, SessionState state, ExecutorOptions options, boolean clientFoundRows, boolean locking) {
        this.locking = locking;
        this.pools = pools;
        this.state = state;
        this.options = options;
        this.clientFoundRows = clientFoundRows;
        this.xa = pools.xa();
        this.gtrid = xa == null || locking ? null : xa.newGtrid();
        this.isolation = locking ? state.isolation() : state.takeNextIsolation(); // LOCK TABLES begins no transaction
        this.begunAt = isolation != null ? isolation : state.isolation();
    }

    SessionState.Isolation isolation() {
        return isolation;
    }

    /** The level the transaction began at: its own, else the session's then (null: the backends' default). */
    SessionState.Isolation begunAt() {
        return begunAt;
    }

    /**
     * The transaction's connection to {@code backend}, borrowed and joined at first touch. Safe for
     * concurrent calls that name different backends (the units of one statement, grouped by backend).
     */
    Lease connection(String backend) throws SQLException {
        if (!admitted) {
            throw new ShardwiseException(ErrorCode.BUG, "transaction takes a connection of " + backend + " before its admission");
        }
        List<String> marks;
        lock.lock();
        try {
            Lease existing = leases.get(backend);
            if (existing != null) {
                return existing;
            }
            marks = List.copyOf(savepoints);
        } finally {
            lock.unlock();
        }
        Lease fresh = pools.borrow(backend, clientFoundRows);
        try {
            fresh.pin();
            StateApplier.apply(fresh, state, isolation, true, options);
            // a LOCK TABLES holder has no gtrid and stays in autocommit mode (MySQL refuses LOCK TABLES in XA: 1399)
            if (gtrid != null) {
                XaCommit.start(fresh, new Xid(gtrid, backend));
            } else if (!locking) {
                fresh.connection().setAutoCommit(false);
            }
            for (String name : marks) {
                execute(fresh, "SAVEPOINT " + quote(name));
            }
        } catch (SQLException | RuntimeException e) {
            if (e instanceof SQLException s) {
                fresh.noteFailure(s);
            }
            if (gtrid != null) {
                fresh.discard(); // its XA branch may have started: closing the connection ends it, a pool would hand it on
            }
            fresh.release();
            throw e;
        }
        lock.lock();
        try {
            leases.put(backend, fresh);
        } finally {
            lock.unlock();
        }
        return fresh;
    }

    /** Nothing ran yet: no backend joined, so the transaction may still run on another executor. */
    boolean untouched() {
        lock.lock();
        try {
            return leases.isEmpty() && !admitted;
        } finally {
            lock.unlock();
        }
    }

    /** The savepoints it holds, oldest first (recorded here even before a backend joined). */
    List<String> savepoints() {
        lock.lock();
        try {
            return List.copyOf(savepoints);
        } finally {
            lock.unlock();
        }
    }

    /** True until the transaction holds its admission slot, which it needs before any connection. */
    boolean needsAdmission() {
        return !admitted;
    }

    /** The caller took a slot of {@link BackendPools#admission()} for this transaction; it goes back when the transaction ends. */
    void admitted() {
        admitted = true;
    }

    /** The connection the transaction already holds on {@code backend}, or null when it has not touched it. */
    Lease existing(String backend) {
        lock.lock();
        try {
            return leases.get(backend);
        } finally {
            lock.unlock();
        }
    }

    boolean isDoomed() {
        return !brokenBackends().isEmpty();
    }

    ShardwiseException doomed() {
        return new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, String.join(", ", brokenBackends()),
                "the connection was lost inside a transaction and the backend rolled back its part;"
                        + " the transaction cannot continue: ROLLBACK to end it");
    }

    void commit() {
        List<Map.Entry<String, Lease>> all = new ArrayList<>(leases.entrySet());
        // parallel units join in a racy order: commit in configuration order, so outcomes are reproducible
        List<String> configured = List.copyOf(pools.backendNames());
        all.sort(java.util.Comparator.comparingInt(e -> configured.indexOf(e.getKey())));
        if (gtrid != null) {
            try {
                if (!all.isEmpty()) {
                    XaCommit.commit(gtrid, all, pools, xa);
                }
            } finally {
                releaseAll();
            }
            return;
        }
        List<String> committed = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Lease lease = all.get(i).getValue();
            try {
                lease.connection().commit();
                committed.add(all.get(i).getKey());
            } catch (SQLException e) {
                lease.noteFailure(e);
                List<String> notCommitted = new ArrayList<>();
                for (int j = i; j < all.size(); j++) {
                    notCommitted.add(all.get(j).getKey());
                    if (j > i) {
                        rollbackQuietly(all.get(j).getValue());
                    }
                }
                releaseAll();
                String note = committed.isEmpty()
                        ? " (commit failed; nothing committed; rolled back on " + String.join(", ", notCommitted) + ")"
                        : " (commit is partial: committed on " + String.join(", ", committed) + "; not committed on "
                                + String.join(", ", notCommitted) + ")";
                throw pools.error(all.get(i).getKey(), new SQLException(e.getMessage() + note, e.getSQLState(), e.getErrorCode(), e));
            }
        }
        releaseAll();
    }

    /** Rolls back every touched backend still connected (a lost one already has) and releases all. */
    void rollback() {
        if (gtrid != null) {
            rollbackXa();
            return;
        }
        SQLException first = null;
        String firstBackend = null;
        for (Map.Entry<String, Lease> e : leases.entrySet()) {
            Lease lease = e.getValue();
            if (lease.isBroken()) {
                continue;
            }
            try {
                lease.connection().rollback();
            } catch (SQLException ex) {
                lease.noteFailure(ex);
                if (first == null && !Errors.connectionLost(ex)) {
                    first = ex;
                    firstBackend = e.getKey();
                }
            }
        }
        releaseAll();
        if (first != null) {
            throw pools.error(firstBackend, first);
        }
    }

    private void rollbackXa() {
        XaCommit.Failure first = XaCommit.rollback(gtrid, new ArrayList<>(leases.entrySet()));
        releaseAll();
        if (first != null) {
            throw pools.error(first.backend(), first.error());
        }
    }

    /** The statement that runs next may run several units or steps: see the class comment. */
    void markStatement() {
        marked = ConcurrentHashMap.newKeySet();
    }

    /**
     * Before the marked statement's first unit on {@code backend}: its savepoint there. Called by
     * that backend's task only, so a backend is marked once.
     */
    void markBefore(String backend, Lease lease) throws SQLException {
        Set<String> marks = marked;
        if (marks != null && !marks.contains(backend)) {
            execute(lease, "SAVEPOINT " + NativeTransaction.STATEMENT_SAVEPOINT);
            marks.add(backend);
        }
    }

    /**
     * Ends the marked statement: {@code failed}, it rolls back to its savepoint on every backend it
     * reached, so its partial work is gone and the transaction goes on. Throws the first backend error
     * (the statement's own failure is what the client hears: the caller adds it as suppressed).
     */
    void statementEnded(boolean failed) {
        Set<String> marks = marked;
        marked = null;
        if (!failed || marks == null || marks.isEmpty() || isDoomed()) {
            return; // doomed: nothing goes on but ROLLBACK
        }
        ShardwiseException first = null;
        for (String backend : marks) {
            Lease lease = existing(backend);
            if (lease == null || lease.isBroken()) {
                continue;
            }
            try {
                execute(lease, "ROLLBACK TO SAVEPOINT " + NativeTransaction.STATEMENT_SAVEPOINT);
            } catch (SQLException e) {
                lease.noteFailure(e);
                if (first == null) {
                    first = pools.error(backend, e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    void savepoint(String name) {
        executeOnAll("SAVEPOINT " + quote(name));
        lock.lock();
        try {
            savepoints.removeIf(name::equalsIgnoreCase); // MySQL moves a savepoint set again
            savepoints.add(name);
        } finally {
            lock.unlock();
        }
    }

    void rollbackToSavepoint(String name) {
        int i = indexOf(name);
        executeOnAll("ROLLBACK TO SAVEPOINT " + quote(name));
        trim(i + 1); // later savepoints are gone, this one stays
    }

    void releaseSavepoint(String name) {
        int i = indexOf(name);
        executeOnAll("RELEASE SAVEPOINT " + quote(name));
        trim(i);
    }

    private int indexOf(String name) {
        lock.lock();
        try {
            for (int i = 0; i < savepoints.size(); i++) {
                if (savepoints.get(i).equalsIgnoreCase(name)) {
                    return i;
                }
            }
        } finally {
            lock.unlock();
        }
        throw new ShardwiseException(ErrorCode.SAVEPOINT_DOES_NOT_EXIST, name);
    }

    private void trim(int size) {
        lock.lock();
        try {
            savepoints.subList(size, savepoints.size()).clear();
        } finally {
            lock.unlock();
        }
    }

    private void executeOnAll(String sql) {
        for (Map.Entry<String, Lease> e : leases.entrySet()) {
            try {
                execute(e.getValue(), sql);
            } catch (SQLException ex) {
                e.getValue().noteFailure(ex);
                throw pools.error(e.getKey(), ex);
            }
        }
    }

    private static void execute(Lease lease, String sql) throws SQLException {
        try (Statement s = lease.connection().createStatement()) {
            s.execute(sql);
        }
    }

    /** UNLOCK TABLES on every connection held, then every connection back to its pool. */
    void unlock() {
        for (Lease lease : leases.values()) {
            try {
                execute(lease, "UNLOCK TABLES");
            } catch (SQLException e) {
                lease.noteFailure(e); // a lost connection released its locks with it
            }
        }
        releaseAll();
    }

    private static void rollbackQuietly(Lease lease) {
        try {
            lease.connection().rollback();
        } catch (SQLException e) {
            lease.noteFailure(e);
        }
    }

    private void releaseAll() {
        for (Lease lease : leases.values()) {
            lease.release();
        }
        leases.clear();
        // after the connections: a transaction admitted next may need the very ones just released
        if (admitted) {
            admitted = false;
            pools.admission().release(1);
        }
    }

    private List<String> brokenBackends() {
        List<String> broken = new ArrayList<>();
        lock.lock();
        try {
            leases.forEach((backend, lease) -> {
                if (lease.isBroken()) {
                    broken.add(backend);
                }
            });
        } finally {
            lock.unlock();
        }
        return broken;
    }

    static String quote(String identifier) {
        if (identifier == null || identifier.isEmpty()) {
            throw new IllegalArgumentException("not a savepoint name: '" + identifier + "'"); // the parser reads none such
        }
        if (identifier.length() > 64) {
            throw new ShardwiseException(ErrorCode.IDENTIFIER_TOO_LONG, identifier); // as MySQL refuses it, before any backend
        }
        return "`" + identifier.replace("`", "``") + "`";
    }
}
