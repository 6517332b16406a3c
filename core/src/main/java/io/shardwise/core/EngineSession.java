package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.merge.Merger;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.session.SessionHost;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.UnanalyzableException;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.ExecutableComments;
import io.shardwise.core.sql.normalize.ExplicitBytes;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One client's session over the engine: runs statements through normalize, plan cache, route,
 * execute and merge, and keeps the session's transaction and settings (through its
 * {@link ExecutionSession}). Not thread-safe: one statement at a time, as a MySQL connection.
 */
public final class EngineSession implements AutoCloseable {
    private final RelaySession relay = new Relay();
    private final Engine engine;
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

    EngineSession(Engine engine, ExecutionSession execution, String schema, SessionHost host) {
        this.engine = engine;
        this.execution = execution;
        this.schema = schema;
        this.local = new SessionStatements(engine.rule(), host, this::sqlMode);
    }

    /** The current database (MySQL's {@code DATABASE()}): the logical schema, or null when none is selected. */
    public String schema() {
        return schema;
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
        CachedPlan plan = plan(normalized);
        Statement statement = plan.statement();
        requireSchema(statement);
        access.check(statement, execution);
        return switch (statement) {
            case SessionCommand command -> command(command, normalized, params, previous);
            case Insert i -> write(route(statement, normalized, plan, params));
            case Update u -> write(route(statement, normalized, plan, params));
            case Delete d -> write(route(statement, normalized, plan, params));
            case Select s -> run(route(statement, normalized, plan, params));
            case Ddl d -> changingColumns(run(route(statement, normalized, plan, params)));
            case Passthrough p -> changingColumns(run(route(statement, normalized, plan, params)));
        };
    }

    private StatementResult write(RoutePlan route) {
        if (route.units().size() > 1 && execution.autocommit() && !execution.inTransaction()) {
            return atomically(route);
        }
        return run(route);
    }

    /** A DDL statement, or one the analyzer could not read, may have changed a table's columns. */
    private StatementResult changingColumns(StatementResult result) {
        return switch (result) {
            case StatementResult.Rows rows -> rows;
            case StatementResult.Update update -> {
                engine.descriptions().invalidateAll();
                yield update;
            }
        };
    }

    /**
     * A write over several shards in autocommit mode runs in a transaction of its own, so that like
     * MySQL's statement it either changes every shard or none when one fails (a duplicate key on one
     * shard, say). The commit itself is per backend, not two-phase.
     */
    private StatementResult atomically(RoutePlan route) {
        execution.begin();
        StatementResult result;
        try {
            result = run(route);
        } catch (RuntimeException e) {
            try {
                execution.rollback();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        execution.commit();
        return result;
    }

    /**
     * With no database selected, a table named without a schema resolves to nothing: MySQL answers
     * 1046 rather than guessing, and so must Shardwise, instead of letting the default backend
     * resolve it in its own physical database.
     */
    private void requireSchema(Statement statement) {
        if (schema != null) {
            return;
        }
        for (TableRef t : statement.tables()) {
            if (t.schema() == null) {
                throw new ShardwiseException(ErrorCode.NO_DATABASE_SELECTED);
            }
        }
    }

    /**
     * The cached plan; for a statement the analyzer cannot read, a backend judges its syntax first, so
     * a typo gets MySQL's own 1064 rather than "not supported".
     */
    private CachedPlan plan(NormalizedSql normalized) {
        try {
            return engine.plan(normalized);
        } catch (UnanalyzableException e) {
            // quoted for the mode the backend connection runs in: under NO_BACKSLASH_ESCAPES a doubled backslash is two
            String probe = "PREPARE shardwise_syntax_probe FROM " + execution.state().lexicalMode().quote(normalized.sql());
            try {
                execution.execute(List.of(new ExecutionUnit(engine.rule().config().defaultBackend(), probe, List.of(), java.util.Map.of())));
            } catch (ShardwiseException backend) {
                if (backend.errno() == ErrorCode.PARSE_ERROR.errno()) {
                    throw backend;
                }
            }
            throw e;
        }
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
        NormalizedSql normalized = normalize(sql);
        CachedPlan plan = plan(normalized);
        requireSchema(plan.statement());
        return switch (plan.statement()) {
            case SessionCommand c -> c.kind() == SessionCommand.Kind.PREVIEW
                    ? ValuesCursor.text(SessionCommands.PREVIEW_LABELS, List.of()).columns() : List.of();
            case Insert i -> List.of();
            case Update u -> List.of();
            case Delete d -> List.of();
            case Ddl d -> List.of();
            case Select s -> describeRouted(sql, normalized, plan);
            case Passthrough p -> describeRouted(sql, normalized, plan);
        };
    }

    private List<Column> describeRouted(String sql, NormalizedSql normalized, CachedPlan plan) {
        // the mode is part of the key: with ANSI_QUOTES "a" is a column, without it a string
        return engine.descriptions().get(sql, execution.state().charsetKey() + ";" + normalized.lexicalMode(), () -> {
            List<Object> nulls = Arrays.asList(new Object[normalized.parameterCount()]);
            RoutePlan route = route(plan.statement(), normalized, plan, nulls);
            List<Column> unit = execution.describe(route.units().get(0));
            if (unit.isEmpty() || route.merge() instanceof MergeSpec.PassThrough) {
                return unit;
            }
            return Merger.columns(unit, route.units().size(), route.mergeFor(unit.size()));
        });
    }

    /** This session as a packet relay sees it: the only way a relay reads or changes session state. */
    public RelaySession relay() {
        return relay;
    }

    /**
     * The relay's view. {@link #plan}: cheap and never blocking, for a caller on an event loop: a
     * plan-cache hit only (a miss would run Calcite), a SELECT over the logical schema's tables whose
     * merge is pass-through or plain concatenation, in autocommit mode outside a transaction with no
     * timeout, so a connection carrying the session's settings ({@link RelayPlan#setup}) gives the same
     * result as the executor's.
     */
    private final class Relay implements RelaySession {
        @Override
        public RelayPlan plan(String sql) {
            String setup = schema == null ? null : execution.relaySetup();
            if (setup == null) {
                return null;
            }
            try {
                NormalizedSql normalized = normalize(sql);
                if (normalized.parameterCount() != 0) {
                    return null;
                }
                CachedPlan plan = engine.cachedPlan(normalized);
                if (plan == null || !(plan.statement() instanceof Select select) || select.tables().isEmpty()) {
                    return null;
                }
                for (TableRef t : select.tables()) {
                    if (t.schema() != null && !t.schema().equalsIgnoreCase(schema)) {
                        return null;
                    }
                }
                RoutePlan route = route(select, normalized, plan, List.of());
                boolean concat = route.merge() instanceof MergeSpec.Concat c && c.tail().equals(MergeSpec.Tail.NONE);
                if (!(route.merge() instanceof MergeSpec.PassThrough) && !concat) {
                    return null;
                }
                return new RelayPlan(route.units(), engine.rule().schema(), setup);
            } catch (RuntimeException e) {
                return null; // a lexer or routing error included: execute reports it
            }
        }

        @Override
        public void started(String sql, RelayPlan plan) {
            diagnostics = new Diagnostics(plan.units().size());
        }

        @Override
        public String translate(String backend, int errno, String message) {
            return execution.messages().logical(backend, errno, message);
        }

        @Override
        public void warnings(int unit, String backend, int count, List<Condition> conditions) {
            List<Condition> logical = new ArrayList<>(conditions.size());
            for (Condition c : conditions) {
                logical.add(new Condition(c.level(), c.code(), translate(backend, c.code(), c.message())));
            }
            diagnostics.unit(unit, count, logical);
        }

        @Override
        public void failed(int errno, String message) {
            EngineSession.this.failed(errno, message);
        }

        @Override
        public void ended() {}

        @Override
        public int warningCount() {
            return diagnostics.warningCount();
        }

        @Override
        public boolean inTransaction() {
            return EngineSession.this.inTransaction();
        }

        @Override
        public boolean autocommit() {
            return EngineSession.this.autocommit();
        }
    }

    /** The route plan a statement would run with (PREVIEW). */
    public RoutePlan preview(String sql, List<Object> params) {
        NormalizedSql normalized = normalize(sql);
        CachedPlan plan = plan(normalized);
        requireSchema(plan.statement());
        return switch (plan.statement()) {
            case SessionCommand c -> throw new ShardwiseException(ErrorCode.UNSUPPORTED, "PREVIEW of " + c.kind()
                    + " (it runs in the session, on no shard)");
            case Select s -> route(s, normalized, plan, params);
            case Insert i -> route(i, normalized, plan, params);
            case Update u -> route(u, normalized, plan, params);
            case Delete d -> route(d, normalized, plan, params);
            case Ddl d -> route(d, normalized, plan, params);
            case Passthrough p -> route(p, normalized, plan, params);
        };
    }

    private RoutePlan route(Statement statement, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        return engine.router().route(plan.prepared(), new StatementBindings(normalized, params),
                SourceText.original(normalized, plan.digestTokenOffsets()));
    }

    private StatementResult run(RoutePlan route) {
        diagnostics = new Diagnostics(route.units().size());
        List<UnitResult> results = execution.execute(route.units(), diagnostics);
        if (results.get(0) instanceof UnitResult.Rows) {
            List<ResultCursor> cursors = new ArrayList<>(results.size());
            for (UnitResult r : results) {
                cursors.add(((UnitResult.Rows) r).cursor());
            }
            if (cursors.size() == 1) {
                return new StatementResult.Rows(cursors.get(0));
            }
            Diagnostics area = diagnostics;
            return new StatementResult.Rows(Merger.merge(cursors, route.mergeFor(cursors.get(0).columns().size()), area::merged));
        }
        long affected = 0;
        long lastInsertId = 0;
        int warnings = 0;
        for (UnitResult r : results) {
            if (!(r instanceof UnitResult.Update u)) {
                throw new ShardwiseException(ErrorCode.BUG, "units of one statement returned both rows and counts");
            }
            // each copy of a broadcast table reports the same change: count it once
            affected = route.kind() == RouteKind.BROADCAST_WRITE ? u.affectedRows() : affected + u.affectedRows();
            if (lastInsertId == 0) {
                lastInsertId = u.lastInsertId();
            }
            warnings += u.warnings();
        }
        if (!route.generatedKeys().isEmpty() && route.generatedKeys().get(0) instanceof Long first) {
            lastInsertId = first;
        }
        return new StatementResult.Update(affected, lastInsertId, route.generatedKeys(), warnings);
    }

    private StatementResult command(SessionCommand command, NormalizedSql normalized, List<Object> params, Diagnostics previous) {
        String sql = normalized.sql();
        switch (command.kind()) {
            case BEGIN -> {
                Boolean requested = TransactionAccess.requested(sql);
                execution.begin();
                access.began(requested, execution.state());
            }
            case COMMIT -> execution.commit();
            case ROLLBACK -> execution.rollback();
            case SAVEPOINT -> execution.savepoint(SessionCommands.savepointName(sql, 1, normalized.lexicalMode()));
            case ROLLBACK_TO_SAVEPOINT -> execution.rollbackToSavepoint(SessionCommands.lastWord(sql, normalized.lexicalMode()));
            case RELEASE_SAVEPOINT -> execution.releaseSavepoint(SessionCommands.lastWord(sql, normalized.lexicalMode()));
            case SET -> {
                String backend = engine.rule().config().defaultBackend();
                ForwardedSet.apply(execution, backend, () -> SessionCommands.set(sql, execution, backend));
                local.recordSet(sql);
            }
            case USE -> {
                SessionCommands.use(SessionCommands.lastWord(sql, normalized.lexicalMode()), engine.rule().schema());
                schema = engine.rule().schema();
            }
            case PREVIEW -> {
                return new StatementResult.Rows(SessionCommands.previewRows(preview(SessionCommands.afterFirstWord(sql, normalized.lexicalMode()), params)));
            }
            case NO_OP -> { }
            case DO -> {
                return onDefaultBackend(normalized, params);
            }
            case SHOW, DESCRIBE, EXPLAIN -> {
                ResultCursor answer = local.show(sql, schema, execution.autocommit());
                if (answer == null) {
                    throw unsupported(command); // EXPLAIN of a statement
                }
                return new StatementResult.Rows(answer);
            }
            case INFORMATION_SCHEMA -> {
                ResultCursor answer = local.show(sql, schema, execution.autocommit());
                // null: it names only server-wide tables, which need no logical view
                return answer == null ? onDefaultBackend(normalized, params) : new StatementResult.Rows(answer);
            }
            case VARIABLES -> {
                ResultCursor answer = local.variables(sql, execution.autocommit(), schema, previous);
                if (answer == null) {
                    return onDefaultBackend(normalized, params); // a variable or function the session does not know
                }
                if (SessionStatements.keepsDiagnostics(sql)) {
                    diagnostics = previous; // @@warning_count reads the previous area and leaves it
                }
                return new StatementResult.Rows(answer);
            }
            case DIAGNOSTICS -> {
                ResultCursor answer = local.diagnostics(sql, previous);
                diagnostics = previous; // SHOW WARNINGS leaves the area it reads (a malformed one replaced it)
                return new StatementResult.Rows(answer);
            }
            case KILL -> local.kill(sql);
            case LOCK_TABLES, UNLOCK_TABLES, FLUSH, OTHER -> throw unsupported(command);
        }
        return StatementResult.Update.OK;
    }

    private static ShardwiseException unsupported(SessionCommand command) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, command.kind().name().replace('_', ' ') + " statements through the engine");
    }

    /** The statement as written, on the default backend (in the session's transaction, if any). */
    private StatementResult onDefaultBackend(NormalizedSql normalized, List<Object> params) {
        return run(new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(engine.rule().config().defaultBackend(),
                normalized.sql(), params, java.util.Map.of())), new MergeSpec.PassThrough()));
    }

    /**
     * The diagnostics area of the last statement (what SHOW WARNINGS lists): complete for an update
     * once {@code execute} returned, for rows once the cursor reached the end. Diagnostic statements
     * (SHOW WARNINGS, {@code @@warning_count}) read it without running through {@code execute}.
     */
    public Diagnostics diagnostics() {
        return diagnostics;
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

    /** Units of a plan, for callers that show where a statement ran. */
    static List<String> describe(RoutePlan plan) {
        List<String> out = new ArrayList<>();
        for (ExecutionUnit u : plan.units()) {
            out.add(u.explain());
        }
        return out;
    }
}
