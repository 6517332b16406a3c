package io.shardwise.server.relay;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.StmtCommand;

/**
 * How a {@link QueryRelay} sends one execution of a client's prepared statement: COM_STMT_EXECUTE
 * of the backend-side statement its relay connection prepared for the unit's SQL
 * ({@link RelayStatements}), carrying the client's NULL bitmap and values byte for byte. Its
 * parameter types go with it unless the backend binds exactly these for that statement already (the
 * statement's last execute sent them; it may have been another client's, with other types): then the
 * client's packet goes as it came, only the statement id changed — no buffer built, and the backend
 * binds no types again. The response goes on to the relay, which frames binary rows as text ones;
 * except that an ERR 1243 (the backend forgot the statement) as the first packet prepares it again and
 * executes once more, unseen by the client. Under MariaDB's metadata cache on the connection it names the
 * backend statement it executed ({@link #statement}), whose recorded definitions an answer without them means.
 *
 * <p>Buffer lifetime: holds the client's execute payload (retained) until {@link #release}.
 */
final class PreparedRelay implements QueryRelay.Request, BackendConnection.Listener {
    private static final int UNKNOWN_STATEMENT = ErrorCode.UNKNOWN_STATEMENT_HANDLER.errno();

    /** The client's COM_STMT_EXECUTE payload, command byte first; its statement id is overwritten when it goes as it came. */
    private final ByteBuf execute;
    private final int[] types;
    private final int valuesOffset;
    private BackendConnection.Listener relay;
    private String sql;
    private boolean answered;
    private boolean retried;
    /** The backend statement the last execute ran, whose definitions an answer without them means (MariaDB's metadata cache). */
    private RelayStatements.Statement executed;

    private PreparedRelay(ByteBuf execute, int[] types, int valuesOffset) {
        this.execute = execute;
        this.types = types;
        this.valuesOffset = valuesOffset;
    }

    /**
     * @param execute the client's COM_STMT_EXECUTE payload (command byte first; not consumed, retained here)
     * @param types each parameter's type and flag byte, as bound for this execution
     * @param valuesOffset where the values start in {@code execute}, from its reader index
     */
    static PreparedRelay of(ByteBuf execute, int[] types, int valuesOffset) {
        return new PreparedRelay(execute.retainedSlice(), types, valuesOffset);
    }

    /** The execute with every parameter's type bound (no cursor, one iteration), statement id left 0. */
    private ByteBuf withTypes(ByteBufAllocator alloc) {
        int n = types.length;
        int start = execute.readerIndex();
        int values = execute.readableBytes() - valuesOffset;
        int bitmap = (n + 7) / 8;
        ByteBuf out = alloc.ioBuffer(10 + (n > 0 ? bitmap + 1 + 2 * n + values : 0));
        out.writeByte(StmtCommand.COM_STMT_EXECUTE).writeIntLE(0).writeByte(0).writeIntLE(1); // no cursor, one iteration
        if (n > 0) {
            out.writeBytes(execute, start + 10, bitmap).writeByte(1);
            for (int t : types) {
                out.writeShortLE(t);
            }
            out.writeBytes(execute, start + valuesOffset, values);
        }
        return out;
    }

    /** The client's packet may go as it came: one iteration (what the relay always sends; the cursor flags are 0, or it would not relay). */
    private boolean asItCame() {
        return execute.getIntLE(execute.readerIndex() + 6) == 1;
    }

    @Override
    public void send(BackendConnection connection, ExecutionUnit unit, BackendConnection.Listener relay) {
        this.relay = relay;
        this.sql = unit.sql();
        RelayStatements.Statement statement = RelayStatements.of(connection).get(sql);
        if (statement == null) {
            prepareAgain(connection); // the executor prepared it; only a connection that lost it gets here
        } else {
            execute(connection, statement);
        }
    }

    private void execute(BackendConnection connection, RelayStatements.Statement statement) {
        ByteBuf out;
        if (statement.binds(types) && asItCame()) {
            out = execute.retainedDuplicate(); // the types it would bind are bound already: the client's bytes, the backend's id
        } else {
            out = withTypes(connection.channel().alloc());
            statement.bound(types);
        }
        out.setIntLE(out.readerIndex() + 1, statement.id());
        executed = statement;
        connection.command(out, this);
    }

    private void prepareAgain(BackendConnection connection) {
        RelayStatements.prepare(connection, sql, types.length, new RelayStatements.Prepared() {
            @Override
            public void prepared(RelayStatements.Statement statement) {
                execute(connection, statement);
            }

            @Override
            public void refused(Packet error) {
                answered = true;
                relay.packet(connection, error); // the relay ends the statement with it, as with an execute's ERR
            }

            @Override
            public void lost(Throwable cause) {
                relay.lost(connection, cause);
            }
        });
    }

    @Override
    public void packet(BackendConnection connection, Packet packet) {
        if (!answered) {
            answered = true;
            ByteBuf in = packet.content();
            if (!retried && in.readableBytes() >= 3 && in.getUnsignedByte(in.readerIndex()) == ErrPacket.HEADER
                    && in.getUnsignedShortLE(in.readerIndex() + 1) == UNKNOWN_STATEMENT) {
                retried = true;
                answered = false;
                packet.release();
                connection.responseEnded();
                RelayStatements.of(connection).forget(sql);
                prepareAgain(connection);
                return;
            }
        }
        relay.packet(connection, packet);
    }

    @Override
    public RelayStatements.Statement statement() {
        return executed;
    }

    @Override
    public void readComplete(BackendConnection connection) {
        relay.readComplete(connection);
    }

    @Override
    public void lost(BackendConnection connection, Throwable cause) {
        relay.lost(connection, cause);
    }

    void release() {
        execute.release();
    }

}
