package io.shardwise.core.execute;

import com.mysql.cj.jdbc.StatementImpl;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.List;
import java.util.Set;

/** Runs one execution unit on a connection that is already in the session's state. */
final class UnitRunner {
    /** Called exactly once per unit when it stops using its connection; {@code failure} null on success. */
    interface UnitEnd {
        void ended(Lease lease, SQLException failure);
    }

    private UnitRunner() {}

    /**
     * @param stream true: rows come back as a {@link StreamingCursor} that keeps the connection
     *     until closed; false: they are read whole into a {@link BufferedCursor} here
     */
    static UnitResult run(StatementRun run, Lease lease, ExecutionUnit unit, String logicalSchema, boolean stream,
                          UnitEnd end, Set<StreamingCursor> open, BackendWarnings.Slot warnings) {
        try {
            run.enter(lease);
        } catch (ShardwiseException e) {
            end.ended(lease, null);
            throw e;
        }
        Statement statement = null;
        StreamingCursor cursor;
        try {
            statement = statement(lease, unit);
            boolean rows = unit.params().isEmpty() ? statement.execute(unit.sql()) : ((PreparedStatement) statement).execute();
            if (!rows) {
                UnitResult.Update update = update(lease, statement);
                warnings.collect(lease);
                lease.finished(unit.sql(), statement);
                end.ended(lease, null);
                return update;
            }
            ResultSet rs = statement.getResultSet();
            List<Column> columns = lease.columns(unit, !unit.params().isEmpty(), rs.getMetaData(), logicalSchema);
            cursor = new StreamingCursor(run, lease, unit.sql(), statement, rs, columns, end, open, warnings);
        } catch (SQLException e) {
            BackendPools.closeQuietly(statement);
            end.ended(lease, e);
            throw Errors.of(lease.pools(), lease.backend(), e);
        } catch (RuntimeException e) {
            // a failure of ours after the backend answered: closing the statement reads its open
            // streaming result to the end, so the connection can run the next statement (left open,
            // every later statement on it failed with "Streaming result set ... is still active")
            BackendPools.closeQuietly(statement);
            end.ended(lease, null);
            throw Errors.of(lease.pools(), lease.backend(), e);
        }
        return new UnitResult.Rows(stream ? cursor : BufferedCursor.drain(cursor));
    }

    private static Statement statement(Lease lease, ExecutionUnit unit) throws SQLException {
        if (unit.params().isEmpty()) {
            Statement s = lease.connection().createStatement();
            // Connector/J streams rows one by one only with exactly this fetch size
            s.setFetchSize(Integer.MIN_VALUE);
            return s;
        }
        PreparedStatement ps = lease.prepare(unit.sql());
        bind(ps, unit.params());
        return ps;
    }

    private static void bind(PreparedStatement ps, List<Object> params) throws SQLException {
        for (int i = 0; i < params.size(); i++) {
            switch (params.get(i)) {
                case null -> ps.setNull(i + 1, Types.NULL);
                case byte[] bytes -> ps.setBytes(i + 1, bytes);
                // BigInteger (unsigned BIGINT) included: Connector/J writes its digits as they are
                case Object value -> ps.setObject(i + 1, value);
            }
        }
    }

    /** The OK packet's numbers as Connector/J parsed them: affected rows, last insert id, warning count. */
    private static UnitResult.Update update(Lease lease, Statement statement) throws SQLException {
        long affected = statement.getLargeUpdateCount();
        long lastInsertId = statement.unwrap(StatementImpl.class).getLastInsertID();
        int warnings = BackendWarnings.count(lease);
        return new UnitResult.Update(affected, lastInsertId, warnings);
    }
}
