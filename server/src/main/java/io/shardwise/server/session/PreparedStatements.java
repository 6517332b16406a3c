package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.TemporalText;
import io.shardwise.server.protocol.BinaryRow;
import io.shardwise.server.protocol.BinaryType;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.ExecuteRequest;
import io.shardwise.server.protocol.HeldColumns;
import io.shardwise.server.protocol.MalformedPacketException;
import io.shardwise.server.protocol.PrepareOk;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server-side prepared statements of one connection (COM_STMT_*), run through the engine's
 * {@code ?}-parameter path and answered in the binary protocol. Prepare analyses the statement and
 * announces its result columns as the engine describes them before running
 * ({@link EngineSession#describe}); each execute sends its own definitions again, as MySQL does —
 * except to a client that negotiated MariaDB's metadata cache ({@link Capabilities#cachesMetadata}):
 * there an execute whose definitions are byte for byte those the client holds for the statement
 * (from its prepare or its last execute that sent them, {@link HeldColumns}) sends the column count
 * with "metadata follows = 0" and no definitions, as MariaDB does; any other definitions go with
 * byte 1 and are held from then on. A prepared CALL's result sets always carry theirs (MariaDB sends
 * them from inside a procedure). The relayed execute keeps the same record ({@link RelayableExecute#held}).
 * An execute may open a cursor that COM_STMT_FETCH reads in batches ({@link StatementCursor}).
 *
 * <p>Called serially by the connection's {@link CommandHandler}; not thread-safe. A statement holds
 * backend resources only while its cursor is open; {@link #clear} (COM_RESET_CONNECTION, the
 * connection's end) closes every cursor.
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

    /** One statement: its text, marker count, the types last bound, the long data sent since the last execute, its open cursor. */
    private static final class Prepared {
        final String sql;
        final int parameterCount;
        /** The labels the prepare announced: a server-side prepared item keeps its {@code ?} in its name. */
        final List<Column> described;
        int[] boundTypes;
        ByteArrayOutputStream[] longData;
        /** The definitions the client holds for this statement (under MariaDB's metadata cache; unused otherwise). */
        final HeldColumns held;
        StatementCursor cursor;

        Prepared(String sql, int parameterCount, List<Column> described) {
            this.sql = sql;
            this.parameterCount = parameterCount;
            this.described = described;
            this.held = new HeldColumns(described.size());
        }

        void closeCursor() {
            if (cursor != null) {
                StatementCursor open = cursor;
                cursor = null;
                open.close();
            }
        }
    }

    /**
     * A COM_STMT_EXECUTE the packet relay may run instead of this class ({@code RelayExecutor#relayExecute}):
     * its statement's text, the values it binds (decoded as an execute here would decode them, for
     * routing), each parameter's type and flag byte, where the values start in the packet, the definitions its
     * client holds (MariaDB's metadata cache: the relay and the loop's merges keep the record as {@link #columns}
     * here does), and the columns its prepare announced (whose names a merged result the relay answers takes, as
     * {@link #columns} here).
     */
    record RelayableExecute(String sql, List<Object> values, int[] types, int valuesOffset, HeldColumns held,
                            List<Column> described) {}

    /**
     * The execute in {@code payload} (command byte first) if the relay may run it: a known statement
     * with no cursor open and no long data collected, no cursor asked for, parameters that decode,
     * text values that travel as they are to the relay connections, whose character_set_client is utf8mb4
     * (the client's in UTF-8, or ASCII in any other character set) and every text value text in it. Else
     * null: this class answers it as ever.
     * Called on the event loop while no command runs here; binding the request's types is what an
     * execute here would do first, so a fallback decodes the packet the same way.
     */
    RelayableExecute relayable(ByteBuf payload) {
        if (payload.readableBytes() < 10) {
            return null;
        }
        int start = payload.readerIndex();
        Prepared p = statements.get(payload.getIntLE(start + 1));
        if (p == null || p.cursor != null || p.longData != null || payload.getByte(start + 5) != 0) {
            return null;
        }
        ExecuteRequest request;
        try {
            request = ExecuteRequest.decode(payload.slice(start + 5, payload.readableBytes() - 5), p.parameterCount, p.boundTypes,
                    null, session.clientCharset()::parameter);
        } catch (MalformedPacketException e) {
            return null;
        }
        int offset = 5 + 5;
        boolean utf8 = session.clientCharset().isUtf8();
        if (p.parameterCount > 0) {
            offset += (p.parameterCount + 7) / 8;
            boolean bound = payload.getByte(start + offset) == 1;
            offset += 1 + (bound ? 2 * p.parameterCount : 0);
            for (int i = 0; i < p.parameterCount; i++) {
                int type = request.types()[i] & 0xFF;
                Object value = request.values().get(i);
                if (!sameBoundAsInlined(type) || value instanceof byte[] && !BinaryType.isBlob(type)) {
                    return null; // text bytes that are no UTF-8: the executor binds them as bytes
                }
                if (!utf8 && !ascii(value)) {
                    return null; // latin1 bytes the relay connection (character_set_client utf8mb4) would read as UTF-8
                }
            }
        }
        p.boundTypes = request.types();
        return new RelayableExecute(p.sql, temporals(request, null), request.types(), offset, p.held, p.described);
    }

    /**
     * Whether a value of this type compares alike bound on the backend and written as a literal, as
     * the executor's Connector/J writes it (client-side prepare): integers, decimals, text, bytes and
     * NULL do, and dates and times, which this session writes as CASTs to their type
     * ({@link io.shardwise.core.execute.TemporalText}); a FLOAT bound is not the decimal its text reads
     * as, a DOUBLE is typed where the literal would be a decimal.
     */
    /**
     * Whether a bound value's bytes read the same in every client character set (ASCII): the relay forwards the client's
     * bytes to a connection whose character_set_client is utf8mb4, which reads them as the client's own only then.
     */
    private static boolean ascii(Object value) {
        if (value instanceof String text) {
            for (int i = 0; i < text.length(); i++) {
                if (text.charAt(i) >= 0x80) {
                    return false;
                }
            }
        } else if (value instanceof byte[] bytes) {
            for (byte b : bytes) {
                if (b < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean sameBoundAsInlined(int type) {
        return switch (type) {
            case BinaryType.NULL, BinaryType.TINY, BinaryType.SHORT, BinaryType.LONG, BinaryType.INT24, BinaryType.LONGLONG,
                 BinaryType.DECIMAL, BinaryType.NEWDECIMAL, BinaryType.VARCHAR, BinaryType.VAR_STRING, BinaryType.STRING,
                 BinaryType.TINY_BLOB, BinaryType.MEDIUM_BLOB, BinaryType.LONG_BLOB, BinaryType.BLOB,
                 BinaryType.DATE, BinaryType.DATETIME, BinaryType.TIMESTAMP, BinaryType.TIME -> true;
            default -> false;
        };
    }

    /**
     * The request's values, with a date or time java.time cannot hold (a zero date, a TIME that is
     * negative or beyond a day: text from {@link ExecuteRequest}) as the temporal it was bound as, so
     * the backend types it as a bound one; the rest (java.time values too: routing reads them) as they
     * are. A value sent as long data stays text, as the bytes it was.
     */
    private static List<Object> temporals(ExecuteRequest request, byte[][] longData) {
        List<Object> values = request.values();
        Object[] typed = null;
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) instanceof String text && (longData == null || longData[i] == null)) {
                TemporalText.Kind kind = switch (request.types()[i] & 0xFF) {
                    case BinaryType.DATE -> TemporalText.Kind.DATE;
                    case BinaryType.DATETIME, BinaryType.TIMESTAMP -> TemporalText.Kind.DATETIME;
                    case BinaryType.TIME -> TemporalText.Kind.TIME;
                    default -> null;
                };
                if (kind != null) {
                    if (typed == null) {
                        typed = values.toArray();
                    }
                    typed[i] = new TemporalText(kind, text);
                }
            }
        }
        return typed == null ? values : java.util.Arrays.asList(typed);
    }

    /** Forgets every statement and closes their cursors (COM_RESET_CONNECTION does, as in MySQL, and the connection's end). */
    void clear() {
        for (Prepared p : statements.values()) {
            p.closeCursor();
        }
        statements.clear();
    }

    /**
     * Before a command that may run a statement: a cursor opened inside a transaction streams on the
     * transaction's connection, which that statement may need, so it reads the rest of its rows now.
     */
    void beforeCommand(Command command) {
        if (!mayRunStatements(command)) {
            return;
        }
        for (Prepared p : statements.values()) {
            if (p.cursor != null && p.cursor.inTransaction()) {
                p.cursor.detach();
            }
        }
    }

    private static boolean mayRunStatements(Command command) {
        return switch (command) {
            case StmtCommand.Execute e -> true;
            case StmtCommand.Prepare p -> false; // describing borrows a pooled connection of its own
            case StmtCommand.Fetch f -> false;
            case StmtCommand.SendLongData d -> false;
            case StmtCommand.Close c -> false;
            case StmtCommand.Reset r -> false;
            case Command.Query q -> true;
            case Command.InitDb d -> true;
            case ConnectionCommand c -> true;
            case Command.Ping p -> false;
            case Command.Quit q -> false;
            case Command.Unsupported u -> false;
        };
    }

    void handle(StmtCommand command, ResponseWriter out) {
        try {
            switch (command) {
                case StmtCommand.Prepare p -> prepare(session.decode(p.sql()), out);
                case StmtCommand.Execute e -> execute(e, out);
                case StmtCommand.Fetch f -> fetch(f, out);
                case StmtCommand.SendLongData d -> sendLongData(d); // no reply, even for an unknown id (as MySQL)
                case StmtCommand.Close c -> { // no reply
                    Prepared p = statements.remove(c.statementId());
                    if (p != null) {
                        p.closeCursor();
                    }
                }
                case StmtCommand.Reset r -> {
                    Prepared p = find(r.statementId(), "mysqld_stmt_reset");
                    p.longData = null;
                    p.closeCursor();
                    out.ok(0, 0, status.get(), 0);
                }
            }
        } catch (ShardwiseException e) {
            out.error(e.errno(), e.sqlState(), e.wireMessage());
        } catch (MalformedPacketException e) {
            out.error(ErrorCode.WRONG_ARGUMENTS, "mysqld_stmt_execute");
        } catch (RuntimeException e) {
            ShardwiseException bug = ShardwiseException.bug("in a prepared-statement command", e);
            out.error(bug.errno(), bug.sqlState(), bug.wireMessage());
        }
    }

    private void prepare(String sql, ResponseWriter out) {
        if (statements.size() >= MAX_STATEMENTS) {
            out.error(ErrorCode.TOO_MANY_PREPARED_STATEMENTS, MAX_STATEMENTS);
            return;
        }
        int parameters = session.normalize(sql).parameterCount();
        List<Column> columns = session.describe(sql);
        int id = ++lastId;
        Prepared prepared = new Prepared(sql, parameters, columns);
        statements.put(id, prepared);
        out.send(new PrepareOk(id, columns.size(), parameters, 0).encode(out.alloc()));
        if (parameters > 0) {
            for (int i = 0; i < parameters; i++) {
                out.send(PrepareOk.PARAMETER.encode(out.alloc()));
            }
            out.endOfColumns(status.get());
        }
        if (!columns.isEmpty()) {
            ByteBuf held = out.capabilities().cachesMetadata() ? out.alloc().heapBuffer(64 * columns.size()) : null;
            try {
                for (Column c : columns) {
                    ByteBuf definition = ColumnDefinitions.of(c).encode(out.alloc());
                    if (held != null) {
                        HeldColumns.append(held, definition); // what the client holds from now on
                    }
                    out.send(definition);
                }
                if (held != null) {
                    prepared.held.sendAgain(held, held.readerIndex(), held.readableBytes());
                }
            } finally {
                if (held != null) {
                    held.release();
                }
            }
            out.endOfColumns(status.get());
        }
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
        p.closeCursor(); // as MySQL: executing again closes the statement's cursor
        byte[][] longData = null;
        if (p.longData != null) {
            longData = new byte[p.parameterCount][];
            for (int i = 0; i < longData.length; i++) {
                longData[i] = p.longData[i] == null ? null : p.longData[i].toByteArray();
            }
            p.longData = null; // long data is for one execute
        }
        // text parameters are bytes in the client's character set; ones that are no text in it are bound as bytes
        ExecuteRequest request = ExecuteRequest.decode(Unpooled.wrappedBuffer(e.body()), p.parameterCount, p.boundTypes, longData,
                session.clientCharset()::parameter);
        p.boundTypes = request.types();
        boolean inTransaction = session.inTransaction() || !session.autocommit();
        List<Object> values = temporals(request, longData);
        StatementResult result = request.opensCursor() ? session.executeStreaming(p.sql, values) : session.execute(p.sql, values);
        switch (result) {
            case StatementResult.Rows rows when request.opensCursor() -> {
                int changed = p.held.countChanged(rows.cursor().columns().size());
                BinaryRow encoder = columns(rows.cursor(), p.described, out, p.held);
                p.cursor = new StatementCursor(rows.cursor(), encoder, inTransaction);
                // the one packet after the definitions says a cursor exists; rows wait for COM_STMT_FETCH
                out.endOfRows(status.get().with(ServerStatus.CURSOR_EXISTS | changed), 0);
            }
            case StatementResult.Rows rows ->
                    stream(rows.cursor(), p.described, out, false, p.held, p.held.countChanged(rows.cursor().columns().size()));
            case StatementResult.Update u -> {
                int changed = p.held.countChanged(0);
                out.ok(u.affectedRows(), u.lastInsertId(), changed == 0 ? status.get() : status.get().with(changed), u.warnings(),
                        u.info());
            }
            case StatementResult.Results all -> results(all.results(), out);
        }
    }

    /**
     * A prepared CALL's results, as MySQL sends them: each result set in binary rows with
     * SERVER_MORE_RESULTS_EXISTS in its end packet, then the final OK; cursors not reached (the
     * client left) are closed.
     */
    private void results(List<StatementResult> results, ResponseWriter out) {
        int i = 0;
        try {
            for (; i < results.size(); i++) {
                boolean more = i < results.size() - 1;
                switch (results.get(i)) {
                    case StatementResult.Rows rows -> {
                        if (!stream(rows.cursor(), List.of(), out, more, null, 0)) {
                            return;
                        }
                    }
                    case StatementResult.Update u -> out.ok(u.affectedRows(), u.lastInsertId(),
                            more ? status.get().withMoreResults() : status.get(), u.warnings());
                    case StatementResult.Results nested -> throw new ShardwiseException(ErrorCode.BUG, "nested results");
                }
            }
        } finally {
            for (i++; i < results.size(); i++) {
                if (results.get(i) instanceof StatementResult.Rows rows) {
                    rows.cursor().close();
                }
            }
        }
    }

    private void fetch(StmtCommand.Fetch f, ResponseWriter out) {
        Prepared p = find(f.statementId(), "mysqld_stmt_fetch");
        if (p.cursor == null) {
            throw new ShardwiseException(ErrorCode.NO_OPEN_CURSOR, Integer.toUnsignedString(f.statementId()));
        }
        if (!p.cursor.fetch(f.rows(), out, status.get())) {
            p.cursor = null;
        }
    }

    /** A binary result set: column count, definitions, binary rows, end; paced by the channel. Closes the cursor. */
    /**
     * False when the client left. {@code more}: more results of the statement follow this one; {@code changed}:
     * {@link ServerStatus#METADATA_CHANGED} or 0, for both end packets.
     */
    private boolean stream(ResultCursor cursor, List<Column> described, ResponseWriter out, boolean more, HeldColumns held,
                           int changed) {
        try (cursor) {
            BinaryRow encoder = columns(cursor, described, out, held);
            ServerStatus end = more ? status.get().withMoreResults() : status.get();
            if (changed != 0) {
                end = end.with(changed);
            }
            out.endOfColumns(end);
            int n = cursor.columns().size();
            byte[][] cells = new byte[n][]; // reused: the cursor's arrays are valid until next(), and encode copies them
            while (cursor.next()) {
                for (int i = 0; i < n; i++) {
                    cells[i] = cursor.get(i);
                }
                encoder.writeTo(out.beginPacket(64), cells);
                if (!out.endPacketPaced()) {
                    return false; // the client left: closing the cursor releases the backend work
                }
            }
            out.endOfRows(end, session.endWarningCount());
            return true;
        }
    }

    /**
     * Sends the column count and definitions; returns the row encoder for those columns. Each name is
     * the one the prepare announced ({@code described}, when it has as many columns): MySQL names a
     * server-side prepared item from the prepared text, {@code SUM(amount * ?)}, while the backend
     * ran it with the value inlined and named it {@code SUM(amount * 3)}. Types are the execution's.
     * Under MariaDB's metadata cache the definitions go only when they are not those the client holds
     * ({@code held}; null: always, flagged as following).
     */
    private static BinaryRow columns(ResultCursor cursor, List<Column> described, ResponseWriter out, HeldColumns held) {
        List<Column> columns = cursor.columns();
        int[] types = new int[columns.size()];
        ByteBuf defs = held != null && out.capabilities().cachesMetadata() ? out.alloc().heapBuffer(64 * types.length) : null;
        if (defs == null) {
            out.columnCount(types.length, true);
        }
        try {
            for (int i = 0; i < types.length; i++) {
                Column c = ColumnDefinitions.prepared(columns, described, i);
                types[i] = c.mysqlType();
                if (defs == null) {
                    ColumnDefinitions.of(c).writeTo(out.beginPacket(64));
                    out.endPacket();
                } else {
                    int lengthAt = defs.writerIndex();
                    defs.writeMedium(0);
                    ColumnDefinitions.of(c).writeTo(defs);
                    defs.setMediumLE(lengthAt, defs.writerIndex() - lengthAt - 3);
                }
            }
            if (defs != null) {
                boolean follows = held.sendAgain(defs, defs.readerIndex(), defs.readableBytes());
                out.columnCount(types.length, follows);
                for (int at = defs.readerIndex(); follows && at < defs.writerIndex(); ) {
                    int length = defs.getUnsignedMediumLE(at);
                    out.beginPacket(length).writeBytes(defs, at + 3, length);
                    out.endPacket();
                    at += 3 + length;
                }
            }
        } finally {
            if (defs != null) {
                defs.release();
            }
        }
        return new BinaryRow(types);
    }
}
