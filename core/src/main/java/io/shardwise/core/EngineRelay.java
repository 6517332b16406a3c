package io.shardwise.core;

import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.List;

/**
 * One {@link EngineSession} as a packet relay sees it: the only way a relay reads or changes
 * session state. {@link #plan}: cheap and never blocking, for a caller on an event loop: a
 * plan-cache hit only (a miss would run Calcite), a SELECT over the logical schema's tables whose
 * merge is pass-through or plain concatenation, in autocommit mode outside a transaction with no
 * timeout, so a connection carrying the session's settings ({@link RelayPlan#setup}) gives the same
 * result as the executor's.
 */
final class EngineRelay implements RelaySession {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final PlanRunner plans;

    EngineRelay(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
    }

    @Override
    public RelayPlan plan(String sql) {
        String schema = session.schema();
        boolean transactional = execution.inTransaction() || !execution.autocommit();
        String setup = schema == null || session.handshakePending() ? null
                : transactional ? execution.nativeSetup() : execution.relaySetup();
        if (setup == null) {
            return null;
        }
        try {
            NormalizedSql normalized = session.normalize(sql);
            if (normalized.parameterCount() != 0
                    || UserVariables.innerAssignment(normalized.sql(), normalized.lexicalMode()) != null) {
                return null; // @x := ... runs with the session's variables set and read back (AssigningRunner)
            }
            CachedPlan plan = engine.cachedPlan(normalized);
            if (plan == null || plan.statement().tables().isEmpty()) {
                return null;
            }
            Boolean relayed = switch (plan.statement()) {
                case Select s -> false;
                // an INSERT naming no columns has them filled in by the session first (ImplicitColumns);
                // INSERT ... SELECT reads, then inserts (PlanRunner.insertSelect)
                case Insert i -> i.columns().isEmpty() || i.source() != null ? null : true;
                case Update u -> true;
                case Delete d -> true;
                case SessionCommand c -> null;
                case Ddl d -> null;
                case Passthrough p -> null;
                case Call c -> null;
            };
            if (relayed == null) {
                return null;
            }
            boolean write = relayed;
            for (TableRef t : plan.statement().tables()) {
                if (t.schema() != null && !t.schema().equalsIgnoreCase(schema)) {
                    return null;
                }
            }
            if (write && session.refusesWrite()) {
                return null; // the session reports 1792
            }
            RoutePlan route = plans.route(normalized, plan, List.of());
            // a keyed write's route is the SELECT that chooses its rows (PlanRunner.keyable)
            if (write ? route.units().size() != 1 || !route.generatedKeys().isEmpty() || route.kind() == RouteKind.KEYED_WRITE
                    || !(route.merge() instanceof MergeSpec.PassThrough) : !relayableRead(route)) {
                return null;
            }
            session.accessChecked(plan.statement());
            List<String> begin = transactional ? execution.nativeBegin(session.transactionReadOnly()) : null;
            return new RelayPlan(route.units(), engine.rule().schema(), setup, begin, write);
        } catch (RuntimeException e) {
            return null; // a lexer or routing error included: execute reports it
        }
    }

    private static boolean relayableRead(RoutePlan route) {
        boolean concat = route.merge() instanceof MergeSpec.Concat c && c.tail().equals(MergeSpec.Tail.NONE);
        return route.merge() instanceof MergeSpec.PassThrough || concat;
    }

    @Override
    public void wrote(long affectedRows, long lastInsertId) {
        session.relayedWrite(lastInsertId);
    }

    @Override
    public void attach(io.shardwise.core.execute.NativeTransaction transaction) {
        execution.attachNative(transaction);
    }

    @Override
    public io.shardwise.core.execute.NativeTransaction nativeTransaction() {
        return execution.nativeTransaction();
    }

    @Override
    public void nativeEnded() {
        execution.nativeEnded();
    }

    @Override
    public void started(String sql, RelayPlan plan) {
        session.diagnostics(new Diagnostics(plan.units().size()));
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
        session.diagnostics().unit(unit, count, logical);
    }

    @Override
    public void failed(int errno, String message) {
        session.failed(errno, message);
    }

    @Override
    public void ended() {}

    @Override
    public int warningCount() {
        return session.diagnostics().warningCount();
    }

    @Override
    public boolean inTransaction() {
        return session.inTransaction();
    }

    @Override
    public void killQuery(String backend, long threadId) {
        Thread.ofVirtual().name("relay-kill-" + backend).start(() -> engine.killQuery(backend, threadId));
    }

    @Override
    public boolean autocommit() {
        return session.autocommit();
    }

    @Override
    public boolean noBackslashEscapes() {
        return session.lexicalMode().noBackslashEscapes();
    }
}
