package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.session.SetStatement;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.List;

/**
 * The session-command side of one {@link EngineSession}: transactions and savepoints, SET, USE,
 * PREVIEW, and what the session answers itself (SHOW, DESCRIBE, variables, diagnostics, KILL,
 * information_schema), one exhaustive switch over {@link SessionCommand.Kind}. Not thread-safe, as
 * its session.
 */
final class SessionCommandRunner {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final PlanRunner plans;
    /** What the session answers itself (SHOW, variables, diagnostics, KILL), and the variables clients read back. */
    private final SessionStatements local;
    /** READ ONLY / READ WRITE of the open and next transactions (START TRANSACTION READ ONLY sets it). */
    private final TransactionAccess access;
    /** The logical tables the session holds LOCK TABLES on. */
    private final TableLocks locks;

    SessionCommandRunner(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans, SessionStatements local,
            TransactionAccess access, TableLocks locks) {
        this.locks = locks;
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
        this.local = local;
        this.access = access;
    }

    /** A BEGIN a face's event loop ran (EngineRelay#transactionCommand), the executor's part done: what {@link #run}'s BEGIN does after it. */
    void began(Boolean requested) {
        locks.release();
        access.began(requested, execution.state());
    }

    /**
     * COMMIT or ROLLBACK, then what {@link TransactionCompletion} reads of it. {@code AND CHAIN} begins the next
     * transaction at once with the ended one's isolation level and access mode (MariaDB keeps them even when
     * they were a one-shot {@code SET TRANSACTION}'s, or the session's changed meanwhile); outside a transaction
     * it begins one with what a pending {@code SET TRANSACTION} asked for. Without a chain, a pending
     * next-transaction level and mode are dropped, as MariaDB resets them at every COMMIT and ROLLBACK. A
     * failed COMMIT neither chains nor releases. {@code RELEASE} marks the session released: its face ends it
     * after the OK ({@link EngineSession#released}).
     */
    private void end(SessionCommand command, NormalizedSql normalized) {
        TransactionCompletion how = TransactionCompletion.of(command.argument(), normalized.lexicalMode(), local.completionType());
        boolean open = execution.inTransaction();
        io.shardwise.core.execute.SessionState.Isolation level = open ? execution.transactionLevel() : null;
        if (open && level == null && how.chain() && execution.state().isolation() != null) {
            level = local.defaultIsolation(); // began at the backends' default, and a SET SESSION changed the session's since
        }
        Boolean readOnly = open ? access.readOnlyNow(execution) : null;
        if (command.kind() == SessionCommand.Kind.COMMIT) {
            execution.commit();
        } else {
            execution.rollback();
        }
        io.shardwise.core.execute.SessionState state = execution.state();
        if (how.chain()) {
            if (level != null) {
                state.setNextIsolation(level);
            }
            locks.release(); // as BEGIN: a new transaction releases table locks
            execution.begin();
            access.began(readOnly, state);
        } else {
            state.takeNextIsolation();
            state.takeNextReadOnly();
        }
        if (how.release()) {
            session.release();
        }
    }

    /** An EXPLAIN's answer with its columns as the session's results describe them (a backend's already are). */
    private StatementResult described(StatementResult result) {
        return result instanceof StatementResult.Rows r ? new StatementResult.Rows(local.described(r.cursor())) : result;
    }

    /** @param previous the previous statement's diagnostics area, which diagnostic statements read */
    StatementResult run(SessionCommand command, NormalizedSql normalized, List<Object> params, Diagnostics previous) {
        String sql = normalized.sql();
        switch (command.kind()) {
            case BEGIN -> {
                locks.release(); // START TRANSACTION releases table locks, as in MySQL (the executor's too)
                Boolean requested = TransactionAccess.requested(sql);
                execution.begin();
                access.began(requested, execution.state());
            }
            case COMMIT, ROLLBACK -> end(command, normalized);
            case SAVEPOINT -> execution.savepoint(SessionCommands.savepointName(sql, 1, normalized.lexicalMode()));
            case ROLLBACK_TO_SAVEPOINT -> execution.rollbackToSavepoint(SessionCommands.lastWord(sql, normalized.lexicalMode()));
            case RELEASE_SAVEPOINT -> execution.releaseSavepoint(SessionCommands.lastWord(sql, normalized.lexicalMode()));
            case SET -> {
                SetStatement set = SetStatement.parse(sql, normalized.lexicalMode()); // read once: applied, then recorded
                String backend = engine.rule().config().defaultBackend();
                SetStatement[] applied = new SetStatement[1];
                ForwardedSet.apply(execution, backend, () -> applied[0] = SessionCommands.set(set, execution, backend, local.users(),
                        normalized.lexicalMode(), this::evaluate, local.collations()));
                local.recordSet(applied[0]);
            }
            case USE -> {
                SessionCommands.use(SessionCommands.lastWord(sql, normalized.lexicalMode()), engine.rule().schema(), local);
                session.schema(engine.rule().schema());
            }
            case PREVIEW -> {
                String previewed = SessionCommands.afterFirstWord(sql, normalized.lexicalMode());
                return new StatementResult.Rows(local.described(SessionCommands.previewRows(plans.preview(session.normalize(previewed),
                        params))));
            }
            case NO_OP -> { }
            case DO -> {
                return plans.onDefaultBackend(normalized, params);
            }
            case SHOW, DESCRIBE, EXPLAIN -> {
                ResultCursor answer = local.show(sql, normalized.lexicalMode(), session.schema(), execution.autocommit());
                ExplainStatement explain = answer != null || command.kind() == SessionCommand.Kind.SHOW ? null
                        : ExplainStatement.parse(sql, normalized.lexicalMode());
                if (explain != null) {
                    return described(session.explains().run(explain, params));
                }
                if (answer == null) {
                    throw unsupported(command);
                }
                return new StatementResult.Rows(local.described(answer));
            }
            case INFORMATION_SCHEMA -> {
                ResultCursor answer = local.show(sql, normalized.lexicalMode(), session.schema(), execution.autocommit());
                // null: it names only server-wide tables, which need no logical view
                return answer == null ? plans.onDefaultBackend(normalized, params) : new StatementResult.Rows(local.described(answer));
            }
            case VARIABLES -> {
                ResultCursor answer = local.variables(sql, normalized.lexicalMode(), execution.autocommit(), session.schema(), previous);
                if (answer == null) {
                    // a variable or function the session does not know: the backend answers, with the session's own
                    // values spliced in; user variables it must not see are read as literals
                    String read = local.users().forBackend(sql, normalized.lexicalMode());
                    String mixed = local.variablesForBackend(read, normalized.lexicalMode(), execution.autocommit(), session.schema());
                    String text = mixed != null ? mixed : read;
                    return plans.onDefaultBackend(text == sql ? normalized : session.normalize(text), params);
                }
                if (SessionStatements.keepsDiagnostics(sql)) {
                    session.keepDiagnostics(previous); // @@warning_count reads the previous area and leaves it
                }
                return new StatementResult.Rows(local.described(answer));
            }
            case DIAGNOSTICS -> {
                ResultCursor answer = local.diagnostics(sql, normalized.lexicalMode(), previous);
                session.keepDiagnostics(previous); // SHOW WARNINGS leaves the area it reads (a malformed one replaced it)
                return new StatementResult.Rows(local.described(answer));
            }
            case KILL -> local.kill(sql);
            case LOCK_TABLES -> {
                List<TableLocks.Lock> wanted = TableLocks.parse(sql, normalized.lexicalMode());
                locks.release(); // LOCK TABLES first releases what the session holds, even when it then fails
                execution.lockTables(TableLocks.units(wanted, engine.rule()));
                locks.hold(wanted);
            }
            case UNLOCK_TABLES -> {
                execution.unlockTables();
                locks.release();
            }
            case FLUSH -> local.flush(sql, normalized.lexicalMode());
            case OTHER -> throw unsupported(command);
        }
        return StatementResult.Update.OK;
    }

    /**
     * {@code SELECT ... INTO @a, ...}: the SELECT runs as any other (routed, merged), and its one row
     * assigns the variables, typed by its columns; no row keeps them and warns 1329, several fail
     * with 1172, as in MySQL.
     */
    StatementResult selectInto(UserVariables.Into into, List<Object> params) {
        StatementResult result = session.execute(session.normalize(into.select()), params);
        if (!(result instanceof StatementResult.Rows rows)) {
            throw new ShardwiseException(ErrorCode.BUG, into.select() + " returned no rows");
        }
        List<UserVariables.Value> values = new java.util.ArrayList<>();
        try (ResultCursor cursor = rows.cursor()) {
            if (cursor.columns().size() != into.targets().size()) {
                throw new ShardwiseException(ErrorCode.BACKEND_ERROR, "The used SELECT statements have a different number of columns");
            }
            if (!cursor.next()) {
                Diagnostics area = new Diagnostics(1);
                area.unit(0, 1, List.of(new io.shardwise.core.execute.Condition(io.shardwise.core.execute.Condition.Level.WARNING,
                        ErrorCode.NO_DATA.errno(), ErrorCode.NO_DATA.message())));
                session.diagnostics(area);
                return new StatementResult.Update(0, 0, List.of(), 1);
            }
            for (int i = 0; i < into.targets().size(); i++) {
                values.add(UserVariables.Value.of(cursor.columns().get(i), cursor.get(i)));
            }
            if (cursor.next()) {
                throw new ShardwiseException(ErrorCode.MORE_THAN_ONE_ROW);
            }
        }
        session.diagnostics(Diagnostics.empty());
        for (int i = 0; i < values.size(); i++) {
            local.users().set(into.targets().get(i), values.get(i));
        }
        return new StatementResult.Update(1, 0, List.of(), 0);
    }

    /**
     * The value of {@code select} (one item) as this session runs it: its plan routes it (a subquery
     * over logical tables included), and its one column types the value as MySQL types an assignment.
     */
    private UserVariables.Value evaluate(String select) {
        StatementResult result = session.execute(session.normalize(select), List.of());
        if (!(result instanceof StatementResult.Rows rows)) {
            throw new ShardwiseException(ErrorCode.BUG, select + " returned no rows");
        }
        try (ResultCursor cursor = rows.cursor()) {
            if (!cursor.next()) {
                return UserVariables.Value.NULL; // a subquery without rows is NULL
            }
            UserVariables.Value value = UserVariables.Value.of(cursor.columns().get(0), cursor.get(0));
            if (cursor.next()) {
                throw new ShardwiseException(ErrorCode.SUBQUERY_MORE_THAN_ONE_ROW);
            }
            return value;
        }
    }

    private static ShardwiseException unsupported(SessionCommand command) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, command.kind().name().replace('_', ' ') + " statements through the engine");
    }
}
