package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.RelaySession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.sql.normalize.QueryStatements;
import io.shardwise.core.session.SessionVariables;
import io.shardwise.server.SessionRegistry;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import io.shardwise.server.protocol.TextRow;
import java.util.List;

/**
 * One client's session state machine: runs each command against its {@link EngineSession} and
 * writes the response. Called serially by one virtual thread ({@link CommandDispatcher}), so it
 * may block on backends. Errors become ERR packets with the engine's (or the backend's) errno,
 * SQLSTATE and message; an error after rows have streamed replaces the final EOF/OK, as the
 * text-resultset protocol allows.
 */
public final class CommandHandler implements AutoCloseable {
    private final EngineSession session;
    private final ConnectionCommands connection;
    private final PreparedStatements statements;
    private final SessionRegistry registry;
    private final SessionRegistry.Activity activity;
    /** Set while a statement of a multi-statement COM_QUERY that more statements follow runs: every OK/EOF it sends says so. */
    private boolean moreResults;
    /** Set while a CALL's results that more of its results follow are sent (its result sets before its final OK). */
    private boolean callMore;
    /** The running command's response (LOAD DATA LOCAL asks for its file within it). */
    private ResponseWriter current;
    /** The packets the client sends within a command; set by the dispatcher before the first command. */
    private Inbound inbound;
    /** The client announced CLIENT_LOCAL_FILES. */
    private boolean clientLocalFiles;

    /** What the client sends within a command, read on the session thread (see {@link CommandDispatcher}). */
    interface Inbound {
        /** The next packet (the caller releases it), or null once the client left. */
        io.shardwise.server.protocol.Packet next();

        /** On while a file arrives: reading the client pauses when the session thread falls behind. */
        void receiving(boolean on);
    }

    CommandHandler(EngineSession session, SessionVariables.Client client, SessionRegistry registry, boolean multiStatements) {
        this.session = session;
        this.registry = registry;
        this.activity = registry.track(client.connectionId(), client.user(), client.host());
        this.connection = new ConnectionCommands(session, registry, this::status, multiStatements);
        this.statements = new PreparedStatements(session, this::status);
        this.connection.onReset(statements::clear);
        registry.activity(activity, null, session.schema());
    }

    /**
     * A session for a client that just logged in; {@code capabilities} decide matched vs changed row
     * counts, {@code collation} (the handshake's) the character set its statement bytes are read in.
     */
    public static CommandHandler open(Engine engine, Authenticator.Accepted client, String host, int connectionId,
                                      Capabilities capabilities, SessionRegistry registry, int maxPacketSize, int collation) {
        SessionVariables.Client who = new SessionVariables.Client(client.user(), host, connectionId, maxPacketSize);
        EngineSession session = engine.openSession(capabilities.countsFoundRows(), client.schema(), registry.host(who));
        session.handshakeCollation(collation);
        session.typeTemporalParameters(); // COM_STMT_EXECUTE binds DATE, DATETIME, TIME as such, not as text
        if (capabilities.interactive()) {
            session.interactive();
        }
        CommandHandler handler = new CommandHandler(session, who, registry, capabilities.sendsMultiStatements());
        handler.clientLocalFiles = capabilities.sendsLocalFiles();
        return handler;
    }

    /** Where the client's in-command packets come from; LOAD DATA LOCAL works from then on if the client announced it. */
    void inbound(Inbound in) {
        this.inbound = in;
        if (clientLocalFiles) {
            session.localFiles(name -> new LocalInfileStream(current, in, name));
        }
    }

    /** The session's wait_timeout in seconds (0: unknown, keep the last one enforced). */
    long waitTimeoutSeconds() {
        return session.waitTimeoutSeconds();
    }

    /** A client's statement bytes as text in its character set, losslessly (see {@code ClientCharset}). */
    String decode(byte[] statement) {
        return session.decode(statement);
    }

    String decode(byte[] statement, int offset, int length) {
        return session.decode(statement, offset, length);
    }

    /** Answers one command; false when the connection should close (COM_QUIT). */
    boolean handle(Command command, ResponseWriter out) {
        current = out;
        statements.beforeCommand(command);
        switch (command) {
            case Command.Query q -> {
                String sql = session.decode(q.sql());
                registry.activity(activity, sql, session.schema());
                try {
                    query(sql, out);
                } finally {
                    registry.activity(activity, null, session.schema());
                }
            }
            case Command.Ping p -> out.ok(0, 0, status(), 0);
            case Command.Quit q -> {
                return false;
            }
            case Command.InitDb db -> statement("USE `" + db.schema().replace("`", "``") + "`", out);
            case Command.Unsupported u -> out.error(ErrorCode.UNKNOWN_COMMAND);
            case StmtCommand s -> statements.handle(s, out);
            case ConnectionCommand c -> connection.handle(c, out);
        }
        // COMMIT / ROLLBACK RELEASE (or completion_type RELEASE): MariaDB sends the OK, then closes the connection
        return !session.released();
    }

    /**
     * COM_QUERY: its statements in order (one, unless the client enabled multi-statements), each
     * answered as its own result with SERVER_MORE_RESULTS_EXISTS on all but the last; the first
     * error is the last packet, as in MySQL.
     */
    private void query(String sql, ResponseWriter out) {
        QueryStatements statements = new QueryStatements(sql, connection.multiStatements(), session::lexicalMode);
        try {
            while (statements.hasNext()) {
                QueryStatements.Next next = statements.next();
                moreResults = next.more();
                if (next.onlyComments()) {
                    out.ok(0, 0, status(), 0); // MySQL's empty query: a statement of comments only
                } else if (!statement(next.sql(), out)) {
                    return;
                }
            }
        } catch (ShardwiseException e) {
            error(out, e.errno(), e.sqlState(), e.wireMessage(), true);
        } finally {
            moreResults = false;
        }
    }

    /** Runs one statement and writes its result; false when it failed (an ERR was sent) or the client left. */
    private boolean statement(String sql, ResponseWriter out) {
        registry.countQuestion();
        try {
            switch (session.execute(sql)) {
                case StatementResult.Rows rows -> {
                    return stream(rows.cursor(), out);
                }
                case StatementResult.Update u -> {
                    out.ok(u.affectedRows(), u.lastInsertId(), status(), u.warnings(), u.info());
                    return !session.released(); // the statements after a RELEASE in one COM_QUERY never run
                }
                case StatementResult.Results all -> {
                    return results(all.results(), out);
                }
            }
        } catch (ShardwiseException e) {
            error(out, e.errno(), e.sqlState(), e.wireMessage(), false);
        } catch (RuntimeException e) {
            ShardwiseException bug = ShardwiseException.bug("running a statement", e);
            error(out, bug.errno(), bug.sqlState(), bug.wireMessage(), false);
        }
        return false;
    }

    /**
     * A CALL's results in order, as MySQL sends them: each result set with SERVER_MORE_RESULTS_EXISTS
     * in its end packet, then the final OK without it (unless statements of the query follow).
     * Cursors not reached (the client left) are closed.
     */
    private boolean results(List<StatementResult> results, ResponseWriter out) {
        int i = 0;
        try {
            for (; i < results.size(); i++) {
                callMore = i < results.size() - 1;
                boolean sent = switch (results.get(i)) {
                    case StatementResult.Rows rows -> stream(rows.cursor(), out);
                    case StatementResult.Update u -> {
                        out.ok(u.affectedRows(), u.lastInsertId(), status(), u.warnings());
                        yield true;
                    }
                    case StatementResult.Results nested -> throw new ShardwiseException(ErrorCode.BUG, "nested results");
                };
                if (!sent) {
                    return false;
                }
            }
            return true;
        } finally {
            callMore = false;
            for (i++; i < results.size(); i++) {
                if (results.get(i) instanceof StatementResult.Rows rows) {
                    rows.cursor().close();
                }
            }
        }
    }

    /**
     * Sends an ERR and records it for SHOW ERRORS. A failing diagnostic statement replaces the
     * area it would have read, as MySQL's parse errors do; any other statement's error joins the
     * warnings its units already reported.
     */
    private void error(ResponseWriter out, int errno, String sqlState, String message, boolean replaceArea) {
        if (replaceArea) {
            session.clearDiagnostics();
        }
        session.failed(errno, message);
        out.error(errno, sqlState, message);
    }

    /** Column count, definitions, rows, end; paced by the channel. Closes the cursor whatever happens; false if the client left. */
    private boolean stream(ResultCursor cursor, ResponseWriter out) {
        try (cursor) {
            List<Column> columns = cursor.columns();
            int n = columns.size();
            out.columnCount(n, true); // a text result's definitions always follow (MariaDB caches only prepared statements')
            for (Column c : columns) {
                ColumnDefinitions.of(c).writeTo(out.beginPacket(64));
                out.endPacket();
            }
            out.endOfColumns(status());
            while (cursor.next()) {
                ByteBuf row = out.beginPacket(64);
                for (int i = 0; i < n; i++) {
                    TextRow.writeValue(row, cursor.get(i));
                }
                if (!out.endPacketPaced()) {
                    return false; // the client left: closing the cursor releases the backend work
                }
            }
            // complete now: the units' conditions are read when their cursors reach the end
            out.endOfRows(status(), session.endWarningCount());
            return true;
        }
    }

    /** An execute the relay may run ({@link PreparedStatements#relayable}); event loop only, while no command runs here. */
    PreparedStatements.RelayableExecute relayableExecute(ByteBuf payload) {
        return statements.relayable(payload);
    }

    /** This session as the relay executor sees it (event loop only, while no command runs here). */
    RelaySession relaySession() {
        return new SessionRelay(session.relay(), registry, activity, session::schema);
    }

    ServerStatus status() {
        ServerStatus status = ServerStatus.of(session.inTransaction(), session.autocommit());
        if (session.lexicalMode().noBackslashEscapes()) {
            status = status.with(ServerStatus.NO_BACKSLASH_ESCAPES); // as MySQL: clients escape by this bit
        }
        return moreResults || callMore ? status.withMoreResults() : status;
    }

    /** Whether a transaction is open (read by the event loop while no command runs: see CommandDispatcher#closeIfDrained). */
    boolean inTransaction() {
        return session.inTransaction();
    }

    /** Cancels the running statement; safe from any thread. */
    void cancel() {
        session.cancel();
    }

    @Override
    public void close() {
        statements.clear(); // closes open cursors before the session releases their connections
        session.close();
    }
}
