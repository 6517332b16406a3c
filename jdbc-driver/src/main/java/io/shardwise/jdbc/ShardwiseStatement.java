package io.shardwise.jdbc;

import io.shardwise.core.StatementResult;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;

/**
 * A statement over its connection's session. Each execution yields one result (rows or an update
 * count), except a CALL, whose result sets and final update count {@link #getMoreResults} walks as
 * Connector/J's does; there are no multi-statement results. Update counts, generated keys, the checks before
 * sending and batch error handling follow Connector/J's defaults ({@code continueBatchOnError=true},
 * keys only when {@code RETURN_GENERATED_KEYS} was asked for).
 *
 * <p>Query timeout: a timer cancels the statement (KILL QUERY on every backend it runs on) if it has
 * not produced its result by then; rows already streaming after that are not bounded by it.
 */
class ShardwiseStatement implements Statement {
    private static final String TIMED_OUT = "Statement cancelled due to timeout or client request";
    private static final String PRODUCES_ROWS = "Statement.executeUpdate() or Statement.executeLargeUpdate() cannot issue statements"
            + " that produce result sets.";
    private static final String CANCELLED = "Statement cancelled due to client request";

    final ShardwiseConnection connection;
    private final List<String> batch = new ArrayList<>();
    private ShardwiseResultSet result;
    private long updateCount = -1;
    /** A CALL's results not yet reached by getMoreResults (their cursors are read whole already). */
    private final java.util.ArrayDeque<StatementResult> pending = new java.util.ArrayDeque<>();
    private final List<Object> generatedKeys = new ArrayList<>();
    private boolean keysRequested;
    private boolean closed;
    private boolean closeOnCompletion;
    private long maxRows;
    private int fetchSize;
    private int queryTimeout;
    private volatile boolean timedOut;
    private volatile boolean cancelled;
    private boolean poolable;
    /** clearWarnings() since the last execution: getWarnings() answers null until the next one, as in Connector/J. */
    private boolean warningsCleared;
    /**
     * What getWarnings() returned since the last execution, and the area it read: as Connector/J's
     * statement, it keeps that chain and appends the connection's newer warnings once each.
     */
    private SQLWarning warnings;
    private Diagnostics warningsRead;

    ShardwiseStatement(ShardwiseConnection connection) {
        this.connection = connection;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlErrors.closed("statement");
        }
        connection.checkOpen();
    }

    /** Runs one statement and keeps its result; true when it is rows. */
    final boolean run(String sql, List<Object> params, boolean wantKeys) throws SQLException {
        checkOpen();
        clearResult();
        closePending();
        warningsCleared = false;
        warnings = null;
        warningsRead = null;
        keysRequested = wantKeys;
        generatedKeys.clear();
        StatementResult r = runTimed(sql, params);
        return keep(r);
    }

    private boolean keep(StatementResult r) throws SQLException {
        switch (r) {
            case StatementResult.Rows rows -> {
                result = new ShardwiseResultSet(this, connection, rows.cursor(), maxRows);
                updateCount = -1;
                return true;
            }
            case StatementResult.Update u -> {
                updateCount = u.affectedRows();
                addKeys(u);
                return false;
            }
            case StatementResult.Results all -> {
                if (all.outParameters() != null) {
                    outParameters(all.outParameters());
                }
                pending.addAll(all.results());
                return keep(pending.poll());
            }
        }
    }

    /** The markers that are OUT parameters (a CallableStatement's); null for any other statement. */
    java.util.BitSet outMarkers() {
        return null;
    }

    /** A CALL's OUT values (one row); a CallableStatement keeps them, any other statement has none. */
    void outParameters(io.shardwise.core.execute.ResultCursor cursor) throws SQLException {
        cursor.close();
    }

    /** The statement text normalized, when this statement already knows it; null lets the session normalize. */
    NormalizedSql normalized(String sql) {
        return null;
    }

    private StatementResult runTimed(String sql, List<Object> params) throws SQLException {
        timedOut = false;
        cancelled = false;
        stopTimer();
        ScheduledFuture<?> t = queryTimeout > 0 ? QueryTimer.schedule(() -> {
            timedOut = true;
            connection.cancel();
        }, queryTimeout) : null;
        timer = t;
        boolean rows = false;
        try {
            StatementResult r = connection.run(sql, normalized(sql), params, outMarkers());
            rows = r instanceof StatementResult.Rows;
            return r;
        } catch (SQLException e) {
            throw explain(e);
        } finally {
            if (!rows) {
                stopTimer(); // rows stream on: the timeout also bounds reading them, as Connector/J's reads whole results
            }
        }
    }

    /** The timer of the statement running, if a query timeout is set. */
    private volatile ScheduledFuture<?> timer;

    void stopTimer() {
        ScheduledFuture<?> t = timer;
        timer = null;
        if (t != null) {
            t.cancel(false);
        }
    }

    /** A failure caused by the query timeout or by cancel() reads as Connector/J reports it. */
    SQLException explain(SQLException e) {
        if (timedOut) {
            SQLTimeoutException t = new SQLTimeoutException(TIMED_OUT, e.getSQLState(), e.getErrorCode());
            t.initCause(e);
            return t;
        }
        if (cancelled) {
            return SqlErrors.of(CANCELLED, e.getSQLState(), e.getErrorCode(), e);
        }
        return e;
    }

    /**
     * Keys of one update, as Connector/J reports them: the keys Shardwise's generators filled in,
     * else {@code lastInsertId} and its successors, one per affected row (auto_increment_increment 1).
     */
    private void addKeys(StatementResult.Update u) {
        if (!u.generatedKeys().isEmpty()) {
            generatedKeys.addAll(u.generatedKeys());
        } else if (u.lastInsertId() != 0) {
            for (long i = 0; i < u.affectedRows(); i++) {
                generatedKeys.add(u.lastInsertId() + i);
            }
        }
    }

    final ResultSet rowsOf(String sql, List<Object> params) throws SQLException {
        if (!SqlShape.producesRows(sql)) {
            throw SqlErrors.illegal("Can not issue data manipulation statements with executeQuery().");
        }
        if (run(sql, params, false)) {
            return result;
        }
        // Connector/J answers an OK (SET, BEGIN ...) to executeQuery with an empty result
        result = ShardwiseResultSet.empty(this, connection);
        return result;
    }

    final long countOf(String sql, List<Object> params, boolean wantKeys) throws SQLException {
        if (SqlShape.producesRows(sql)) {
            throw new SQLException(PRODUCES_ROWS, "01S03");
        }
        if (run(sql, params, wantKeys)) {
            clearResult();
            throw SqlErrors.illegal("Statement.executeUpdate() or Statement.executeLargeUpdate() cannot issue statements that produce result sets.");
        }
        return updateCount;
    }

    private void clearResult() throws SQLException {
        if (result != null) {
            ShardwiseResultSet r = result;
            result = null;
            r.closeFromStatement();
        }
        updateCount = -1;
    }

    private void closePending() {
        for (StatementResult r : pending) {
            if (r instanceof StatementResult.Rows rows) {
                rows.cursor().close();
            }
        }
        pending.clear();
    }

    /** Called by a result set that closed itself (closeOnCompletion). */
    void resultClosed(ShardwiseResultSet rs) throws SQLException {
        stopTimer();
        if (result == rs) {
            result = null;
        }
        if (closeOnCompletion && !closed) {
            close();
        }
    }

    static int toInt(long count) {
        return count > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) count;
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        return rowsOf(sql, List.of());
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return toInt(countOf(sql, List.of(), false));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return toInt(countOf(sql, List.of(), autoGeneratedKeys == RETURN_GENERATED_KEYS));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return toInt(countOf(sql, List.of(), columnIndexes != null && columnIndexes.length > 0));
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return toInt(countOf(sql, List.of(), columnNames != null && columnNames.length > 0));
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        return countOf(sql, List.of(), false);
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return countOf(sql, List.of(), autoGeneratedKeys == RETURN_GENERATED_KEYS);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return countOf(sql, List.of(), columnIndexes != null && columnIndexes.length > 0);
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return countOf(sql, List.of(), columnNames != null && columnNames.length > 0);
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return run(sql, List.of(), false);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return run(sql, List.of(), autoGeneratedKeys == RETURN_GENERATED_KEYS);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return run(sql, List.of(), columnIndexes != null && columnIndexes.length > 0);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return run(sql, List.of(), columnNames != null && columnNames.length > 0);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return result;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return toInt(updateCount);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    /** The next of a CALL's results; any other statement has only one. */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current == KEEP_CURRENT_RESULT) {
            result = null;
        } else {
            clearResult();
        }
        updateCount = -1;
        StatementResult next = pending.poll();
        return next != null && keep(next);
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        if (!keysRequested) {
            throw SqlErrors.illegal("Generated keys not requested. You need to specify Statement.RETURN_GENERATED_KEYS to "
                    + "Statement.executeUpdate(), Statement.executeLargeUpdate() or Connection.prepareStatement().");
        }
        return ShardwiseResultSet.generatedKeys(this, connection, generatedKeys);
    }

    // --- batches

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] out = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            out[i] = toInt(counts[i]);
        }
        return out;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> items = List.copyOf(batch);
        batch.clear();
        return runBatch(items.size(), i -> items.get(i), i -> List.of());
    }

    interface BatchItem<T> {
        T at(int index) throws SQLException;
    }

    /**
     * Runs each entry; as Connector/J with continueBatchOnError, a failing entry is marked
     * EXECUTE_FAILED, the rest still run, and the first failure is thrown at the end.
     */
    final long[] runBatch(int size, BatchItem<String> sql, BatchItem<List<Object>> params) throws SQLException {
        boolean wantKeys = keysRequested;
        clearResult();
        generatedKeys.clear();
        long[] counts = new long[size];
        SQLException first = null;
        for (int i = 0; i < size; i++) {
            try {
                String text = sql.at(i);
                if (SqlShape.producesRows(text)) {
                    throw new SQLException(PRODUCES_ROWS, "01S03");
                }
                StatementResult r = runTimed(text, params.at(i));
                if (r instanceof StatementResult.Rows rows) {
                    rows.cursor().close();
                    throw SqlErrors.illegal("Statement.executeUpdate() cannot issue statements that produce result sets.");
                }
                StatementResult.Update u = (StatementResult.Update) r;
                counts[i] = u.affectedRows();
                addKeys(u);
            } catch (SQLException e) {
                counts[i] = EXECUTE_FAILED;
                if (first == null) {
                    first = e;
                }
                if (connection.isClosed()) {
                    break;
                }
            }
        }
        keysRequested = wantKeys;
        if (first != null) {
            throw new BatchUpdateException(first.getMessage(), first.getSQLState(), first.getErrorCode(), counts, first);
        }
        return counts;
    }

    void keysRequested(boolean requested) {
        keysRequested = requested;
    }

    // --- settings

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlErrors.illegal("max field size must not be negative: " + max);
        }
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return toInt(maxRows);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlErrors.illegal("setMaxRows() out of range. " + max + " < 0.");
        }
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw SqlErrors.illegal("Query timeout can not be negative.");
        }
        queryTimeout = seconds;
    }

    /** KILL QUERY on whatever the connection is running; safe from any thread. */
    @Override
    public void cancel() throws SQLException {
        if (closed) {
            return;
        }
        cancelled = true;
        connection.cancel();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        if (warningsCleared) {
            return null;
        }
        // the connection's last statement, whichever statement ran it: Connector/J reads the session's count
        Diagnostics last = connection.diagnostics();
        if (last != warningsRead && !connection.keptDiagnostics()) { // SHOW WARNINGS adds none of its own
            warningsRead = last;
            SQLWarning pending = Warnings.chain(last);
            if (warnings == null) {
                warnings = pending;
            } else if (pending != null) {
                warnings.setNextWarning(pending);
            }
        }
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warningsCleared = true;
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw SqlErrors.unsupported("Statement.setCursorName (positioned updates)");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw SqlErrors.unsupported("fetch direction " + direction + " (results are forward-only)");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /**
     * Recorded only: results always stream with bounded memory, so neither a row count nor
     * Connector/J's {@code Integer.MIN_VALUE} streaming hint changes anything.
     */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0 && rows != Integer.MIN_VALUE) {
            throw SqlErrors.illegal("Illegal value for setFetchSize().");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        try {
            closePending();
            clearResult();
        } finally {
            stopTimer();
            closed = true;
            batch.clear();
            connection.closed(this);
        }
    }

    void closeQuietly() {
        try {
            close();
        } catch (SQLException ignored) {
            // the connection is closing; it releases everything itself
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlErrors.unwrapSelf(this, iface, "Shardwise statement");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
