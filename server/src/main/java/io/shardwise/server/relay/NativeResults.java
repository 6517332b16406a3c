package io.shardwise.server.relay;

import io.shardwise.core.RelaySession;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.ColumnDefinition;
import io.shardwise.server.protocol.ErrPacket;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * A unit's response read whole off a relay connection ({@link ResponseReader}) as core's executor
 * would have answered it through JDBC: its result (rows with logical column definitions, or an
 * update count), its warnings in logical names, a backend's error. One conversion for every native
 * run of core's units ({@link PinnedTransaction}, {@link AutocommitReads}), so they answer alike.
 */
final class NativeResults {
    private NativeResults() {}

    /** Records {@code r}'s warnings (if any) as unit {@code index}'s, in logical names. */
    static void warnings(RelaySession session, ExecutionUnit unit, int index, ResponseReader.Response r, Diagnostics diagnostics) {
        if (r.warnings() > 0) {
            List<Condition> logical = new ArrayList<>(r.conditions().size());
            for (Condition w : r.conditions()) {
                logical.add(new Condition(w.level(), w.code(), session.translate(unit.backend(), w.code(), w.message())));
            }
            diagnostics.unit(index, r.warnings(), logical);
        }
    }

    static UnitResult result(ExecutionUnit unit, ResponseReader.Response r, String logicalSchema) {
        return r.ok() != null ? new UnitResult.Update(r.ok().affectedRows(), r.ok().lastInsertId(), r.ok().warnings(), r.ok().info())
                : new UnitResult.Rows(new RowsCursor(columns(unit, r.columns(), logicalSchema), r.rows()));
    }

    static List<Column> columns(ExecutionUnit unit, List<ColumnDefinition> definitions, String logicalSchema) {
        List<Column> columns = new ArrayList<>(definitions.size());
        for (ColumnDefinition d : definitions) {
            columns.add(new Column(d.schema().isEmpty() ? "" : logicalSchema, unit.logicalTable(d.table()),
                    unit.logicalTable(d.orgTable()), d.name(), d.orgName(), d.collation(), DriverColumns.length(d), d.type(),
                    DriverColumns.flags(d), DriverColumns.decimals(d)));
        }
        return List.copyOf(columns);
    }

    /** A backend's ERR as the JDBC executor reports it: its errno and SQLSTATE, the message in logical names. */
    static BackendException error(RelaySession session, String backend, ErrPacket err) {
        return new BackendException(backend, new SQLException(err.message(), err.sqlState(), err.errno()),
                session.translate(backend, err.errno(), err.message()));
    }

    /**
     * A backend connection that broke, could not be opened or logged into: 1105 as the relay's and
     * the JDBC executor's lost or unreachable backend (never a Java exception's name or [BUG]).
     */
    static ShardwiseException lostError(String backend, Throwable cause) {
        return cause instanceof ShardwiseException s ? s : new ShardwiseException(cause, ErrorCode.SHARD_UNAVAILABLE, backend, reason(cause));
    }

    /** What went wrong in words: a closed channel's exception has no message. */
    static String reason(Throwable cause) {
        String message = cause.getMessage();
        return message == null || message.isBlank() ? "the connection was lost" : message;
    }

    /**
     * The session thread's wait for what the loop does on its behalf: a {@link ShardwiseException} as it was
     * thrown, an interrupt as 1317, anything else a bug of {@code what}.
     */
    static <T> T await(java.util.concurrent.CompletableFuture<T> done, String what) {
        try {
            return done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new io.shardwise.core.error.ShardwiseException(io.shardwise.core.error.ErrorCode.QUERY_INTERRUPTED);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof io.shardwise.core.error.ShardwiseException s) {
                throw s;
            }
            throw io.shardwise.core.error.ShardwiseException.bug(what, e.getCause());
        }
    }
}
