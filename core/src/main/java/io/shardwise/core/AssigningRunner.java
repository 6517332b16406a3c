package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.List;

/**
 * A statement that assigns user variables inside it ({@code SELECT @rn := @rn + 1 ...}): MySQL
 * evaluates it once, row after row, so it must run whole on ONE backend connection (per shard, each
 * shard would number its own rows). On that connection, as one sequence: {@code SET} every user
 * variable it names to the session's value, the statement, {@code SELECT} them back (typed by their
 * columns, as MySQL types them) into the session, then clear them, so a pooled connection keeps no
 * value for the next session. The connection is the one unit's when the statement routes to one
 * (one shard, a single table, a broadcast read; the transaction's in one), else, for a SELECT, the
 * federated tier's coordinator ({@link FederatedRunner}), even where the streaming merger could
 * answer it, because the merger evaluates per shard. A write spanning shards is refused (1235).
 *
 * <p>Memory: the statement's results are read whole before the values come back (a sequence reads
 * every unit's results whole), so a large result is buffered. Not thread-safe, as its session.
 */
final class AssigningRunner {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final PlanRunner plans;
    private final FederatedRunner federation;
    private final UserVariables users;

    AssigningRunner(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans, FederatedRunner federation,
                    UserVariables users) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
        this.federation = federation;
        this.users = users;
    }

    /** The variables' values on a connection before, the reads after: the units a sequence wraps the statement in. */
    record Wrap(List<String> names, String assign, String read, String clear) {
        ExecutionUnit before(String backend) {
            return new ExecutionUnit(backend, assign);
        }

        List<ExecutionUnit> after(String backend) {
            return List.of(new ExecutionUnit(backend, read), new ExecutionUnit(backend, clear));
        }
    }

    /** {@code assigned}: the first variable assigned, for a refusal's message. */
    StatementResult run(String assigned, Statement statement, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        List<String> names = UserVariables.named(normalized.sql(), normalized.lexicalMode());
        Wrap wrap = new Wrap(names, users.assignAll(names, normalized.lexicalMode()), UserVariables.readAll(names),
                UserVariables.clearAll(names));
        return switch (statement) {
            case Select s -> select(assigned, s, normalized, plan, params, wrap);
            case Insert i -> oneUnit(assigned, plans.route(normalized, plan, params), wrap, "an INSERT");
            case Update u -> oneUnit(assigned, plans.route(normalized, plan, params), wrap, "an UPDATE");
            case Delete d -> oneUnit(assigned, plans.route(normalized, plan, params), wrap, "a DELETE");
            case Ddl d -> oneUnit(assigned, plans.route(normalized, plan, params), wrap, "a " + d.verb());
            case Passthrough p -> oneUnit(assigned, plans.route(normalized, plan, params), wrap, "a statement");
            case SessionCommand c -> throw UserVariables.assignmentRefused(assigned, "a " + c.kind().name().replace('_', ' ') + " statement");
            case Call c -> throw UserVariables.assignmentRefused(assigned, "a CALL");
        };
    }

    /** One unit: on its connection. Several, or a route the first two tiers refuse: on the federated tier's coordinator. */
    private StatementResult select(String assigned, Select select, NormalizedSql normalized, CachedPlan plan, List<Object> params, Wrap wrap) {
        RoutePlan route = null;
        ShardwiseException refused = null;
        try {
            route = plans.route(normalized, plan, params);
        } catch (ShardwiseException e) {
            if (e.code() != ErrorCode.UNSUPPORTED) {
                throw e;
            }
            refused = e;
        }
        if (route != null && route.units().size() == 1) {
            return oneUnit(assigned, route, wrap, "a SELECT");
        }
        if (!(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
            if (refused != null) {
                throw refused;
            }
            throw UserVariables.assignmentRefused(assigned, "a SELECT over several shards that the federated tier cannot run ("
                    + ((io.shardwise.core.federate.Federation.Declined) plan.federated(engine.rule())).reason() + ")");
        }
        engine.countFederated();
        return federation.run(federated, select, normalized, plan, params, wrap, this::readBack);
    }

    private StatementResult oneUnit(String assigned, RoutePlan route, Wrap wrap, String what) {
        if (route.units().size() != 1) {
            throw UserVariables.assignmentRefused(assigned, what + " reaching " + route.units().size() + " shards");
        }
        ExecutionUnit unit = route.units().get(0);
        List<ExecutionUnit> units = new java.util.ArrayList<>(4);
        units.add(wrap.before(unit.backend()));
        units.add(unit);
        units.addAll(wrap.after(unit.backend()));
        Diagnostics diagnostics = new Diagnostics(units.size());
        session.diagnostics(diagnostics);
        List<UnitResult> results = execution.executeSequence(units, diagnostics);
        readBack(wrap, results.get(2));
        UnitResult answer = ((UnitResult.Results) results.get(1)).results().get(0);
        return switch (answer) {
            case UnitResult.Rows rows -> new StatementResult.Rows(rows.cursor());
            case UnitResult.Update u -> {
                long lastInsertId = !route.generatedKeys().isEmpty() && route.generatedKeys().get(0) instanceof Long first ? first
                        : u.lastInsertId();
                yield new StatementResult.Update(u.affectedRows(), lastInsertId, route.generatedKeys(), u.warnings());
            }
            case UnitResult.Results nested -> throw new ShardwiseException(ErrorCode.BUG, "nested results of one statement");
        };
    }

    /** The read-back unit's row becomes the session's values. */
    void readBack(Wrap wrap, UnitResult read) {
        try (ResultCursor cursor = ((UnitResult.Rows) ((UnitResult.Results) read).results().get(0)).cursor()) {
            users.readBack(wrap.names(), cursor);
        }
    }
}
