package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.session.Collations;
import io.shardwise.core.session.SessionHost;
import io.shardwise.core.session.SetStatement;
import io.shardwise.core.session.SystemSchemas;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.sql.analyze.Call;
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
import io.shardwise.core.sql.normalize.Literal;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import io.shardwise.core.sql.normalize.QueryStatements;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.ValueRef;
import io.shardwise.core.session.UserVariables;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * One client's session over the engine: runs statements through normalize, plan cache, route,
 * execute and merge, and keeps the session's transaction and settings (through its
 * {@link ExecutionSession}). Not thread-safe: one statement at a time, as a MySQL connection.
 */
public final class EngineSession implements AutoCloseable {
    private final Engine engine;
    private final ExecutionSession execution;
    /** The current database: the logical schema, or null before the client names one (USE, COM_INIT_DB). */
    private String schema;
    /** The last statement's diagnostics area (SHOW WARNINGS); replaced when the next statement starts. */
    private Diagnostics diagnostics = Diagnostics.empty();
    /** The running (or last) statement was a diagnostic one that left the previous area in place. */
    private boolean keptDiagnostics;
    /** What the session answers itself (SHOW, variables, diagnostics, KILL), and the variables clients read back. */
    private final SessionStatements local;
    /** Versioned executable comments run as the server this session announces runs them; asked only when a statement has one. */
    private final ExecutableComments.Gate executableComments = (version, mariaDb) -> EngineSession.this.local.identity().executes(version, mariaDb);
    /** READ ONLY / READ WRITE of the open and next transactions; refuses writes with 1792. */
    private final TransactionAccess access = new TransactionAccess();
    /** The logical tables this session holds LOCK TABLES on: a statement naming another fails with 1100. */
    private final TableLocks locks = new TableLocks();
    private final PlanRunner plans;
    private final CallRunner calls;
    private final SessionCommandRunner commands;
    /** See {@link #released}. */
    private boolean released;
    private final RelaySession relay;
    private final LoadDataRunner loads;
    private final AssigningRunner assigning;
    private final ExplainRunner explains;
    /** How this session's client sends LOAD DATA LOCAL files; null when it cannot (no CLIENT_LOCAL_FILES). */
    private LocalFiles localFiles;
    /**
     * Statements normalized with user variables read as literals, to their text: a face that keeps a
     * normalized statement for many executions (a JDBC prepared statement) must read the values of each.
     */
    private final Map<NormalizedSql, String> readsUserVariables = new WeakHashMap<>();
    /** The handshake's collation id until the session's thread applies it (-1: applied, or none). */
    private int handshakeCollation = -1;
    private final String defaultBackend;
    private long lastInsertId;
    /**
     * Whether {@link #lastInsertId} is MySQL's LAST_INSERT_ID() for certain: false after a write whose insert id Shardwise
     * could not tell generated (LAST_INSERT_ID() takes it) from an explicit AUTO_INCREMENT value (MySQL's OK packet
     * reports that too, and LAST_INSERT_ID() keeps its value).
     */
    private boolean lastInsertIdExact = true;
    /** What the write now running said of its insert id ({@link #insertIdGenerated}), null when it said nothing. */
    private Boolean idGenerated;
    /** SET NAMES of the handshake's collation, which COM_RESET_CONNECTION restores; null for the server's default. */
    private SetStatement handshakeNames;

    /** The engine this session runs on (its federation settings and counters). */
    Engine engine() {
        return engine;
    }

    EngineSession(Engine engine, ExecutionSession execution, String schema, SessionHost host) {
        this.engine = engine;
        this.defaultBackend = engine.rule().config().defaultBackend();
        this.execution = execution;
        this.schema = schema;
        this.local = new SessionStatements(engine.rule(), host, this::sqlMode, this::readOnly, () -> execution.state().isolation());
        this.local.lastInsertId(this::lastInsertId);
        this.local.inTransaction(() -> execution.inTransaction());
        this.plans = new PlanRunner(engine, execution, this);
        this.explains = new ExplainRunner(engine, execution, this, plans);
        this.calls = new CallRunner(engine, execution, this, local.users());
        this.commands = new SessionCommandRunner(engine, execution, this, plans, local, access, locks);
        this.relay = new EngineRelay(engine, execution, this, plans);
        this.loads = new LoadDataRunner(engine, execution, this);
        this.assigning = new AssigningRunner(engine, execution, this, plans, plans.federation(), local.users());
    }

    /** The current database (MySQL's {@code DATABASE()}): the logical schema, or null when none is selected. */
    public String schema() {
        return schema;
    }

    /** USE: the current database changes. */
    void schema(String schema) {
        this.schema = schema;
    }

    /** A face whose prepared parameters come typed by the binary protocol: see {@link ExecutionSession#typeTemporalParameters}. */
    public void typeTemporalParameters() {
        execution.typeTemporalParameters();
    }

    /** A text statement: literals inline. */
    public StatementResult execute(String sql) {
        return execute(sql, List.of());
    }

    /**
     * As {@link #execute(String, List)}, for a statement whose rows a cursor will fetch in batches: its units
     * stream from the backends while the cursor is open, never read whole first.
     */
    public StatementResult executeStreaming(String sql, List<Object> params) {
        return execution.streaming(() -> execute(sql, params));
    }

    /** A prepared statement: {@code ?} markers and their values, in order. */
    public StatementResult execute(String sql, List<Object> params) {
        return run(normalize(sql), params, NO_OUT);
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
        String read = local.users().substitute(executed, mode);
        NormalizedSql normalized = Normalizer.normalize(ExplicitBytes.of(read, mode, state.clientCharset()), mode);
        if (read != executed) {
            readsUserVariables.put(normalized, sql);
        }
        return normalized;
    }

    /** How the client sends {@code LOAD DATA LOCAL} files; null (the default): it cannot, and such a statement is refused. */
    public void localFiles(LocalFiles files) {
        this.localFiles = files;
    }

    /** The lexical mode of the session's sql_mode: a face must tell its client (SERVER_STATUS_NO_BACKSLASH_ESCAPES). */
    public LexicalMode lexicalMode() {
        return execution.state().lexicalMode();
    }

    /** The session's sql_mode as set by its statements, or null while it is the backend's default. */
    public String sqlMode() {
        return execution.state().sqlMode();
    }

    /** {@code insert}, a federated copy's INSERT, run with NO_AUTO_VALUE_ON_ZERO added to the session's sql_mode for it alone. */
    String keepingZeros(io.shardwise.core.federate.CopyScans.Bound copy, String insert) {
        if (!io.shardwise.core.federate.CopyTexts.mayAutoIncrement(copy)) {
            return insert;
        }
        boolean mariaDb = local.identity().mariaDb();
        return io.shardwise.core.federate.CopyTexts.keepingZeros(insert, mariaDb, mariaDb ? null : local.sqlMode());
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

    /** Columns Shardwise describes itself (PREVIEW, EXPLAIN at prepare time) as the session's results describe them. */
    List<io.shardwise.core.execute.Column> described(List<io.shardwise.core.execute.Column> columns) {
        return local.described(columns);
    }

    /**
     * The collation id of the client's handshake: its statement bytes decode in that character set at
     * once, and before its first statement runs the session takes that character set and collation as
     * if by {@code SET NAMES} (results, connection, the variables read back), as MySQL does; an id the
     * backend does not know keeps the server's default. Never blocks (a face calls it on an event loop).
     */
    public void handshakeCollation(int id) {
        setClientCharset(ClientCharset.forCollation(id));
        handshakeCollation = id;
    }

    /**
     * Whether the handshake's character set still waits for the session's thread, which may ask the
     * default backend for it: nothing may be relayed before. Settled here when that needs no backend
     * (the tables were read at the server's start), so a session's first SELECT may be relayed.
     */
    boolean handshakePending() {
        if (handshakeCollation >= 0 && local.readyWithoutBackend()) {
            settleHandshake();
        }
        return handshakeCollation >= 0;
    }

    private void settleHandshake() {
        int id = handshakeCollation;
        if (id < 0) {
            return;
        }
        handshakeCollation = -1;
        Collations.Collation c = local.collations().byId(id);
        if (c != null) {
            handshakeNames = new SetStatement(List.of(new SetStatement.Names(true, c.charset(), c.name())));
            applyNames(handshakeNames);
        }
    }

    private void applyNames(SetStatement names) {
        SessionCommands.set(names, execution, defaultBackend, local.users(), execution.state().lexicalMode(), expression -> {
            throw new ShardwiseException(ErrorCode.BUG, "SET NAMES evaluated an expression");
        }, local.collations());
        local.recordSet(names);
    }

    /**
     * A statement naming a table of the backends' system schemas (mysql.user ...): refused with 1142 as
     * MySQL refuses a user without privileges there, unless an administrator reads (SessionStatements
     * checks the SHOW forms). A cheap scan for the names first: most statements name none.
     */
    private void checkSystemSchemas(Statement statement, NormalizedSql normalized) {
        String sql = normalized.sql();
        String verb = switch (statement) {
            case SessionCommand c -> null;
            case Select s -> "SELECT";
            case Insert i -> "INSERT";
            case Update u -> "UPDATE";
            case Delete d -> "DELETE";
            case Ddl d -> d.verb();
            case Passthrough p -> SessionCommands.firstWord(sql, normalized.lexicalMode());
            case Call c -> "CALL";
        };
        if (verb == null) {
            return;
        }
        String[] named = SystemSchemas.named(sql, normalized.lexicalMode());
        if (named != null) {
            boolean read = statement instanceof Select || verb.equalsIgnoreCase("select");
            local.systemSchemas().check(verb, read, named[0], named[1]);
        }
    }

    /** EXPLAIN of a statement ({@link ExplainRunner}). */
    ExplainRunner explains() {
        return explains;
    }

    /** The checks a statement passes before it is routed that EXPLAIN of it passes too: LOCK TABLES, system schemas. */
    void checkExplained(Statement statement, NormalizedSql normalized) {
        locks.check(statement);
        checkSystemSchemas(statement, normalized);
    }

    /** LAST_INSERT_ID(): the first id generated by the session's last write that generated one, as MySQL keeps it. */
    /**
     * DDL as MySQL runs it ({@link ImplicitCommit}): the open transaction committed first on every backend it
     * touched (savepoints gone, no chain whatever completion_type says), then the DDL, then a commit again, since
     * with autocommit off the DDL opened one that its backends already committed. Run whether the DDL succeeds
     * or fails, as both servers commit before they run it.
     */
    private StatementResult implicitlyCommitted(Supplier<StatementResult> ddl) {
        execution.commit();
        StatementResult result;
        try {
            result = ddl.get();
        } catch (RuntimeException e) {
            try {
                execution.commit();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        execution.commit();
        return result;
    }

    private StatementResult wrote(StatementResult result) {
        Boolean generated = idGenerated;
        idGenerated = null;
        if (result instanceof StatementResult.Update u && u.lastInsertId() != 0) {
            if (generated == null) {
                // Shardwise's own keys are generated; a backend's insert id may be a row's explicit value
                lastInsertId = u.lastInsertId();
                lastInsertIdExact = !u.generatedKeys().isEmpty();
            } else if (generated) {
                lastInsertId = u.lastInsertId();
                lastInsertIdExact = true;
            }
        }
        return result;
    }

    /**
     * An INSERT ... VALUES's result, its insert id classified ({@link #insertIdGenerated}) when its key column is known:
     * MySQL reports the first generated id, or, when it generated none, the last row's own AUTO_INCREMENT value. The
     * column taken for the AUTO_INCREMENT one is the table's generated-key column, else its sharding key (another
     * AUTO_INCREMENT column of a sharded table counts on each shard apart: its ids are not one MySQL's anyway).
     */
    private StatementResult valuesInserted(Insert insert, NormalizedSql normalized, List<Object> params, StatementResult result) {
        if (result instanceof StatementResult.Update u && u.lastInsertId() != 0 && u.generatedKeys().isEmpty()
                && givenId(insert, normalized, params) instanceof String given) {
            idGenerated = !given.equals(Long.toUnsignedString(u.lastInsertId()));
        }
        return result;
    }

    /** The last row's value of the AUTO_INCREMENT column of INSERT ... VALUES {@code insert}, as text ({@link #valuesInserted}), or null when not known. */
    String givenId(Insert insert, NormalizedSql normalized, List<Object> params) {
        if (insert.rows().isEmpty() || insert.tables().isEmpty() || insert.source() != null) {
            return null;
        }
        String column = switch (engine.rule().logicalTables().served(insert.table().name())) {
            case TableRule.Sharded sh -> sh.generatedKey() != null ? sh.generatedKey().column() : sh.keyColumn();
            case TableRule.Broadcast b -> b.generatedKey() != null ? b.generatedKey().column() : null;
            case null, default -> null;
        };
        int at = -1;
        for (int c = 0; column != null && c < insert.columns().size(); c++) {
            at = insert.columns().get(c).equalsIgnoreCase(column) ? c : at;
        }
        List<ValueRef> last = insert.rows().get(insert.rows().size() - 1);
        if (at < 0 || at >= last.size() || last.get(at) == null) {
            return null;
        }
        return String.valueOf(switch (last.get(at)) {
            case ValueRef.Param p -> new StatementBindings(normalized, params).value(p.index());
            case ValueRef.Const k -> k.value();
        });
    }

    /**
     * The write now running says whether its insert id was generated (INSERT ... SELECT knows its rows): an explicit
     * value leaves LAST_INSERT_ID() as it was, as in MySQL ({@link #wrote}).
     */
    void insertIdGenerated(boolean generated) {
        idGenerated = generated;
    }

    /** Whether {@link #lastInsertId} is MySQL's LAST_INSERT_ID() for certain ({@link #lastInsertIdExact}). */
    boolean lastInsertIdExact() {
        return lastInsertIdExact;
    }

    /** A write the server's relay answered: LAST_INSERT_ID() and the description cache as after {@link #wrote}. */
    void relayedWrite(long insertId, String givenId) {
        engine.descriptions().invalidateAll();
        if (insertId != 0 && !Long.toUnsignedString(insertId).equals(givenId)) {
            lastInsertId = insertId;
            lastInsertIdExact = givenId != null; // without the row's own value, it may have been that
        }
    }

    /** A BEGIN the relay ran ({@link EngineRelay#transactionCommand}): what the session records of it, as after its own. */
    void relayedBegin(Boolean requested) {
        commands.began(requested);
    }

    /** Whether a write now would be refused with 1792 (read-only transaction or access mode); consumes nothing. */
    boolean refusesWrite() {
        return access.refusesWrite(execution);
    }

    /** The access check a statement the relay runs passed (it consumes a next-transaction mode as {@link #run} would). */
    void accessChecked(Statement statement) {
        access.check(statement, execution);
    }

    /** The open (or opening) transaction is READ ONLY. */
    boolean transactionReadOnly() {
        return access.readOnlyNow(execution);
    }

    /** {@code LAST_INSERT_ID()} of this session. */
    public long lastInsertId() {
        return lastInsertId;
    }

    /**
     * A client that announced CLIENT_INTERACTIVE: its wait_timeout starts as interactive_timeout, as in
     * MySQL. Never blocks.
     */
    public void interactive() {
        local.interactive();
    }

    /**
     * The session's wait_timeout in seconds, which the server face enforces on an idle client (0 when
     * the session set it to an expression only a backend knows the value of: the caller keeps the last).
     */
    public long waitTimeoutSeconds() {
        return local.waitTimeoutSeconds();
    }

    /** A client's statement bytes as text, losslessly ({@link ClientCharset}). */
    public String decode(byte[] statement) {
        return clientCharset().decode(statement);
    }

    /** As {@link #decode(byte[])}, of {@code length} bytes from {@code offset} (a caller's reused array). */
    public String decode(byte[] statement, int offset, int length) {
        return clientCharset().decode(statement, offset, length);
    }

    /**
     * A statement normalized by the caller: a JDBC prepared statement normalizes its text once,
     * when prepared, rather than on every execution.
     */
    public StatementResult execute(NormalizedSql normalized, List<Object> params) {
        return execute(normalized, params, NO_OUT);
    }

    private static final BitSet NO_OUT = new BitSet();

    /**
     * A CALL whose markers at {@code out} (0-based) are OUT or INOUT parameters (JDBC's
     * CallableStatement): an INOUT value is passed in, and after the procedure's results the values
     * come back in {@link StatementResult.Results#outParameters}. Any other statement with OUT
     * markers is refused.
     */
    public StatementResult call(NormalizedSql normalized, List<Object> params, BitSet out) {
        return execute(normalized, params, out);
    }

    private StatementResult execute(NormalizedSql normalized, List<Object> params, BitSet out) {
        String text = readsUserVariables.get(normalized);
        // a prepared text reads its user variables' values of now, not of its prepare
        return run(text != null ? normalize(text) : normalized, params, out);
    }

    private StatementResult run(NormalizedSql normalized, List<Object> params, BitSet out) {
        settleHandshake();
        Diagnostics previous = diagnostics;
        diagnostics = Diagnostics.empty(); // MySQL: every statement but a diagnostic one starts a new area
        keptDiagnostics = false;
        try {
            return executeStatement(normalized, params, previous, out);
        } catch (ShardwiseException e) {
            diagnostics.fail(e.errno(), e.getMessage());
            throw e;
        }
    }

    private StatementResult executeStatement(NormalizedSql normalized, List<Object> params, Diagnostics previous, BitSet out) {
        if (params.isEmpty() && normalized.parameterCount() > 0) {
            // a ? in a text statement is no marker: MySQL's parser refuses it with 1064 where it stands
            for (Literal literal : normalized.literals()) {
                if (literal.isParameter()) {
                    throw QueryStatements.syntaxError(normalized.sql(), literal.start());
                }
            }
        }
        if (normalized.parameterCount() != params.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "statement has " + normalized.parameterCount() + " ? markers but "
                    + params.size() + " values were given");
        }
        if (normalized.tokenCount() == 0 && !normalized.sql().isBlank()) {
            return StatementResult.Update.OK; // only comments (a skipped /*!99999 ... */ too): MySQL's empty statement, no error
        }
        if (LoadDataStatement.is(normalized)) {
            LoadDataStatement load = LoadDataStatement.parse(normalized);
            access.checkWrite(execution);
            return loads.run(load, localFiles, local.identity().mariaDb());
        }
        UserVariables.Into into = UserVariables.into(normalized.sql(), normalized.lexicalMode());
        if (into != null) {
            return commands.selectInto(into, params);
        }
        String assigned = UserVariables.innerAssignment(normalized.sql(), normalized.lexicalMode());
        CachedPlan plan;
        try {
            plan = plans.plan(normalized);
        } catch (ShardwiseException e) {
            if (e.code() == ErrorCode.DATABASE_EXISTS) {
                // CREATE DATABASE of the logical schema, answered at analysis: MariaDB commits before it finds the database
                return implicitlyCommitted(() -> {
                    throw e;
                });
            }
            throw e;
        }
        Statement statement = plan.statement();
        plans.requireSchema(statement);
        access.check(statement, execution);
        locks.check(statement);
        checkSystemSchemas(statement, normalized);
        if (!out.isEmpty() && !(statement instanceof Call)) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "OUT parameters of a statement other than CALL");
        }
        if (statement instanceof Insert i && i.columns().isEmpty() && !i.tables().isEmpty()
                && engine.rule().table(i.table().name()) instanceof TableRule.Sharded sharded) {
            String explicit = ImplicitColumns.withColumns(normalized.sql(), normalized.lexicalMode(), execution, sharded.nodes().get(0));
            if (explicit != null) {
                return run(normalize(explicit), params, out); // the router finds the sharding key among the named columns
            }
        }
        if (statement instanceof Insert i && assigned == null && plans.computedKeys(i, normalized, plan, params) instanceof InsertRewrites.Evaluated e) {
            return run(normalize(e.sql()), e.params(), out); // sharding keys given as expressions, evaluated once: now values
        }
        idGenerated = null; // a write that failed after saying leaves nothing for this one
        if (assigned != null) {
            return wrote(assigning.run(assigned, statement, normalized, plan, params)); // whole on one connection
        }
        if (ImplicitCommit.before(statement, normalized.sql(), normalized.lexicalMode())) {
            return implicitlyCommitted(() -> statement instanceof SessionCommand command ? commands.run(command, normalized, params, previous)
                    : statement instanceof Passthrough p ? passthrough(p, normalized, plan, params)
                    : plans.changingColumns(plans.run(plans.route(normalized, plan, params))));
        }
        return switch (statement) {
            case SessionCommand command -> commands.run(command, normalized, params, previous);
            case Insert i -> wrote(i.source() == null ? valuesInserted(i, normalized, params,
                    plans.insertValues(plans.route(normalized, plan, params), i, normalized)) : plans.insertSelect(i, normalized, plan, params));
            case Update u -> wrote(plans.keyable(u, u.choice(), normalized, plan, params));
            case Delete d -> wrote(plans.keyable(d, d.choice(), normalized, plan, params));
            case Select s -> plans.select(s, normalized, plan, params);
            case Ddl d -> plans.changingColumns(plans.run(plans.route(normalized, plan, params)));
            case Passthrough p -> passthrough(p, normalized, plan, params);
            case Call c -> calls.call(c, plans.route(normalized, plan, params), out);
        };
    }

    /**
     * A statement run as written: DROP TRIGGER where its trigger lives ({@link TriggerHome}); a table-maintenance
     * answer names its tables logically ({@link MaintenanceNames}).
     */
    private StatementResult passthrough(Passthrough p, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        RoutePlan route = plans.route(normalized, plan, params);
        if (p.tables().isEmpty()) {
            route = TriggerHome.of(route, normalized.sql(), normalized.lexicalMode(), engine.rule(), plans::run);
        }
        StatementResult result = plans.changingColumns(plans.run(route));
        return MaintenanceNames.logical(result, p, normalized.sql(), normalized.lexicalMode(), engine.rule());
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
        settleHandshake();
        NormalizedSql normalized = normalize(sql);
        if (normalized.tokenCount() > 0 && LoadDataStatement.is(normalized)) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED_PREPARED_STATEMENT); // as MySQL: LOAD DATA is never prepared
        }
        return plans.describe(sql, normalized);
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

    /** The area the running statement fills (a new one). */
    void diagnostics(Diagnostics area) {
        diagnostics = area;
    }

    /** A statement answered without the session's thread starts with {@code area}, as {@link #run} starts one. */
    void newArea(Diagnostics area) {
        diagnostics = area;
        keptDiagnostics = false;
    }

    /** A diagnostic statement (SHOW WARNINGS, {@code @@warning_count}) leaves the previous area in place. */
    void keepDiagnostics(Diagnostics previous) {
        diagnostics = previous;
        keptDiagnostics = true;
    }

    /**
     * The warning count the end of the last statement's result announces (EOF/OK packet, what a client's
     * {@code mysql_warning_count} and Connector/J's getWarnings read): its own area's, and 0 for a
     * diagnostic statement, which reads the previous area without adding to it (MySQL sends 0 after
     * SHOW WARNINGS, so a client does not fetch the same warnings again).
     */
    public int endWarningCount() {
        return keptDiagnostics ? 0 : diagnostics.warningCount();
    }

    /** Whether the last statement was a diagnostic one that read the previous area and left it in place. */
    public boolean keptDiagnostics() {
        return keptDiagnostics;
    }

    /** A statement answered outside {@code execute} (by a face) starts: as in MySQL, it clears the area. */
    public void clearDiagnostics() {
        diagnostics = Diagnostics.empty();
        keptDiagnostics = false;
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
        execute("ROLLBACK AND NO CHAIN NO RELEASE"); // whatever completion_type says
        execute("UNLOCK TABLES");
        execute("SET autocommit = 1");
        execute("SET sql_mode = DEFAULT");
        execute("SET time_zone = DEFAULT");
        execute("SET SESSION TRANSACTION READ WRITE");
        execution.state().takeNextReadOnly();
        execution.state().setIsolation(null); // back to the backend's default, as the variables below
        execution.state().takeNextIsolation();
        local.resetVariables();
        if (handshakeNames != null) {
            applyNames(handshakeNames); // MySQL: the character set and collation of the handshake again
        }
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

    /** COMMIT or ROLLBACK RELEASE (or completion_type RELEASE) ended the session: its face closes it after the OK. */
    void release() {
        released = true;
    }

    /**
     * Whether a {@code COMMIT RELEASE} / {@code ROLLBACK RELEASE} (or a COMMIT or ROLLBACK with completion_type
     * RELEASE) ended this session: the statement succeeded, and its face now ends the client's connection as
     * MariaDB does (the server closes it after the OK; the driver's connection fails its next use as
     * Connector/J's does when the server closed it). Nothing is open any more: the face only closes.
     */
    public boolean released() {
        return released;
    }

    /** The session's completion_type (0 NO_CHAIN, 1 CHAIN, 2 RELEASE); safe to read on a face's event loop. */
    public int completionType() {
        return local.completionType();
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
