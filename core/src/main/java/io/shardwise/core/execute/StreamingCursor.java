package io.shardwise.core.execute;

import io.shardwise.core.error.ShardwiseException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Rows read one at a time from a Connector/J streaming result set ({@code fetchSize =
 * Integer.MIN_VALUE}): memory stays at one row whatever the result size, and the backend connection
 * is busy until the cursor ends.
 *
 * <p>The cursor ends exactly once, when {@link #next} reaches the end or fails, or on
 * {@link #close}; ending closes the statement and hands the connection back through its
 * {@link UnitRunner.UnitEnd}. Closing early first sends KILL QUERY, since Connector/J would
 * otherwise read every remaining row to free the connection.
 */
final class StreamingCursor implements ResultCursor {
    private final StatementRun run;
    private final Lease lease;
    private final String sql;
    private final Statement statement;
    private final ResultSet rows;
    private final List<Column> columns;
    private final UnitRunner.UnitEnd end;
    private final Set<StreamingCursor> open;
    private final BackendWarnings.Slot warnings;
    private final AtomicBoolean ended = new AtomicBoolean();

    StreamingCursor(StatementRun run, Lease lease, String sql, Statement statement, ResultSet rows, List<Column> columns,
                    UnitRunner.UnitEnd end, Set<StreamingCursor> open, BackendWarnings.Slot warnings) {
        this.run = run;
        this.lease = lease;
        this.sql = sql;
        this.statement = statement;
        this.rows = rows;
        this.columns = columns;
        this.end = end;
        this.open = open;
        this.warnings = warnings;
        open.add(this);
    }

    /** Rows read on close before deciding that a result is long and must be killed. */
    static final int DRAIN_BEFORE_KILL = 16;

    Lease lease() {
        return lease;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (ended.get()) {
            return false;
        }
        try {
            if (rows.next()) {
                return true;
            }
        } catch (SQLException e) {
            end(e, false);
            ShardwiseException failure = Errors.of(lease.pools(), lease.backend(), e);
            run.fail(failure); // the statement has failed: stop the sibling units as well
            throw run.explain(failure);
        }
        end(null, true);
        return false;
    }

    @Override
    public byte[] get(int index) {
        try {
            return rows.getBytes(index + 1);
        } catch (SQLException e) {
            throw Errors.of(lease.pools(), lease.backend(), e);
        }
    }

    @Override
    public void close() {
        end(null, finishesSoon());
    }

    /**
     * Whether the result ends within a few more rows. Callers often close right after the last row
     * without asking for the end (a point select read once): reading on briefly then is far cheaper
     * than KILL QUERY, which needs a connection of its own. A long result is still killed.
     */
    private boolean finishesSoon() {
        if (ended.get()) {
            return true;
        }
        try {
            for (int i = 0; i < DRAIN_BEFORE_KILL; i++) {
                if (!rows.next()) {
                    return true;
                }
            }
        } catch (SQLException e) {
            return false;
        }
        return false;
    }

    private void end(SQLException failure, boolean exhausted) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        if (failure == null && !exhausted) {
            lease.kill();
        }
        SQLException drain = null;
        try {
            rows.close(); // reads what is left: nothing after a failure, an ERR 1317 after a kill
        } catch (SQLException e) {
            drain = e;
        }
        if (failure == null && exhausted && drain == null) {
            try {
                warnings.collect(lease); // the EOF just read carried the count; the connection is still ours
            } catch (SQLException e) {
                drain = e;
            }
        }
        if (failure == null && exhausted && drain == null) {
            lease.finished(sql, statement); // read to its end without a kill: the statement may serve the next unit
        } else {
            BackendPools.closeQuietly(statement);
        }
        open.remove(this);
        end.ended(lease, failure != null ? failure : Errors.connectionLost(drain) ? drain : null);
    }
}
