package io.shardwise.core.execute;

import com.mysql.cj.jdbc.ClientPreparedStatement;
import com.mysql.cj.jdbc.JdbcStatement;
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
            boolean rows = unit.params().isEmpty() ? statement.execute(unit.sql())
                    : unit.params().get(0) instanceof LocalData data ? LocalData.execute(lease.physical(), statement, unit.sql(), data)
                    : ((PreparedStatement) statement).execute();
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

    /**
     * Runs a statement that may return several results (CALL) and reads them all, in order, before
     * the connection goes back: each result set whole (a result set after it cannot be reached until
     * this one is read), then the final update count ({@link UnitResult.Results}).
     */
    static UnitResult runAll(StatementRun run, Lease lease, ExecutionUnit unit, String logicalSchema, UnitEnd end,
                             BackendWarnings.Slot warnings) {
        try {
            run.enter(lease);
        } catch (ShardwiseException e) {
            end.ended(lease, null);
            throw e;
        }
        Statement statement = null;
        try {
            boolean prepared = !unit.params().isEmpty();
            if (prepared) {
                statement = lease.prepare(unit.sql());
                bind((PreparedStatement) statement, unit.params());
            } else {
                statement = lease.connection().createStatement(); // no streaming: the next result follows this one's rows
            }
            boolean rows = prepared ? ((PreparedStatement) statement).execute() : statement.execute(unit.sql());
            List<UnitResult> results = new java.util.ArrayList<>();
            while (true) {
                if (rows) {
                    try (ResultSet rs = statement.getResultSet()) {
                        results.add(new UnitResult.Rows(read(lease, unit, prepared, rs, logicalSchema)));
                    }
                } else if (statement.getLargeUpdateCount() == -1) {
                    break;
                } else {
                    results.add(update(lease, statement));
                }
                rows = statement.getMoreResults();
            }
            warnings.collect(lease);
            lease.finished(unit.sql(), statement);
            end.ended(lease, null);
            return new UnitResult.Results(results);
        } catch (SQLException e) {
            BackendPools.closeQuietly(statement);
            end.ended(lease, e);
            throw Errors.of(lease.pools(), lease.backend(), e);
        } catch (RuntimeException e) {
            BackendPools.closeQuietly(statement);
            end.ended(lease, null);
            throw Errors.of(lease.pools(), lease.backend(), e);
        }
    }

    private static BufferedCursor read(Lease lease, ExecutionUnit unit, boolean prepared, ResultSet rs, String logicalSchema)
            throws SQLException {
        List<Column> columns = lease.columns(unit, prepared, rs.getMetaData(), logicalSchema);
        List<byte[][]> rows = new java.util.ArrayList<>();
        while (rs.next()) {
            byte[][] row = new byte[columns.size()][];
            for (int i = 0; i < row.length; i++) {
                row[i] = rs.getBytes(i + 1);
            }
            rows.add(row);
        }
        return BufferedCursor.of(columns, rows);
    }

    private static Statement statement(Lease lease, ExecutionUnit unit) throws SQLException {
        if (unit.params().size() == 1 && unit.params().get(0) instanceof LocalData) {
            return lease.connection().createStatement();
        }
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
                // A Double (or Float) is a DOUBLE: Connector/J's client-side prepare writes 1.5 as the DECIMAL
                // literal 1.5, so the literal goes in as written, with an exponent (InlineParameters.literal)
                case Double d -> real(ps, i + 1, d);
                case Float f -> real(ps, i + 1, f);
                // the server face's DATE, DATETIME, TIME: CAST to its type, as the backend types the bound value
                case TemporalText t -> ps.unwrap(ClientPreparedStatement.class).setBytes(i + 1,
                        t.literal().getBytes(java.nio.charset.StandardCharsets.US_ASCII), false);
                // BigInteger (unsigned BIGINT) included: Connector/J writes its digits as they are
                case Object value -> ps.setObject(i + 1, value);
            }
        }
    }

    /**
     * Binds a real's literal text unquoted: ASCII digits, a point and an exponent, nothing to escape. The
     * exponent signed as Connector/J writes it (1.0E+20), so a label made of the value reads as through it.
     */
    private static void real(PreparedStatement ps, int index, Object value) throws SQLException {
        String text = com.mysql.cj.util.StringUtils.fixDecimalExponent(InlineParameters.literal(value, null));
        byte[] literal = text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        ps.unwrap(ClientPreparedStatement.class).setBytes(index, literal, false);
    }

    /** The OK packet's numbers as Connector/J parsed them: affected rows, last insert id, warning count. */
    private static UnitResult.Update update(Lease lease, Statement statement) throws SQLException {
        long affected = statement.getLargeUpdateCount();
        long lastInsertId = statement.unwrap(StatementImpl.class).getLastInsertID();
        int warnings = BackendWarnings.count(lease);
        String info = statement.unwrap(JdbcStatement.class).getResultSetInternal() instanceof com.mysql.cj.protocol.Resultset r
                && r.getServerInfo() != null ? r.getServerInfo() : "";
        return new UnitResult.Update(affected, lastInsertId, warnings, info);
    }
}
