package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.EngineSession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.server.SessionRegistry;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.ServerStatus;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;

/**
 * One session's answers to the connection-level commands ({@link ConnectionCommand}). Called
 * serially by the session's thread, like {@link CommandHandler}. COM_PROCESS_KILL runs as the
 * engine's KILL statement, which reaches other sessions through the thread-safe {@link SessionRegistry}.
 */
final class ConnectionCommands {
    private final EngineSession session;
    private final SessionRegistry registry;
    private final Supplier<ServerStatus> status;
    /** Drops the connection's prepared statements on COM_RESET_CONNECTION. */
    private Runnable forgetPreparedStatements = () -> { };
    private boolean multiStatements;

    ConnectionCommands(EngineSession session, SessionRegistry registry, Supplier<ServerStatus> status,
                       boolean multiStatements) {
        this.session = session;
        this.multiStatements = multiStatements;
        this.registry = registry;
        this.status = status;
    }

    void handle(ConnectionCommand command, ResponseWriter out) {
        try {
            switch (command) {
                case ConnectionCommand.FieldList f -> fieldList(f, out);
                case ConnectionCommand.Statistics s -> {
                    out.send(out.alloc().buffer().writeBytes(registry.statistics().getBytes(StandardCharsets.UTF_8)));
                }
                case ConnectionCommand.ProcessKill k -> {
                    session.execute("KILL CONNECTION " + k.connectionId()); // the engine's KILL, through the registry
                    out.ok(0, 0, status.get(), 0);
                }
                case ConnectionCommand.SetOption o -> {
                    if (o.option() > 1) {
                        out.error(ErrorCode.UNKNOWN_COMMAND);
                    } else {
                        multiStatements = o.option() == 0;
                        out.endOfRows(status.get(), 0);
                    }
                }
                case ConnectionCommand.ResetConnection r -> {
                    reset();
                    out.ok(0, 0, status.get(), 0);
                }
            }
        } catch (ShardwiseException e) {
            out.error(e.errno(), e.sqlState(), e.wireMessage());
        }
    }

    /** Whether COM_QUERY runs several statements: the client's CLIENT_MULTI_STATEMENTS, as COM_SET_OPTION last set it. */
    boolean multiStatements() {
        return multiStatements;
    }

    /** COM_RESET_CONNECTION: the transaction rolled back, autocommit on, session variables at their defaults; the schema stays. */
    private void reset() {
        session.reset();
        forgetPreparedStatements.run();
    }

    void onReset(Runnable forgetPrepared) {
        this.forgetPreparedStatements = forgetPrepared;
    }

    /** COM_FIELD_LIST: the column definitions of a logical table (each with its default-value field), then EOF. */
    private void fieldList(ConnectionCommand.FieldList f, ResponseWriter out) {
        for (Column c : session.fieldList(f.table(), f.wildcard())) {
            ByteBuf definition = ColumnDefinitions.of(c).encode(out.alloc());
            out.send(definition.writeByte(0xFB)); // default value: NULL (COM_FIELD_LIST's extra lenenc field)
        }
        out.endOfRows(status.get(), 0);
    }
}
