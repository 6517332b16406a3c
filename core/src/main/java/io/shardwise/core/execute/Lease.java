package io.shardwise.core.execute;

import com.mysql.cj.jdbc.JdbcConnection;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One connection checked out of a backend pool, for one unit (autocommit) or for the whole of a
 * transaction (pinned).
 *
 * <p>Invariant: a KILL QUERY is only ever sent while this lease runs a statement: {@link #kill}
 * and {@link #stopExecuting} take the same lock, so a connection cannot go back to the pool, and
 * to another session, while a kill aimed at it is in flight.
 */
final class Lease {
    private final BackendPools.Pool pool;
    private final Connection connection;
    private final long connectionId;
    private final AppliedStates.AppliedState applied;
    private final JdbcConnection physical;
    private final ReentrantLock lock = new ReentrantLock();
    private boolean executing;
    /** Statements started on this lease so far: tells a late abort which statement it was aimed at. */
    private long executions;
    private volatile boolean broken;
    private boolean released;
    private volatile boolean pinned;

    // JDBC-level state of this checkout; HikariCP resets both when the connection returns
    SessionState.Isolation isolation;
    boolean readOnly;

    Lease(BackendPools.Pool pool, Connection connection, JdbcConnection physical, AppliedStates.AppliedState applied) {
        this.pool = pool;
        this.connection = connection;
        this.physical = physical;
        this.connectionId = physical.getId();
        this.applied = applied;
    }

    String backend() {
        return pool.backend();
    }

    BackendPools pools() {
        return pool.pools();
    }

    Connection connection() {
        return connection;
    }

    JdbcConnection physical() {
        return physical;
    }

    AppliedStates.AppliedState applied() {
        return applied;
    }

    /**
     * The statement for a unit with parameters: outside a transaction a kept one of the connection
     * ({@link BackendStatements}); inside one a fresh one on the pool's connection, as before, since
     * HikariCP tracks the transaction's dirty state through the statements made on its proxy.
     */
    PreparedStatement prepare(String sql) throws SQLException {
        if (pinned) {
            PreparedStatement ps = connection.prepareStatement(sql);
            ps.setFetchSize(Integer.MIN_VALUE);
            return ps;
        }
        return applied.statements.take(physical, sql);
    }

    /** A result's columns; outside a transaction those of the text's previous result when nothing changed. */
    List<Column> columns(ExecutionUnit unit, boolean prepared, ResultSetMetaData md, String logicalSchema) throws SQLException {
        if (pinned || !prepared) {
            return Columns.of(md, unit.logicalTables(), logicalSchema);
        }
        return applied.statements.columns(unit.sql(), Columns.fields(md), unit.logicalTables(), logicalSchema);
    }

    /** A statement from {@link #prepare} that ended cleanly: kept for the next unit of its text, or closed. */
    void finished(String sql, java.sql.Statement statement) {
        if (!pinned && !broken && statement instanceof PreparedStatement ps) {
            applied.statements.giveBack(sql, ps);
        } else {
            BackendPools.closeQuietly(statement);
        }
    }

    BackendPools.Baseline baseline() {
        return pool.baseline();
    }

    void pin() {
        pinned = true;
    }

    boolean isPinned() {
        return pinned;
    }

    boolean isBroken() {
        return broken;
    }

    /** The connection's state is uncertain (an XA branch that did not end cleanly): never reuse it. */
    void discard() {
        broken = true;
    }

    /** SQLSTATE class 08: the connection is gone and must never be reused. */
    void noteFailure(SQLException failure) {
        if (Errors.connectionLost(failure)) {
            broken = true;
        }
    }

    void startExecuting() {
        lock.lock();
        try {
            executing = true;
            executions++;
        } finally {
            lock.unlock();
        }
    }

    void stopExecuting() {
        lock.lock();
        try {
            executing = false;
        } finally {
            lock.unlock();
        }
    }

    /** Interrupts the statement running on this connection (error 1317 there); a no-op when idle. */
    void kill() {
        lock.lock();
        try {
            if (executing && !broken) {
                pool.killQuery(connectionId);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The current statement's number, for {@link #claimAbort}; -1 when idle. */
    long execution() {
        lock.lock();
        try {
            return executing ? executions : -1;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The last resort after a KILL QUERY that did not end statement {@code execution} (a backend or a
     * network that no longer answers, so the kill never reached it or its answer never comes back):
     * marks the connection broken, so it leaves its pool, and returns true when that statement still
     * runs; then {@link #abortConnection} closes its socket, so the blocked read fails at once.
     */
    boolean claimAbort(long execution) {
        lock.lock();
        try {
            if (!executing || executions != execution) {
                return false;
            }
            broken = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    void abortConnection() {
        try {
            physical.abort(Runnable::run);
        } catch (SQLException | RuntimeException ignored) {
            // already closed: the read fails either way
        }
    }

    /** Back to the pool, or out of it for good when broken. Idempotent. */
    void release() {
        stopExecuting();
        lock.lock();
        try {
            if (released) {
                return;
            }
            released = true;
        } finally {
            lock.unlock();
        }
        if (broken) {
            // HikariCP closes the physical connection at once; closing the proxy afterwards would only log
            pool.evict(connection);
        } else {
            BackendPools.closeQuietly(connection);
        }
    }
}
