package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.session.SessionHost;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.ExecutableComments;
import io.shardwise.core.sql.normalize.ExplicitBytes;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.List;

/**
 * One client's session over the engine: runs statements through normalize, plan cache, route,
 * execute and merge, and keeps the session's transaction and settings (through its
 * {@link ExecutionSession}). Not thread-safe: one statement at a time, as a MySQL connection.
 */
public final class EngineSession implements AutoCloseable {
    private final ExecutionSession execution;
    /** The current database: the logical schema, or null before the client names one (USE, COM_INIT_DB). */
    private String schema;
    /** The last statement's diagnostics area (SHOW WARNINGS); replaced when the next statement starts. */
    private Diagnostics diagnostics = Diagnostics.empty();
    /** What the session answers itself (SHOW, variables, diagnostics, KILL), and the variables clients read back. */
    private final SessionStatements local;
    /** Versioned executable comments run as the server this session announces runs them; asked only when a statement has one. */
    private final ExecutableComments.Gate executableComments = (version, mariaDb) -> EngineSession.this.local.identity().executes(version, mariaDb);
    /** READ ONLY / READ WRITE of the open and next transactions; refuses writes with 1792. */
    private final TransactionAccess access = new TransactionAccess();
    private final PlanRunner plans;
    private final SessionCommandRunner commands;
    private final RelaySession relay;

    EngineSession(Engine engine, ExecutionSession execution, String schema, SessionHost host) {
        this.execution = execution;
        this.schema = schema;
        this.local = new SessionStatements(engine.rule(), host, this::sqlMode, this::readOnly, () -> execution.state().isolation());
        this.plans = new PlanRunner(engine, execution, this);
        this.commands = new SessionCommandRunner(engine, execution, this, plans, local, access);
        this.relay = new EngineRelay(engine, execution, this, plans);
    }

    /** The current database (MySQL's {@code DATABASE()}): the logical schema, or null when none is selected. */
    public String schema() {
        return schema;
    }

    /** USE: the current database changes. */
    void schema(String schema) {
        this.schema = schema;
    }

    /** A text statement: literals inline. */
    public StatementResult execute(String sql) {
        return execute(sql, List.of());
    }

    /** A prepared statement: {@code ?} markers and their values, in order. */
    public StatementResult execute(String sql, List<Object> params) {
        return execute(normalize(sql), params);
    }

    /**
     * The statement as this session reads it: in its sql_mode's lexical mode (NO_BACKSLASH_ESCAPES,
     * ANSI_QUOTES), with literals whose client bytes would not survive as text made explicit in hex
     * ({@link ExplicitBytes}), and executable comments executed or skipped as the announced server
     * would ({@link ExecutableComments}). A face that normalizes once for many executions (a JDBC prepared
     * statement) uses this, as MySQL reads a prepared statement in the mode of its PREPARE.
     */
    public NormalizedSql normalize(String sql) {
        SessionState state = execution.state();
        LexicalMode mode = state.lexicalMode();
        String executed = ExecutableComments.expand(sql, mode, executableComments);
        return Normalizer.normalize(ExplicitBytes.of(executed, mode, state.clientCharset()), mode);
    }

    /** The lexical mode of the session's sql_mode: a face must tell its client (SERVER_STATUS_NO_BACKSLASH_ESCAPES). */
    public LexicalMode lexicalMode() {
        return execution.state().lexicalMode();
    }

    /** The session's sql_mode as set by its statements, or null while it is the backend's default. */
    public String sqlMode() {
        return execution.state().sqlMode();
    }

    /** The character set the client's statement bytes are in (the handshake's, then SET NAMES / character_set_client). */
    public ClientCharset clientCharset() {
        return execution.state().clientCharset();
    }

    /** The handshake's character set; null (one this engine does not decode) keeps utf8mb4. */
    public void setClientCharset(ClientCharset charset) {
        if (charset != null) {
            execution.state().setClientCharset(charset);
        }
    }

    /** A client's statement bytes as text, losslessly ({@link ClientCharset}). */
    public String decode(byte[] statement) {
        return clientCharset().decode(statement);
    }

    /**
     * A statement normalized by the caller: a JDBC prepared statement normalizes its text once,
     * when prepared, rather than on every execution.
     */
    public StatementResult execute(NormalizedSql normalized, List<Object> params) {
        Diagnostics previous = diagnostics;
        diagnostics = Diagnostics.empty(); // MySQL: every statement but a diagnostic one starts a new area
        try {
            return executeStatement(normalized, params, previous);
        } catch (ShardwiseException e) {
            diagnostics.fail(e.errno(), e.getMessage());
            throw e;
        }
    }

    private StatementResult executeStatement(NormalizedSql normalized, List<Object> params, Diagnostics previous) {
        if (normalized.parameterCount() != params.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "statement has " + normalized.parameterCount() + " ? markers but "
                    + params.size() + " values were given");
        }
        if (normalized.tokenCount() == 0 && !normalized.sql().isBlank()) {
            return StatementResult.Update.OK; // only comments (a skipped /*!99999 ... */ too): MySQL's empty statement, no error
        }
        CachedPlan plan = plans.plan(normalized);
        Statement statement = plan.statement();
        plans.requireSchema(statement);
        access.check(statement, execution);
        return switch (statement) {
            case SessionCommand command -> commands.run(command, normalized, params, previous);
            case Insert i -> plans.write(plans.route(normalized, plan, params));
            case Update u -> plans.write(plans.route(normalized, plan, params));
            case Delete d -> plans.write(plans.route(normalized, plan, params));
            case Select s -> plans.run(plans.route(normalized, plan, params));
            case Ddl d -> plans.changingColumns(plans.run(plans.route(normalized, plan, params)));
            case Passthrough p -> plans.changingColumns(plans.run(plans.route(normalized, plan, params)));
        };
    }

    /**
     * The columns of a statement's result, known before it runs (a server's prepare reply, JDBC's
     * {@code PreparedStatement.getMetaData}); empty when it returns no rows, or when only running it
     * can tell (the backend announces no columns for CALL either). The statement is routed as if
     * every parameter were NULL, its first unit prepared on that unit's backend (never run), and the
     * plan's merge applied to those columns, so hidden helper columns never show, labels are the
     * user's and types are what the backend and the merger report when it runs. Cached per text (see
     * {@link Descriptions}). Errors that do not depend on parameter values (syntax, unknown tables
     * or columns, what Shardwise refuses) come from here, as MySQL reports them at prepare.
     */
    public List<Column> describe(String sql) {
        return plans.describe(sql, normalize(sql));
    }

    /** This session as a packet relay sees it: the only way a relay reads or changes session state. */
    public RelaySession relay() {
        return relay;
    }

    /** The route plan a statement would run with (PREVIEW). */
    public RoutePlan preview(String sql, List<Object> params) {
        return plans.preview(normalize(sql), params);
    }

    /**
     * The diagnostics area of the last statement (what SHOW WARNINGS lists): complete for an update
     * once {@code execute} returned, for rows once the cursor reached the end. Diagnostic statements
     * (SHOW WARNINGS, {@code @@warning_count}) read it without running through {@code execute}.
     */
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    /** The area the running statement fills (a new one), or the previous one a diagnostic statement leaves in place. */
    void diagnostics(Diagnostics area) {
        diagnostics = area;
    }

    /** A statement answered outside {@code execute} (by a face) starts: as in MySQL, it clears the area. */
    public void clearDiagnostics() {
        diagnostics = Diagnostics.empty();
    }

    /**
     * A statement failed outside {@code execute}, or after it returned (while its rows streamed):
     * its error becomes the area's error, as MySQL reports it to SHOW ERRORS.
     */
    public void failed(int errno, String message) {
        diagnostics.fail(errno, message);
    }

    /** COM_FIELD_LIST: the columns of a logical table of the current schema whose names match {@code wildcard} (null: all). */
    public List<Column> fieldList(String table, String wildcard) {
        return local.fieldList(table, wildcard, schema);
    }

    /**
     * COM_RESET_CONNECTION: the transaction rolled back, autocommit on, session variables at their
     * defaults; the schema stays.
     */
    public void reset() {
        execute("ROLLBACK");
        execute("SET autocommit = 1");
        execute("SET sql_mode = DEFAULT");
        execute("SET time_zone = DEFAULT");
        execute("SET SESSION TRANSACTION READ WRITE");
        execution.state().takeNextReadOnly();
        execution.state().setIsolation(null); // back to the backend's default, as the variables below
        execution.state().takeNextIsolation();
        local.resetVariables();
    }

    /**
     * The session's transaction isolation as a {@link java.sql.Connection} level: what SET
     * [SESSION] TRANSACTION last chose, else REPEATABLE READ (MySQL's default, assumed of the backends).
     */
    public int isolationLevel() {
        SessionState.Isolation level = execution.state().isolation();
        return level == null ? java.sql.Connection.TRANSACTION_REPEATABLE_READ : level.jdbcLevel();
    }

    /** Whether the session's transactions are read-only (SET [SESSION] TRANSACTION READ ONLY). */
    public boolean readOnly() {
        return execution.state().readOnly();
    }

    public boolean inTransaction() {
        return execution.inTransaction();
    }

    public boolean autocommit() {
        return execution.autocommit();
    }

    /** Cancels the running statement (KILL QUERY). Safe from another thread. */
    public void cancel() {
        execution.cancel();
    }

    @Override
    public void close() {
        execution.close();
    }
}
