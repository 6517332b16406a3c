package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.execute.UnitResult;
import io.shardwise.core.federate.FederatedPlan;
import io.shardwise.core.federate.FederatedWrite;
import io.shardwise.core.merge.EnumKeys;
import io.shardwise.core.merge.Merger;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.RowChoice;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.UnanalyzableException;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The plan side of one {@link EngineSession}: a statement's cached plan, its route, running the
 * route's units and merging their results, describing and previewing without running. It keeps no
 * state of its own: the current schema and the diagnostics area are the session's. Not thread-safe,
 * as its session.
 */
final class PlanRunner {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final FederatedRunner federation;
    private final FederatedWriteRunner federatedWrites;
    private final KeyMoves keyMoves;
    private final MultiTargetWrites multiTargets;
    private final InsertRewrites insertRewrites;
    /** While a statement runs {@link #atomically}: its own steps run as they are, inside it. */
    private boolean atomic;

    PlanRunner(Engine engine, ExecutionSession execution, EngineSession session) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.federation = new FederatedRunner(execution, session, engine.federationBudget(), engine.copyDefinitions());
        this.federatedWrites = new FederatedWriteRunner(execution, session, engine.federationBudget(), federation);
        this.keyMoves = new KeyMoves(engine, session, this);
        this.multiTargets = new MultiTargetWrites(engine, session, this);
        this.insertRewrites = new InsertRewrites(engine, session, this);
    }

    /**
     * A SELECT in the cheapest tier that answers it exactly: the route (fast path or streaming merger);
     * when that refuses it with 1235, the federated plan ({@link FederatedRunner}) if the cached plan
     * has one, else the refusal as it was. Only a refusal moves a statement (routing's, or the merger's
     * when the units' column types show it cannot be exact): nothing the first two tiers answer reaches the third.
     */
    StatementResult select(Select select, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        RoutePlan route;
        try {
            route = route(normalized, plan, params);
        } catch (ShardwiseException refused) {
            if (refused.code() != ErrorCode.UNSUPPORTED || !(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
                throw refused;
            }
            engine.countFederated();
            return federation.run(federated, select, normalized, plan, params);
        }
        try {
            return run(EnumKeys.mayNeed(route) ? byEnumIndex(route, select, normalized, plan, params) : route, null, true);
        } catch (MergeRefused r) {
            // the merger refuses what only the units' column types show (a SUM or AVG in DOUBLE, whose last
            // digits depend on the order MySQL adds the rows in: AggregateColumns) before any row leaves.
            // Only that refusal: a 1235 of the execution itself (a native read past its memory bound) stays one.
            if (route.merge() instanceof MergeSpec.PassThrough || !(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
                throw r.refusal;
            }
            engine.countFederated();
            return federation.run(federated, select, normalized, plan, params);
        }
    }

    /**
     * The route again with its ENUM and SET ordering keys compared by member index ({@link EnumKeys}),
     * when a unit's column types show any; else {@code route}. The types come from the backend's
     * description of the first unit, kept per statement digest (a key's type does not change with the
     * values) until DDL the engine runs empties the cache.
     */
    private RoutePlan byEnumIndex(RoutePlan route, Select select, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        ExecutionUnit first = route.units().get(0);
        List<Column> unit = engine.descriptions().get(select.template().text(), "enum-keys;" + execution.state().charsetKey(),
                () -> execution.describe(first));
        java.util.Set<Integer> byIndex = unit.isEmpty() ? java.util.Set.of() : EnumKeys.weightColumns(route, unit);
        return byIndex.isEmpty() ? route : engine.router().route(plan.prepared(), new StatementBindings(normalized, params),
                SourceText.original(normalized, plan.digestTokenOffsets()), byIndex);
    }

    /** The third tier, for a statement that must run on one connection ({@link AssigningRunner}). */
    FederatedRunner federation() {
        return federation;
    }

    StatementResult write(RoutePlan route) {
        return write(route, null);
    }

    /** An INSERT ... VALUES (or REPLACE): {@code rows} its rows, for the info string of one spread over shards. */
    StatementResult insertValues(RoutePlan route, Insert insert, NormalizedSql normalized) {
        return write(route, new WriteInfo.Rows(insert.rows().size(), WriteInfo.ignores(normalized)));
    }

    private StatementResult write(RoutePlan route, WriteInfo.Rows rows) {
        if (route.units().size() > 1) {
            return atomically(() -> run(route, rows));
        }
        return run(route, rows); // one unit: the backend makes it atomic
    }

    /** INSERT ... SELECT naming sharded or broadcast tables: its SELECT, then its rows inserted, in one transaction. */
    StatementResult insertSelect(Insert insert, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        if (insert.source().update() >= 0) {
            return atomically(() -> insertRewrites.run(insert, normalized, plan, params));
        }
        RoutePlan route;
        try {
            route = route(normalized, plan, params);
        } catch (ShardwiseException refused) {
            // a SELECT the route refuses (subqueries, derived tables, set operations, CTEs, windows or joins spanning shards):
            // its rows read by the tier that answers that SELECT, the federated one, then inserted as below (LOCK TABLES keeps
            // the refusal, as for the other writes)
            if (refused.code() != ErrorCode.UNSUPPORTED || execution.holdsTableLocks()) {
                throw refused;
            }
            return atomically(() -> insertRows(insert, normalized, plan, insertRewrites.selected(insert, normalized, plan, params)));
        }
        return atomically(() -> insertRows(insert, normalized, plan, run(route)));
    }

    /**
     * Reads the SELECT's rows whole before writing: in a transaction each backend has one connection,
     * busy while a result streams, and the rows may go to the very backends they come from (MySQL
     * itself buffers an INSERT ... SELECT reading its own target).
     */
    private StatementResult insertRows(Insert insert, NormalizedSql normalized, CachedPlan plan, StatementResult selected) {
        List<Object[]> rows;
        int width;
        try (ResultCursor cursor = ((StatementResult.Rows) selected).cursor()) {
            width = cursor.columns().size();
            rows = InsertBatches.read(cursor);
        }
        String head = InsertBatches.head(SourceText.original(normalized, plan.digestTokenOffsets()), insert.source().start());
        long affected = 0;
        long firstId = 0;
        long lastRowId = 0;
        int warnings = 0;
        List<Object> keys = new ArrayList<>();
        for (List<Object[]> batch : InsertBatches.batches(rows)) {
            NormalizedSql text = session.normalize(InsertBatches.text(head, batch.size(), width));
            CachedPlan batchPlan = engine.plan(text);
            StatementResult.Update u = (StatementResult.Update) run(route(text, batchPlan, InsertBatches.params(batch)));
            affected += u.affectedRows();
            firstId = firstId == 0 ? u.lastInsertId() : firstId;
            lastRowId = u.lastInsertId();
            warnings += u.warnings();
            keys.addAll(u.generatedKeys());
        }
        long lastInsertId = InsertBatches.insertId(rows, keys, firstId, lastRowId);
        session.insertIdGenerated(lastInsertId != 0 && !(keys.isEmpty() && InsertBatches.given(rows, lastInsertId)));
        return new StatementResult.Update(affected, lastInsertId, keys, warnings,
                InsertBatches.info(rows.size(), affected, warnings, insert.replace(), insert.source().ignore()));
    }

    /** An INSERT ... VALUES whose sharding keys are expressions, with their values in their place ({@link InsertRewrites#computedKeys}), or null. */
    InsertRewrites.Evaluated computedKeys(Insert insert, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        return insertRewrites.computedKeys(insert, normalized, plan, params);
    }

    /** An UPDATE or DELETE; one with ORDER BY / LIMIT over several nodes chooses its rows first ({@link KeyedWrites}). */
    StatementResult keyable(Statement statement, RowChoice choice, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        // a subquery over sharded tables in ORDER BY (which the write's analysis masks): its rows chosen by the tier that
        // answers the choosing SELECT, even for a write routed to one node, where the subquery would read that node's part
        if (!execution.holdsTableLocks() && choosable(statement, choice) && orderReadsShards(statement, choice)) {
            return atomically(() -> chosenThenWritten(choice, normalized, plan, params));
        }
        // subqueries over sharded tables: the third tier, even for a write routed to one node (FederatedWrite#readsShards)
        if (!execution.holdsTableLocks() && plan.federatedWrite(engine.rule()) instanceof FederatedWrite federated && federated.readsShards()) {
            return federatedWrite(federated, statement, choice, normalized, plan, params);
        }
        RoutePlan route;
        try {
            route = route(normalized, plan, params);
        } catch (ShardwiseException refused) {
            // subqueries over single or broadcast tables elsewhere (LOCK TABLES keeps the refusal)
            if (refused.code() != ErrorCode.UNSUPPORTED || execution.holdsTableLocks()) {
                throw refused;
            }
            if (statement instanceof Update u && KeyMoves.withSubqueries(u, engine.rule())) {
                // an UPDATE of the sharding key with subqueries: its rows chosen by the tier that answers the choice
                return atomically(() -> keyMoves.runWithSubqueries(u.tables().get(0), u.choice(), normalized, plan, params));
            }
            if (statement instanceof Update u && KeyMoves.multiTable(u, engine.rule())) {
                // a multi-table UPDATE of its one target's sharding column: chosen, written in place, moved (KeyMoves)
                return atomically(() -> keyMoves.runMultiTable(u, normalized, plan, params));
            }
            if (!(plan.federatedWrite(engine.rule()) instanceof FederatedWrite federated)) {
                if (choosable(statement, choice)) {
                    // ORDER BY / LIMIT over nodes whose choice the merger refuses (a subquery in ORDER BY): chosen by the tier that answers it
                    return atomically(() -> chosenThenWritten(choice, normalized, plan, params));
                }
                if (!MultiTargetWrites.handles(statement)) {
                    throw refused;
                }
                // several targets, or unqualified SET columns: one write per target (MultiTargetWrites)
                return atomically(() -> multiTargets.run(statement, normalized, plan, params));
            }
            return federatedWrite(federated, statement, choice, normalized, plan, params);
        }
        if (route.kind() == RouteKind.KEY_MOVE) {
            TableRef target = statement.tables().get(0);
            return atomically(() -> keyMoves.run(target, choice, normalized, plan, params, route));
        }
        if (route.kind() != RouteKind.KEYED_WRITE) {
            return write(route);
        }
        return atomically(() -> keyed(statement, choice, normalized, plan, params, route));
    }

    /** A key move's in-place UPDATE on the third tier ({@link KeyMoves}), inside the move's transaction. */
    StatementResult federatedInPlace(FederatedWrite federated, Statement statement, NormalizedSql normalized, CachedPlan plan,
                                     List<Object> params) {
        engine.countFederated();
        return federatedWrites.run(federated, statement, normalized, plan, params);
    }

    /**
     * A single-table UPDATE or DELETE with ORDER BY / LIMIT whose rows a SELECT of the target chooses ({@link RowChoice}),
     * not a key move: when the router refuses the choosing SELECT (it spans nodes and the merger refuses it), the
     * choice is answered by the tier that answers it instead ({@link #chosenThenWritten}).
     */
    private static boolean choosable(Statement statement, RowChoice choice) {
        return choice != null && choice.moves() == null && switch (statement) {
            case Update u -> u.limited() && u.multi() == null;
            case Delete d -> d.limited() && d.multi() == null;
            default -> false;
        };
    }

    /**
     * Whether the ORDER BY / LIMIT clause of a write with a row choice reads sharded tables: its choosing SELECT (which
     * has the clause) reads more sharded table references than the write (whose analysis masks the clause).
     */
    private boolean orderReadsShards(Statement statement, RowChoice choice) {
        return shardedReferences(choice.select().tables()) > shardedReferences(statement.tables());
    }

    /** Whether {@link #keyable} chooses this write's rows first for a subquery over sharded tables in its ORDER BY (never relayed as written). */
    boolean ordersByShards(Statement statement) {
        RowChoice choice = switch (statement) {
            case Update u -> u.choice();
            case Delete d -> d.choice();
            default -> null;
        };
        return choosable(statement, choice) && orderReadsShards(statement, choice);
    }

    private int shardedReferences(List<TableRef> tables) {
        int n = 0;
        for (TableRef t : tables) {
            n += engine.rule().logicalTables().served(t.name()) instanceof TableRule.Sharded ? 1 : 0;
        }
        return n;
    }

    /**
     * The third tier's write, in a transaction as every multi-shard write ({@link FederatedWriteRunner});
     * one with ORDER BY / LIMIT over several target nodes chooses its rows first ({@link #chosenThenWritten}).
     */
    private StatementResult federatedWrite(FederatedWrite federated, Statement statement, RowChoice choice, NormalizedSql normalized,
                                           CachedPlan plan, List<Object> params) {
        engine.countFederated();
        Supplier<StatementResult> write = () -> federated.limited() && choice != null
                && federated.targets(new StatementBindings(normalized, params)).size() > 1
                ? chosenThenWritten(choice, normalized, plan, params)
                : federatedWrites.run(federated, statement, normalized, plan, params);
        return atomically(write);
    }

    /**
     * A write with subqueries whose ORDER BY / LIMIT spans target nodes, as one MySQL runs it: its rows
     * chosen by {@code SELECT * FROM target WHERE ... ORDER BY ... LIMIT ... FOR UPDATE} from the user's
     * own text (answered by the tier that answers it, the federated one when its subqueries read other
     * shards), then the write without ORDER BY / LIMIT, its WHERE and-ed with the chosen rows' keys
     * ({@link KeyedWrites}) — an ordinary federated write, routed to the chosen rows' nodes. The same
     * transaction holds both, and the choice's FOR UPDATE keeps the chosen rows as they were chosen.
     */
    private StatementResult chosenThenWritten(RowChoice choice, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        NormalizedSql chooser = session.normalize(choice.text(source.text(), source::at));
        CachedPlan chooserPlan = engine.plan(chooser);
        Select select = (Select) chooserPlan.statement();
        String table = select.tables().get(0).name();
        String shardingColumn = engine.rule().table(table) instanceof TableRule.Sharded s ? s.keyColumn() : "";
        List<Column> declared = declared(choice.target(source.text(), source::at));
        String predicate;
        int before = markers(normalized, choice.firstParam());
        StatementResult chosen = select(select, chooser, chooserPlan, params.subList(before, params.size()));
        try (ResultCursor rows = ((StatementResult.Rows) chosen).cursor()) {
            predicate = KeyedWrites.predicate(rows, declared, table, shardingColumn, normalized.lexicalMode());
        }
        NormalizedSql written = session.normalize(KeyedWrites.text(source, choice, predicate));
        CachedPlan writePlan = engine.plan(written);
        Statement write = writePlan.statement();
        return keyable(write, null, written, writePlan, params.subList(0, markers(normalized, choice.paramsBefore())));
    }

    /** The columns of {@code target} (its text in the statement) with their key flags, as its nodes declare them. */
    List<Column> declared(String target) {
        return declared(target, List.of());
    }

    /** {@link #declared(String)} of a target text holding the client's {@code ?}, bound to {@code params} (theirs, in order). */
    List<Column> declared(String target, List<Object> params) {
        return columnsOf("SELECT * FROM " + target + " LIMIT 0", params);
    }

    /** The columns {@code query} (a SELECT returning no row: {@code LIMIT 0}) declares, its client's {@code ?} bound to {@code params}. */
    List<Column> columnsOf(String query, List<Object> params) {
        NormalizedSql columns = session.normalize(query);
        CachedPlan plan = engine.plan(columns);
        try (ResultCursor none = ((StatementResult.Rows) select((Select) plan.statement(), columns, plan, params)).cursor()) {
            while (none.next()) {
                // LIMIT 0: nothing; read to its end so the connection is free
            }
            return none.columns();
        }
    }

    /** How many of the statement's first {@code values} values ({@code ?} of its digest) are the client's {@code ?}. */
    static int markers(NormalizedSql normalized, int values) {
        int markers = 0;
        for (int i = 0; i < values; i++) {
            if (normalized.literals().get(i).isParameter()) {
                markers++;
            }
        }
        return markers;
    }

    /** Chooses the rows (the route's SELECT, which locks them), then writes them by key in the same transaction. */
    private StatementResult keyed(Statement statement, RowChoice choice, NormalizedSql normalized, CachedPlan plan, List<Object> params,
                                  RoutePlan route) {
        String table = statement.tables().get(0).name();
        String shardingColumn = engine.rule().table(table) instanceof TableRule.Sharded s ? s.keyColumn() : "";
        String predicate;
        StatementResult chosen = run(route);
        try (ResultCursor rows = ((StatementResult.Rows) chosen).cursor()) {
            predicate = KeyedWrites.predicate(rows, table, shardingColumn, normalized.lexicalMode());
        }
        String text = KeyedWrites.text(SourceText.original(normalized, plan.digestTokenOffsets()), choice, predicate);
        NormalizedSql written = session.normalize(text);
        CachedPlan writePlan = engine.plan(written);
        // the client's ? among the statement's values before its ORDER BY / LIMIT
        return run(route(written, writePlan, params.subList(0, markers(normalized, choice.paramsBefore()))));
    }

    /** A DDL statement, or one the analyzer could not read, may have changed a table's columns. */
    StatementResult changingColumns(StatementResult result) {
        return switch (result) {
            case StatementResult.Rows rows -> rows;
            case StatementResult.Update update -> {
                engine.descriptions().invalidateAll();
                engine.copyDefinitions().invalidateAll();
                yield update;
            }
            case StatementResult.Results results -> results; // only a CALL returns these; it invalidates itself
        };
    }

    /**
     * A write of several units or steps changes every shard or none, as MySQL's statement. In autocommit
     * mode it runs in a transaction of its own (the commit is per backend in transaction mode local,
     * two-phase in mode xa). Inside a transaction it marks itself ({@link ExecutionSession#markStatement}):
     * a failure (a duplicate key on its second shard, say) rolls back to the savepoint it set on each
     * backend it reached, and the transaction goes on without any of it.
     */
    private StatementResult atomically(Supplier<StatementResult> statement) {
        if (atomic) {
            return statement.get(); // a step of a statement already atomic (a key move's writes, a chosen-then-written write)
        }
        atomic = true;
        try {
            return !execution.autocommit() || execution.inTransaction() ? marked(statement) : ownTransaction(statement);
        } finally {
            atomic = false;
        }
    }

    private StatementResult ownTransaction(Supplier<StatementResult> statement) {
        execution.begin();
        StatementResult result;
        try {
            result = statement.get();
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

    private StatementResult marked(Supplier<StatementResult> statement) {
        if (!execution.markStatement()) {
            return statement.get();
        }
        StatementResult result;
        try {
            result = statement.get();
        } catch (RuntimeException e) {
            execution.statementEnded(e);
            throw e;
        }
        execution.statementEnded(null);
        return result;
    }

    /**
     * With no database selected, a table named without a schema resolves to nothing: MySQL answers
     * 1046 rather than guessing, and so must Shardwise, instead of letting the default backend
     * resolve it in its own physical database.
     */
    void requireSchema(Statement statement) {
        if (session.schema() != null) {
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
    CachedPlan plan(NormalizedSql normalized) {
        try {
            return engine.plan(normalized);
        } catch (UnanalyzableException e) {
            // quoted for the mode the backend connection runs in: under NO_BACKSLASH_ESCAPES a doubled backslash is two
            String probe = "PREPARE shardwise_syntax_probe FROM " + execution.state().lexicalMode().quote(normalized.sql());
            try {
                execution.execute(List.of(new ExecutionUnit(engine.rule().config().defaultBackend(), probe, List.of(), Map.of())));
            } catch (ShardwiseException backend) {
                if (backend.errno() == ErrorCode.PARSE_ERROR.errno()) {
                    throw backend;
                }
            }
            throw e;
        }
    }

    /** See {@link EngineSession#describe}. */
    List<Column> describe(String sql, NormalizedSql normalized) {
        CachedPlan plan = plan(normalized);
        requireSchema(plan.statement());
        return switch (plan.statement()) {
            case SessionCommand c -> switch (c.kind()) {
                case PREVIEW -> session.described(ValuesCursor.text(SessionCommands.PREVIEW_LABELS, List.of()).columns());
                case EXPLAIN, DESCRIBE -> {
                    ExplainStatement explain = ExplainStatement.parse(normalized.sql(), normalized.lexicalMode());
                    yield explain == null ? List.of() : session.described(session.explains().columns(explain, normalized.parameterCount()));
                }
                default -> List.of();
            };
            case Insert i -> List.of();
            case Update u -> List.of();
            case Delete d -> List.of();
            case Ddl d -> List.of();
            case Select s -> describeRouted(sql, normalized, plan);
            case Passthrough p -> describeRouted(sql, normalized, plan);
            case Call c -> List.of(); // the backend announces no columns for CALL: only running it can tell
        };
    }

    private List<Column> describeRouted(String sql, NormalizedSql normalized, CachedPlan plan) {
        // the mode is part of the key: with ANSI_QUOTES "a" is a column, without it a string
        return engine.descriptions().get(sql, execution.state().charsetKey() + ";" + normalized.lexicalMode(), () -> {
            List<Object> nulls = Arrays.asList(new Object[normalized.parameterCount()]);
            RoutePlan route;
            try {
                route = route(normalized, plan, nulls);
            } catch (ShardwiseException refused) {
                if (refused.code() != ErrorCode.UNSUPPORTED || !(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
                    throw refused;
                }
                return describeFederated(federated, plan, normalized, nulls);
            }
            List<Column> unit = execution.describe(route.units().get(0));
            if (unit.isEmpty() || route.merge() instanceof MergeSpec.PassThrough) {
                return unit;
            }
            try {
                return Merger.columns(unit, route.units().size(), route.mergeFor(unit.size()));
            } catch (ShardwiseException refused) {
                // as select(): a merge refused by the units' column types runs in the federated tier
                if (refused.code() != ErrorCode.UNSUPPORTED || !(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
                    throw refused;
                }
                return describeFederated(federated, plan, normalized, nulls);
            }
        });
    }

    /**
     * A route PREVIEW shows, and the third tier's plan whose structure names its units' steps in EXPLAIN ({@link OwnPlan});
     * {@code federated} null where the units are no federated SELECT's.
     */
    record Previewed(RoutePlan route, FederatedPlan federated) {}

    private List<Column> describeFederated(FederatedPlan federated, CachedPlan plan, NormalizedSql normalized, List<Object> nulls) {
        FederatedRunner.Description d = federation.describeUnit(federated, (Select) plan.statement(), normalized, plan, nulls);
        return execution.describe(d.unit(), d.setup(), d.teardown());
    }

    /** The route plan a statement would run with (PREVIEW). */
    RoutePlan preview(NormalizedSql normalized, List<Object> params) {
        return previewed(normalized, params).route();
    }

    /** {@link #preview}, with the federated plan of its units where they are one's. Runs nothing but reads of metadata. */
    Previewed previewed(NormalizedSql normalized, List<Object> params) {
        CachedPlan plan = plan(normalized);
        requireSchema(plan.statement());
        return switch (plan.statement()) {
            case SessionCommand c -> throw new ShardwiseException(ErrorCode.UNSUPPORTED, "PREVIEW of " + c.kind()
                    + " (it runs in the session, on no shard)");
            case Select s -> previewSelect(s, normalized, plan, params);
            case Insert i -> new Previewed(route(normalized, plan, params), null);
            case Update u -> previewWrite(u, u.choice(), normalized, plan, params);
            case Delete d -> previewWrite(d, d.choice(), normalized, plan, params);
            case Ddl d -> new Previewed(route(normalized, plan, params), null);
            case Passthrough p -> new Previewed(route(normalized, plan, params), null);
            case Call c -> new Previewed(route(normalized, plan, params), null);
        };
    }

    /** A SELECT's route, or the federated plan's steps where the route refuses it ({@link #select}). */
    private Previewed previewSelect(Select select, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        try {
            return new Previewed(route(normalized, plan, params), null);
        } catch (ShardwiseException refused) {
            if (refused.code() != ErrorCode.UNSUPPORTED || !(plan.federated(engine.rule()) instanceof FederatedPlan federated)) {
                throw refused;
            }
            return new Previewed(new RoutePlan(RouteKind.FEDERATED, federation.preview(federated, select, normalized, plan, params),
                    new MergeSpec.PassThrough()), federated);
        }
    }

    /**
     * An UPDATE or DELETE's plan as {@link #keyable} would run it: its route; the federated write's steps; or, for a write
     * that chooses its rows first (through a SELECT the router refuses as the write's own route, or that reads other
     * shards), that choosing SELECT's plan — merged or on the third tier — as a {@link RouteKind#KEYED_WRITE} or {@link
     * RouteKind#KEY_MOVE}, whose later steps (the write by key, the moves) depend on the rows it returns.
     */
    private Previewed previewWrite(Statement write, RowChoice choice, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        boolean locks = execution.holdsTableLocks();
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        if (!locks && choosable(write, choice) && orderReadsShards(write, choice)) {
            return chosen(RouteKind.KEYED_WRITE, choice.text(source.text(), source::at),
                    params.subList(markers(normalized, choice.firstParam()), params.size()));
        }
        FederatedWrite federated = !locks && plan.federatedWrite(engine.rule()) instanceof FederatedWrite f ? f : null;
        if (federated == null || !federated.readsShards()) {
            try {
                return new Previewed(route(normalized, plan, params), null);
            } catch (ShardwiseException refused) {
                if (refused.code() != ErrorCode.UNSUPPORTED || locks) {
                    throw refused;
                }
                if (write instanceof Update u && KeyMoves.withSubqueries(u, engine.rule())) {
                    return chosen(RouteKind.KEY_MOVE, u.choice().movesText(source.text(), source::at), params);
                }
                if (write instanceof Update u && KeyMoves.multiTable(u, engine.rule())) {
                    KeyMoves.MultiChoice multi = keyMoves.multiChoice(u, normalized, plan, params);
                    return chosen(RouteKind.KEY_MOVE, multi.text(), multi.params());
                }
                if (federated == null && !choosable(write, choice)) {
                    throw refused;
                }
            }
        }
        if (federated == null || federated.limited() && choice != null && federated.targets(new StatementBindings(normalized, params)).size() > 1) {
            return chosen(RouteKind.KEYED_WRITE, choice.text(source.text(), source::at),
                    params.subList(markers(normalized, choice.firstParam()), params.size()));
        }
        return new Previewed(new RoutePlan(RouteKind.FEDERATED, federatedWrites.preview(federated, write, normalized, plan, params),
                new MergeSpec.PassThrough()), null);
    }

    /** The plan of a write whose rows {@code chooser} chooses first: that SELECT's units, as the write's {@code kind}. */
    private Previewed chosen(RouteKind kind, String chooser, List<Object> params) {
        NormalizedSql text = session.normalize(chooser);
        CachedPlan chooserPlan = engine.plan(text);
        Previewed choice = previewSelect((Select) chooserPlan.statement(), text, chooserPlan, params);
        RoutePlan r = choice.route();
        return new Previewed(new RoutePlan(kind, r.units(), r.merge(), r.starItem(), r.assumedWidth(), List.of()), choice.federated());
    }

    RoutePlan route(NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        return engine.router().route(plan.prepared(), new StatementBindings(normalized, params),
                SourceText.original(normalized, plan.digestTokenOffsets()));
    }

    /** {@code unit} prepared on its backend and never run: the backend's error if it refuses what the statement names. */
    void prepareOnly(ExecutionUnit unit) {
        execution.describe(unit);
    }

    /** The statement as written, on the default backend (in the session's transaction, if any). */
    StatementResult onDefaultBackend(NormalizedSql normalized, List<Object> params) {
        return run(new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(engine.rule().config().defaultBackend(),
                normalized.sql(), params, Map.of())), new MergeSpec.PassThrough()));
    }

    StatementResult run(RoutePlan route) {
        return run(route, null);
    }

    /** {@code rows}: the INSERT's rows when the statement is an INSERT ... VALUES, else null. */
    private StatementResult run(RoutePlan route, WriteInfo.Rows rows) {
        return run(route, rows, false);
    }

    /** The merger's refusal of a SELECT's merge, for {@link #select} to hand to the federated tier. */
    private static final class MergeRefused extends RuntimeException {
        final ShardwiseException refusal;

        MergeRefused(ShardwiseException refusal) {
            super(refusal.getMessage(), refusal, false, false);
            this.refusal = refusal;
        }
    }

    /** {@code handOver}: the merger's 1235 is thrown as {@link MergeRefused} (a SELECT the federated tier may answer). */
    private StatementResult run(RoutePlan route, WriteInfo.Rows rows, boolean handOver) {
        Diagnostics diagnostics = new Diagnostics(route.units().size());
        session.diagnostics(diagnostics);
        List<UnitResult> results = execution.execute(route.units(), diagnostics);
        if (results.get(0) instanceof UnitResult.Rows) {
            List<ResultCursor> cursors = new ArrayList<>(results.size());
            for (UnitResult r : results) {
                cursors.add(((UnitResult.Rows) r).cursor());
            }
            if (cursors.size() == 1) {
                return new StatementResult.Rows(cursors.get(0));
            }
            try {
                return new StatementResult.Rows(Merger.merge(cursors, route.mergeFor(cursors.get(0).columns().size()), diagnostics::merged));
            } catch (ShardwiseException refused) {
                if (handOver && refused.code() == ErrorCode.UNSUPPORTED) {
                    throw new MergeRefused(refused);
                }
                throw refused;
            }
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
            // as the count: every copy warns of the same rows
            warnings = route.kind() == RouteKind.BROADCAST_WRITE ? u.warnings() : warnings + u.warnings();
        }
        if (!route.generatedKeys().isEmpty() && route.generatedKeys().get(0) instanceof Long first) {
            lastInsertId = first;
        }
        return new StatementResult.Update(affected, lastInsertId, route.generatedKeys(), warnings,
                rows != null && rows.count() > 1 && results.size() > 1 && route.kind() != RouteKind.BROADCAST_WRITE
                        ? WriteInfo.inserted(results, rows, warnings)
                        : WriteInfo.merge(results, route.kind() == RouteKind.BROADCAST_WRITE));
    }
}
