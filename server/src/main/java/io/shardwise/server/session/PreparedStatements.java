package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sql.normalize.Normalizer;
import io.shardwise.server.protocol.BinaryRow;
import io.shardwise.server.protocol.ExecuteRequest;
import io.shardwise.server.protocol.MalformedPacketException;
import io.shardwise.server.protocol.PrepareOk;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import io.shardwise.server.protocol.Wire;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server-side prepared statements of one connection (COM_STMT_*), run through the engine's
 * {@code ?}-parameter path and answered in the binary protocol. Prepare only counts the markers:
 * the statement is analysed (and errors reported) at its first execute, and the prepare reply
 * announces 0 columns, so each execute's result set carries its own column definitions.
 *
 * <p>Called serially by the connection's {@link CommandHandler}; not thread-safe. Closing the
 * connection drops every statement (they hold no backend resources between executes).
 */
final class PreparedStatements {
    /** MySQL's default max_prepared_stmt_count, applied per connection. */
    static final int MAX_STATEMENTS = 16_382;

    private final EngineSession session;
    private final Supplier<ServerStatus> status;
    private final Map<Integer, Prepared> statements = new HashMap<>();
    private int lastId;

    PreparedStatements(EngineSession session, Supplier<ServerStatus> status) {
        this.session = session;
        this.status = status;
    }

    /** One statement: its text, marker count, the types last bound and the long data sent since the last execute. */
    private static final class Prepared {
        final String sql;
        final int parameterCount;
        int[] boundTypes;
        ByteArrayOutputStream[] longData;

        Prepared(String sql, int parameterCount) {
            this.sql = sql;
            this.parameterCount = parameterCount;
        }
    }

    /** Forgets every statement (COM_RESET_CONNECTION does, as in MySQL). */
    void clear() {
        statements.clear();
    }

    void handle(StmtCommand command, ResponseWriter out) {
        try {
            switch (command) {
                case StmtCommand.Prepare p -> prepare(p.sql(), out);
                case StmtCommand.Execute e -> execute(e, out);
                case StmtCommand.SendLongData d -> sendLongData(d); // no reply, even for an unknown id (as MySQL)
                case StmtCommand.Close c -> statements.remove(c.statementId()); // no reply
                case StmtCommand.Reset r -> {
                    find(r.statementId(), "mysqld_stmt_reset").longData = null;
                    out.ok(0, 0, status.get(), 0);
                }
            }
        } catch (ShardwiseException e) {
            out.error(e.errno(), e.sqlState(), e.getMessage());
        } catch (MalformedPacketException e) {
            out.error(1210, "HY000", "Incorrect arguments to mysqld_stmt_execute");
        } catch (RuntimeException e) {
            out.error(1105, "HY000", "[BUG] " + e);
        }
    }

    private void prepare(String sql, ResponseWriter out) {
        if (statements.size() >= MAX_STATEMENTS) {
            out.error(1461, "42000", "Can't create more than max_prepared_stmt_count statements (current value: "
                    + MAX_STATEMENTS + ")");
            return;
        }
        int parameters = Normalizer.normalize(sql).parameterCount();
        int id = ++lastId;
        statements.put(id, new Prepared(sql, parameters));
        out.send(new PrepareOk(id, 0, parameters, 0).encode(out.channel().alloc()));
        if (parameters > 0) {
            for (int i = 0; i < parameters; i++) {
                out.send(PrepareOk.PARAMETER.encode(out.channel().alloc()));
            }
            out.endOfColumns(status.get());
        }
        out.channel().flush();
    }

    private Prepared find(int id, String command) {
        Prepared p = statements.get(id);
        if (p == null) {
            throw new ShardwiseException(ErrorCode.UNKNOWN_STATEMENT_HANDLER, Integer.toUnsignedString(id), command);
        }
        return p;
    }

    private void sendLongData(StmtCommand.SendLongData d) {
        Prepared p = statements.get(d.statementId());
        if (p == null || d.parameter() >= p.parameterCount) {
            return; // MySQL reports this at the next execute; the client is not waiting for a reply here
        }
        if (p.longData == null) {
            p.longData = new ByteArrayOutputStream[p.parameterCount];
        }
        if (p.longData[d.parameter()] == null) {
            p.longData[d.parameter()] = new ByteArrayOutputStream();
        }
        p.longData[d.parameter()].writeBytes(d.data());
    }

    private void execute(StmtCommand.Execute e, ResponseWriter out) {
        Prepared p = find(e.statementId(), "mysqld_stmt_execute");
        byte[][] longData = null;
        if (p.longData != null) {
            longData = new byte[p.parameterCount][];
            for (int i = 0; i < longData.length; i++) {
                longData[i] = p.longData[i] == null ? null : p.longData[i].toByteArray();
            }
            p.longData = null; // long data is for one execute
        }
        ExecuteRequest request = ExecuteRequest.decode(Unpooled.wrappedBuffer(e.body()), p.parameterCount, p.boundTypes, longData);
        p.boundTypes = request.types();
        switch (session.execute(p.sql, request.values())) {
            case StatementResult.Rows rows -> stream(rows.cursor(), out);
            case StatementResult.Update u -> out.ok(u.affectedRows(), u.lastInsertId(), status.get(), u.warnings());
        }
    }

    /** A binary result set: column count, definitions, binary rows, end; paced by the channel. Closes the cursor. */
    private void stream(ResultCursor cursor, ResponseWriter out) {
        try (cursor) {
            List<Column> columns = cursor.columns();
            int n = columns.size();
            ByteBuf count = out.channel().alloc().buffer(9);
            Wire.writeLenenc(count, n);
            out.send(count);
            int[] types = new int[n];
            for (int i = 0; i < n; i++) {
                Column c = columns.get(i);
                types[i] = c.mysqlType();
                out.send(ColumnDefinitions.of(c).encode(out.channel().alloc()));
            }
            out.endOfColumns(status.get());
            BinaryRow encoder = new BinaryRow(types);
            byte[][] cells = new byte[n][]; // reused: the cursor's arrays are valid until next(), and encode copies them
            while (cursor.next()) {
                for (int i = 0; i < n; i++) {
                    cells[i] = cursor.get(i);
                }
                if (!out.sendPaced(encoder.encode(out.channel().alloc(), cells))) {
                    return; // the client left: closing the cursor releases the backend work
                }
            }
            out.endOfRows(status.get(), 0);
        }
    }
}
