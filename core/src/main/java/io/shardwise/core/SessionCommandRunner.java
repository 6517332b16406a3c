package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.SessionStatements;
import io.shardwise.core.session.SetStatement;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.normalize.NormalizedSql;
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

    SessionCommandRunner(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans, SessionStatements local,
            TransactionAccess access) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
        this.local = local;
        this.access = access;
    }

    /** @param previous the previous statement's diagnostics area, which diagnostic statements read */
    StatementResult run(SessionCommand command, NormalizedSql normalized, List<Object> params, Diagnostics previous) {
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
                SetStatement set = SetStatement.parse(sql, normalized.lexicalMode()); // read once: applied, then recorded
                String backend = engine.rule().config().defaultBackend();
                ForwardedSet.apply(execution, backend, () -> SessionCommands.set(set, execution, backend, local.collations()));
                local.recordSet(set);
            }
            case USE -> {
                SessionCommands.use(SessionCommands.lastWord(sql, normalized.lexicalMode()), engine.rule().schema(), local);
                session.schema(engine.rule().schema());
            }
            case PREVIEW -> {
                String previewed = SessionCommands.afterFirstWord(sql, normalized.lexicalMode());
                return new StatementResult.Rows(SessionCommands.previewRows(plans.preview(session.normalize(previewed), params)));
            }
            case NO_OP -> { }
            case DO -> {
                return plans.onDefaultBackend(normalized, params);
            }
            case SHOW, DESCRIBE, EXPLAIN -> {
                ResultCursor answer = local.show(sql, normalized.lexicalMode(), session.schema(), execution.autocommit());
                if (answer == null) {
                    throw unsupported(command); // EXPLAIN of a statement
                }
                return new StatementResult.Rows(answer);
            }
            case INFORMATION_SCHEMA -> {
                ResultCursor answer = local.show(sql, normalized.lexicalMode(), session.schema(), execution.autocommit());
                // null: it names only server-wide tables, which need no logical view
                return answer == null ? plans.onDefaultBackend(normalized, params) : new StatementResult.Rows(answer);
            }
            case VARIABLES -> {
                ResultCursor answer = local.variables(sql, normalized.lexicalMode(), execution.autocommit(), session.schema(), previous);
                if (answer == null) {
                    // a variable or function the session does not know: the backend answers, with the session's own values spliced in
                    String mixed = local.variablesForBackend(sql, normalized.lexicalMode(), execution.autocommit(), session.schema());
                    return plans.onDefaultBackend(mixed == null ? normalized : session.normalize(mixed), params);
                }
                if (SessionStatements.keepsDiagnostics(sql)) {
                    session.diagnostics(previous); // @@warning_count reads the previous area and leaves it
                }
                return new StatementResult.Rows(answer);
            }
            case DIAGNOSTICS -> {
                ResultCursor answer = local.diagnostics(sql, normalized.lexicalMode(), previous);
                session.diagnostics(previous); // SHOW WARNINGS leaves the area it reads (a malformed one replaced it)
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
}
