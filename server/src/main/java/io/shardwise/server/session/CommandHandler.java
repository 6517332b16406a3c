package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.server.auth.Authenticator;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.Command;
import io.shardwise.server.protocol.ConnectionCommand;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.StmtCommand;
import io.shardwise.server.protocol.TextRow;
import io.shardwise.server.protocol.Wire;
import java.util.List;
import java.util.Locale;

/**
 * One client's session state machine: runs each command against its {@link EngineSession} and
 * writes the response. Called serially by one virtual thread ({@link CommandDispatcher}), so it
 * may block on backends. Errors become ERR packets with the engine's (or the backend's) errno,
 * SQLSTATE and message; an error after rows have streamed replaces the final EOF/OK, as the
 * text-resultset protocol allows.
 */
public final class CommandHandler implements AutoCloseable {
    private final EngineSession session;
    private final String logicalSchema;
    private final SessionVariables variables;
    private final ShowStatements shows;
    private final ConnectionCommands connection;
    private final PreparedStatements statements;
    private final SessionRegistry registry;
    private final SessionRegistry.Activity activity;
    /** Set while a statement of a multi-statement COM_QUERY that more statements follow runs: every OK/EOF it sends says so. */
    private boolean moreResults;
    /** The current schema (null until the client names one); the engine validates every change. */
    private String schema;

    CommandHandler(EngineSession session, ShardingRule rule, SessionVariables.Client client, String schema,
                   SessionRegistry registry, boolean multiStatements) {
        this.session = session;
        this.logicalSchema = rule.schema();
        this.registry = registry;
        this.activity = registry.track(client.connectionId(), client.user(), client.host());
        this.shows = new ShowStatements(rule, registry, client.user());
        this.variables = new SessionVariables(client, () -> BackendVariables.of(rule), session::sqlMode);
        this.connection = new ConnectionCommands(session, variables, shows, registry, client.user(), this::status,
                multiStatements);
        this.statements = new PreparedStatements(session, this::status);
        this.connection.onReset(statements::clear);
        this.schema = schema;
        registry.activity(activity, null, schema);
    }

    /**
     * A session for a client that just logged in; {@code capabilities} decide matched vs changed row
     * counts, {@code collation} (the handshake's) the character set its statement bytes are read in.
     */
    public static CommandHandler open(Engine engine, Authenticator.Accepted client, String host, int connectionId,
                                      Capabilities capabilities, SessionRegistry registry, int maxPacketSize, int collation) {
        EngineSession session = engine.openSession(capabilities.countsFoundRows(), client.schema());
        session.setClientCharset(ClientCharset.forCollation(collation));
        return new CommandHandler(session, engine.rule(),
                new SessionVariables.Client(client.user(), host, connectionId, maxPacketSize), client.schema(), registry,
                capabilities.sendsMultiStatements());
    }

    /** A client's statement bytes as text in its character set, losslessly (see {@link ClientCharset}). */
    String decode(byte[] statement) {
        return session.decode(statement);
    }

    /** Answers one command; false when the connection should close (COM_QUIT). */
    boolean handle(Command command, ResponseWriter out) {
        statements.beforeCommand(command);
        switch (command) {
            case Command.Query q -> {
                String sql = session.decode(q.sql());
                registry.activity(activity, sql, schema);
                try {
                    query(sql, out);
                } finally {
                    registry.activity(activity, null, schema);
                }
            }
            case Command.Ping p -> out.ok(0, 0, status(), 0);
            case Command.Quit q -> {
                return false;
            }
            case Command.InitDb db -> statement("USE `" + db.schema().replace("`", "``") + "`", out);
            case Command.Unsupported u -> out.error(1047, "08S01", "Unknown command");
            case StmtCommand s -> statements.handle(s, out);
            case ConnectionCommand c -> connection.handle(c, schema, out);
        }
        return true;
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
            error(out, e.errno(), e.sqlState(), e.getMessage(), true);
        } finally {
            moreResults = false;
        }
    }

    /** Runs one statement and writes its result; false when it failed (an ERR was sent) or the client left. */
    private boolean statement(String sql, ResponseWriter out) {
        Diagnostics previous = session.diagnostics();
        boolean keeps = DiagnosticStatements.keepsDiagnostics(sql);
        try {
            ResultCursor diagnostic = keeps ? DiagnosticStatements.answer(sql, previous) : null;
            if (diagnostic != null) {
                return stream(diagnostic, out);
            }
            if (!keeps) {
                session.clearDiagnostics(); // MySQL: every nondiagnostic statement starts a new area
            }
            if (connection.intercept(sql, out)) {
                return true;
            }
            ResultCursor answered = variables.answer(sql, session.autocommit(), schema, previous);
            if (answered == null) {
                answered = shows.answer(sql, schema, variables, session.autocommit());
            }
            if (answered != null) {
                return stream(answered, out);
            }
            switch (session.execute(sql)) {
                case StatementResult.Rows rows -> {
                    return stream(rows.cursor(), out);
                }
                case StatementResult.Update u -> {
                    String first = firstWord(sql);
                    if (first.equals("set")) {
                        variables.recordSet(sql);
                    } else if (first.equals("use")) {
                        schema = logicalSchema; // the engine accepted it, so it named the one schema served
                    }
                    out.ok(u.affectedRows(), u.lastInsertId(), status(), u.warnings());
                    return true;
                }
            }
        } catch (ShardwiseException e) {
            error(out, e.errno(), e.sqlState(), e.getMessage(), keeps);
        } catch (RuntimeException e) {
            error(out, 1105, "HY000", "[BUG] " + e, keeps);
        }
        return false;
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
            Wire.writeLenenc(out.beginPacket(9), n);
            out.endPacket();
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
            out.endOfRows(status(), session.diagnostics().warningCount());
            return true;
        }
    }

    /**
     * The relay plan of a COM_QUERY text, or null when the normal path must answer it. Called on the
     * event loop while this handler is idle, so it must stay cheap: a single plain SELECT (no
     * {@code ;}, no variables or {@code ()} functions this server answers itself, no
     * information_schema, no INTO), then the engine's own checks ({@link EngineSession#relayPlan}).
     */
    RelayPlan relayPlan(String sql) {
        String s = QueryStatements.strip(sql);
        if (s.length() < 8 || !s.regionMatches(true, 0, "select", 0, 6) || Character.isLetterOrDigit(s.charAt(6))
                || s.indexOf(';') >= 0 || s.indexOf('@') >= 0 || s.indexOf("()") >= 0
                || InformationSchemaQueries.mentions(s) || containsIgnoreCase(s, "into")) {
            return null;
        }
        return session.relayPlan(s);
    }

    private static boolean containsIgnoreCase(String text, String lowerWord) {
        int n = text.length() - lowerWord.length();
        char first = lowerWord.charAt(0);
        for (int i = 0; i <= n; i++) {
            if (Character.toLowerCase(text.charAt(i)) == first && text.regionMatches(true, i, lowerWord, 0, lowerWord.length())) {
                return true;
            }
        }
        return false;
    }

    /** A relayed statement starts: visible in the processlist, counted, with a fresh diagnostics area. */
    void relayStarting(String sql, RelayPlan plan) {
        registry.activity(activity, sql, schema);
        registry.countQuestion();
        session.clearDiagnostics();
        session.relayStarted(plan);
    }

    void relayEnded() {
        registry.activity(activity, null, schema);
    }

    String relayMessage(String backend, int errno, String message) {
        return session.relayMessage(backend, errno, message);
    }

    void relayConditions(int unit, String backend, int count, List<Condition> conditions) {
        session.relayConditions(unit, backend, count, conditions);
    }

    void relayFailed(int errno, String message) {
        session.failed(errno, message);
    }

    int warningCount() {
        return session.diagnostics().warningCount();
    }

    ServerStatus status() {
        ServerStatus status = ServerStatus.of(session.inTransaction(), session.autocommit());
        if (session.lexicalMode().noBackslashEscapes()) {
            status = status.with(ServerStatus.NO_BACKSLASH_ESCAPES); // as MySQL: clients escape by this bit
        }
        return moreResults ? status.withMoreResults() : status;
    }

    /** The statement's first word, lower case, when it is SET or USE (cheap: no lexing on the hot path); else "". */
    private static String firstWord(String sql) {
        String s = sql.stripLeading();
        if (s.length() > 3 && !Character.isLetterOrDigit(s.charAt(3))) {
            String w = s.substring(0, 3).toLowerCase(Locale.ROOT);
            if (w.equals("set") || w.equals("use")) {
                return w;
            }
        }
        return "";
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
