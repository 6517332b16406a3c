package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * {@code EXPLAIN statement} of one {@link EngineSession}. A statement that runs as one unit on one
 * backend is explained by that backend: its own {@code EXPLAIN} of the physical statement, its
 * result as it is but for physical table names mapped back to logical ones ({@link ExplainedCursor}).
 * Any other (the streaming merger's, the federated tier's, a write over several shards, an INSERT ...
 * SELECT or a keyed write Shardwise runs in steps) gets Shardwise's own plan ({@link OwnPlan}).
 *
 * <p>Invariant: nothing here writes. The explained statement is only routed, never run: the
 * backends receive only {@code EXPLAIN} of a unit, which MySQL never executes. Not thread-safe, as
 * its session.
 */
final class ExplainRunner {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final PlanRunner plans;

    ExplainRunner(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
    }

    /** What explains a statement: a backend (one unit), or Shardwise's own plan. */
    private sealed interface Explained permits OnBackend, Planned {}

    /** The unit's backend explains it; {@code unit} is the unit itself, not yet wrapped in EXPLAIN. */
    private record OnBackend(ExecutionUnit unit) implements Explained {}

    /** {@code federated}: the third tier's plan when {@code route}'s units are one's (a SELECT, or a write's choice), else null. */
    private record Planned(RoutePlan route, Statement statement, FederatedPlan federated) implements Explained {}

    /** {@code EXPLAIN statement} with the values of its {@code ?} markers. */
    StatementResult run(ExplainStatement explain, List<Object> params) {
        return switch (explained(explain, params)) {
            case OnBackend b -> {
                ExecutionUnit unit = onBackend(explain, b.unit());
                StatementResult.Rows rows = (StatementResult.Rows) plans.run(new RoutePlan(RouteKind.UNSHARDED, List.of(unit),
                        new MergeSpec.PassThrough()));
                yield new StatementResult.Rows(new ExplainedCursor(rows.cursor(), unit, execution.messages()));
            }
            case Planned p -> new StatementResult.Rows(OwnPlan.of(p.route(), p.statement(), p.federated()).cursor(format(explain)));
        };
    }

    /**
     * The columns {@link #run} returns, for a prepare: the statement routed as if every value were
     * NULL ({@link PlanRunner#describe}); a backend's EXPLAIN prepared there, never run.
     */
    List<Column> columns(ExplainStatement explain, int parameterCount) {
        List<Object> nulls = Arrays.asList(new Object[parameterCount]);
        return switch (explained(explain, nulls)) {
            case OnBackend b -> execution.describe(onBackend(explain, b.unit()));
            case Planned p -> OwnPlan.columns(format(explain));
        };
    }

    private Explained explained(ExplainStatement explain, List<Object> params) {
        NormalizedSql inner = session.normalize(explain.statement());
        if (inner.parameterCount() != params.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "EXPLAIN's statement has " + inner.parameterCount() + " ? markers but "
                    + params.size() + " values were given");
        }
        UserVariables.Into into = UserVariables.into(inner.sql(), inner.lexicalMode());
        if (into != null) {
            inner = session.normalize(into.select()); // SELECT ... INTO @x runs as its SELECT: that is its plan
        }
        CachedPlan plan = plans.plan(inner);
        Statement statement = plan.statement();
        if (statement instanceof Insert i && i.columns().isEmpty() && !i.tables().isEmpty()
                && engine.rule().table(i.table().name()) instanceof TableRule.Sharded sharded) {
            // as the session runs it: the table's columns named, so the router finds the sharding key among them
            String explicit = ImplicitColumns.withColumns(inner.sql(), inner.lexicalMode(), execution, sharded.nodes().get(0));
            if (explicit != null) {
                inner = session.normalize(explicit);
                plan = plans.plan(inner);
                statement = plan.statement();
            }
        }
        if (statement instanceof SessionCommand c) {
            return switch (c.kind()) {
                // a select of variables or of information_schema reads no logical table: the default backend's plan is its plan
                case VARIABLES, INFORMATION_SCHEMA -> new OnBackend(new ExecutionUnit(engine.rule().config().defaultBackend(),
                        inner.sql(), params, Map.of()));
                case BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT, SET, USE, SHOW, PREVIEW, EXPLAIN,
                        DESCRIBE, KILL, LOCK_TABLES, UNLOCK_TABLES, DO, FLUSH, OTHER, DIAGNOSTICS, NO_OP ->
                        throw new ShardwiseException(ErrorCode.UNSUPPORTED, "EXPLAIN of " + c.kind().name().replace('_', ' ')
                                + " (it runs in the session, on no shard)");
            };
        }
        session.checkExplained(statement, inner);
        PlanRunner.Previewed previewed = plans.previewed(inner, params); // the statement's own refusal, if it has one
        RoutePlan route = previewed.route();
        if (route.units().size() == 1 && route.kind().runsAsWritten()) {
            return new OnBackend(route.units().get(0));
        }
        FederatedPlan federated = previewed.federated();
        if (federated == null && route.kind() == RouteKind.FEDERATED && plan.federated(engine.rule()) instanceof FederatedPlan f) {
            federated = f;
        }
        return new Planned(route, statement, federated);
    }

    /** The backend's EXPLAIN of {@code unit}, with the user's options (FORMAT=JSON, EXTENDED ...) as written. */
    private static ExecutionUnit onBackend(ExplainStatement explain, ExecutionUnit unit) {
        return new ExecutionUnit(unit.backend(), "EXPLAIN " + explain.options() + unit.sql(), unit.params(), unit.logicalTables());
    }

    private static OwnPlan.Format format(ExplainStatement explain) {
        return switch (explain.format()) {
            case TRADITIONAL -> OwnPlan.Format.TABLE;
            case JSON -> OwnPlan.Format.JSON;
            case OTHER -> throw new ShardwiseException(ErrorCode.UNSUPPORTED, "EXPLAIN " + explain.options().strip()
                    + " of a statement over several units (Shardwise renders its own plan as FORMAT=TRADITIONAL or FORMAT=JSON)");
        };
    }

}
