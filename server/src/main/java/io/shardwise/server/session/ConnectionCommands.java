package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.EngineSession;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.ServerStatus;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One session's answers to the connection-level commands ({@link ConnectionCommand}) and to the
 * {@code KILL [CONNECTION | QUERY] id} statement. Called serially by the session's thread, like
 * {@link CommandHandler}; killing another session goes through the thread-safe {@link SessionRegistry}.
 */
final class ConnectionCommands {
    private static final Pattern KILL = Pattern.compile("(?is)\\s*kill\\s+(?:(connection|query)\\s+)?(\\d+)\\s*;?\\s*");

    private final EngineSession session;
    private final SessionVariables variables;
    private final ShowStatements shows;
    private final SessionRegistry registry;
    private final String user;
    private final Supplier<ServerStatus> status;
    /** Drops the connection's prepared statements on COM_RESET_CONNECTION. */
    private Runnable forgetPreparedStatements = () -> { };
    private boolean multiStatements;

    ConnectionCommands(EngineSession session, SessionVariables variables, ShowStatements shows, SessionRegistry registry,
                       String user, Supplier<ServerStatus> status, boolean multiStatements) {
        this.session = session;
        this.multiStatements = multiStatements;
        this.variables = variables;
        this.shows = shows;
        this.registry = registry;
        this.user = user;
        this.status = status;
    }

    void handle(ConnectionCommand command, String schema, ResponseWriter out) {
        try {
            switch (command) {
                case ConnectionCommand.FieldList f -> fieldList(f, schema, out);
                case ConnectionCommand.Statistics s -> {
                    out.send(out.alloc().buffer().writeBytes(registry.statistics().getBytes(StandardCharsets.UTF_8)));
                    out.flush();
                }
                case ConnectionCommand.ProcessKill k -> kill(k.connectionId(), false, out);
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

    /** Counts a COM_QUERY statement (COM_STATISTICS' Questions) and answers it when it is KILL; false (nothing written) otherwise. */
    boolean intercept(String sql, ResponseWriter out) {
        registry.countQuestion();
        if (sql.length() < 6 || !sql.stripLeading().regionMatches(true, 0, "kill", 0, 4)) {
            return false;
        }
        Matcher m = KILL.matcher(sql);
        if (!m.matches()) {
            return false;
        }
        kill(Long.parseLong(m.group(2)), m.group(1) != null && m.group(1).toLowerCase(Locale.ROOT).equals("query"), out);
        return true;
    }

    private void kill(long id, boolean queryOnly, ResponseWriter out) {
        switch (registry.kill(id, user, queryOnly)) {
            case DONE -> out.ok(0, 0, status.get(), 0);
            case UNKNOWN -> out.error(ErrorCode.UNKNOWN_THREAD, id);
            case NOT_OWNER -> out.error(ErrorCode.NOT_THREAD_OWNER, id);
        }
    }

    /** COM_RESET_CONNECTION: the transaction rolled back, autocommit on, session variables at their defaults; the schema stays. */
    private void reset() {
        session.execute("ROLLBACK");
        session.execute("SET autocommit = 1");
        session.execute("SET sql_mode = DEFAULT");
        session.execute("SET time_zone = DEFAULT");
        variables.reset();
        forgetPreparedStatements.run();
    }

    void onReset(Runnable forgetPrepared) {
        this.forgetPreparedStatements = forgetPrepared;
    }

    /** COM_FIELD_LIST: the column definitions of a logical table (each with its default-value field), then EOF. */
    private void fieldList(ConnectionCommand.FieldList f, String schema, ResponseWriter out) {
        for (Column c : shows.fieldList(f.table(), f.wildcard(), schema)) {
            ByteBuf definition = ColumnDefinitions.of(c).encode(out.alloc());
            out.send(definition.writeByte(0xFB)); // default value: NULL (COM_FIELD_LIST's extra lenenc field)
        }
        out.endOfRows(status.get(), 0);
    }
}
