package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The XA statements of a transaction in mode xa, one branch per backend it touched (XID: the
 * transaction's gtrid and the backend's name). A branch starts ({@code XA START}) when its
 * backend joins the transaction; see {@link Transaction}.
 *
 * <p>Commit of one branch: {@code XA END}, {@code XA COMMIT … ONE PHASE}: no PREPARE, no log, no
 * fsync, as many round trips as a local transaction's {@code SET autocommit=0}, {@code COMMIT} and
 * the pool's reset. Of several: {@code XA END} and {@code XA PREPARE} on each; any failure → rolled
 * back on every backend; else the decision is forced to the {@link DecisionLog}, then
 * {@code XA COMMIT} on each. A branch that cannot be committed then (its backend or connection
 * lost) stays prepared on its backend, holding its locks, and recovery commits it as soon as the
 * backend answers: the transaction is committed, and the client is told so.
 *
 * <p>Hazard: a connection whose branch did not end cleanly is discarded, never returned to its
 * pool, so no later session can inherit an open XA branch.
 */
final class XaCommit {
    private XaCommit() {}

    static void start(Lease lease, Xid xid) throws SQLException {
        execute(lease, "XA START " + xid.sql());
    }

    /** Commits the branches, given in configuration order; the caller releases the leases afterwards. */
    static void commit(String gtrid, List<Map.Entry<String, Lease>> branches, BackendPools pools, XaCoordinator xa) {
        for (Map.Entry<String, Lease> b : branches) {
            try {
                execute(b.getValue(), "XA END " + xid(gtrid, b).sql());
            } catch (SQLException e) {
                throw abort(gtrid, branches, pools, b.getKey(), e, "XA END");
            }
        }
        if (branches.size() == 1) {
            Map.Entry<String, Lease> only = branches.getFirst();
            try {
                execute(only.getValue(), "XA COMMIT " + xid(gtrid, only).sql() + " ONE PHASE");
                return;
            } catch (SQLException e) {
                throw abort(gtrid, branches, pools, only.getKey(), e, "XA COMMIT ONE PHASE");
            }
        }
        xa.begin(gtrid);
        try {
            for (Map.Entry<String, Lease> b : branches) {
                try {
                    execute(b.getValue(), "XA PREPARE " + xid(gtrid, b).sql());
                } catch (SQLException e) {
                    throw abort(gtrid, branches, pools, b.getKey(), e, "XA PREPARE");
                }
            }
            try {
                xa.log().commit(gtrid);
            } catch (IOException e) {
                rollback(gtrid, branches);
                throw new ShardwiseException(e, ErrorCode.XA_DECISION_NOT_LOGGED, xa.log().path(), e.getMessage());
            }
            boolean owed = false;
            for (Map.Entry<String, Lease> b : branches) {
                try {
                    execute(b.getValue(), "XA COMMIT " + xid(gtrid, b).sql());
                } catch (SQLException e) {
                    if (ErrorCode.XAER_NOTA.is(e.getErrorCode())) {
                        continue; // prepared, then gone: a server that finishes read-only branches at PREPARE
                    }
                    // decided and logged: the branch stays prepared on its backend until recovery commits it
                    b.getValue().noteFailure(e);
                    b.getValue().discard();
                    owed = true;
                    System.getLogger(XaCommit.class.getName()).log(System.Logger.Level.WARNING, "XA COMMIT of " + xid(gtrid, b)
                            + " failed (" + e.getMessage() + "); the commit is logged and recovery will complete it");
                }
            }
            if (owed) {
                xa.kick(pools);
            }
        } finally {
            xa.end(gtrid);
        }
    }

    /**
     * Rolls back every branch still connected: {@code XA END} (a branch already idle, prepared or
     * rolled back by a deadlock refuses it, which is fine), then {@code XA ROLLBACK}. Returns the
     * first failure that is neither a lost connection nor an already finished branch, or null.
     */
    static Failure rollback(String gtrid, List<Map.Entry<String, Lease>> branches) {
        Failure first = null;
        for (Map.Entry<String, Lease> b : branches) {
            Lease lease = b.getValue();
            if (lease.isBroken()) {
                continue; // its branch died with the connection, or stays prepared for recovery to roll back
            }
            Xid xid = xid(gtrid, b);
            try {
                execute(lease, "XA END " + xid.sql());
            } catch (SQLException e) {
                lease.noteFailure(e);
            }
            if (lease.isBroken()) {
                continue;
            }
            try {
                execute(lease, "XA ROLLBACK " + xid.sql());
            } catch (SQLException e) {
                lease.noteFailure(e);
                if (!finished(e)) {
                    lease.discard();
                    if (first == null && !Errors.connectionLost(e)) {
                        first = new Failure(b.getKey(), e);
                    }
                }
            }
        }
        return first;
    }

    record Failure(String backend, SQLException error) {}

    /** The branch no longer exists or was already rolled back by its backend. */
    private static boolean finished(SQLException e) {
        int errno = e.getErrorCode();
        return ErrorCode.XAER_NOTA.is(errno) || ErrorCode.XA_RBROLLBACK.is(errno) || ErrorCode.XA_RBTIMEOUT.is(errno)
                || ErrorCode.XA_RBDEADLOCK.is(errno);
    }

    private static ShardwiseException abort(String gtrid, List<Map.Entry<String, Lease>> branches, BackendPools pools,
                                            String backend, SQLException e, String step) {
        Lease failed = null;
        for (Map.Entry<String, Lease> b : branches) {
            if (b.getKey().equals(backend)) {
                failed = b.getValue();
            }
        }
        if (failed != null) {
            failed.noteFailure(e);
        }
        rollback(gtrid, branches);
        // a one-phase commit cut off mid-way may have committed on its server, as a local COMMIT may: say so, don't claim a rollback
        String outcome = branches.size() == 1 && Errors.connectionLost(e)
                ? "; the connection was lost, so whether the backend committed is unknown"
                : "; the transaction was rolled back on every backend";
        return pools.error(backend, new SQLException(e.getMessage() + " (commit failed in " + step + outcome + ")",
                e.getSQLState(), e.getErrorCode(), e));
    }

    private static Xid xid(String gtrid, Map.Entry<String, Lease> branch) {
        return new Xid(gtrid, branch.getKey());
    }

    private static void execute(Lease lease, String sql) throws SQLException {
        try (Statement s = lease.connection().createStatement()) {
            s.execute(sql);
        }
    }
}
