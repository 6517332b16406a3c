package io.shardwise.core;

import io.shardwise.core.execute.Condition;
import io.shardwise.core.execute.Diagnostics;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.federate.FederatedWrite;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
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
 * merge is pass-through or plain concatenation (or, marked {@link RelayPlan#merged}, one the session's
 * merger completes), in autocommit mode outside a transaction with no timeout, so a connection
 * carrying the session's settings ({@link RelayPlan#setup}) gives the same result as the executor's.
 */
final class EngineRelay implements RelaySession {
    private final Engine engine;
    private final ExecutionSession execution;
    private final EngineSession session;
    private final PlanRunner plans;
    /** Prepared statements' texts read for their executions ({@link #prepared}). */
    private final PreparedTexts texts = new PreparedTexts();
    /** The relayed INSERT's last row's own AUTO_INCREMENT value, to tell its insert id generated or given ({@link #wrote}). */
    private String givenId;
    /** Executions relayed with a kept route ({@link #keptRoutes}). */
    private long keptRoutes;

    EngineRelay(Engine engine, ExecutionSession execution, EngineSession session, PlanRunner plans) {
        this.engine = engine;
        this.execution = execution;
        this.session = session;
        this.plans = plans;
    }

    @Override
    public RelayPlan plan(String sql) {
        if (transactionControl(sql)) {
            return null; // its plan names no table: never relayed here, so not normalized to find that out
        }
        String schema = session.schema();
        boolean transactional = execution.inTransaction() || !execution.autocommit();
        String setup = setup(schema, transactional);
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
            if (!withinSession(plan, write, schema)) {
                return null;
            }
            RoutePlan route = plans.route(normalized, plan, List.of());
            // a keyed write's or a key move's route is the SELECT that chooses its rows (PlanRunner.keyable);
            // a write whose subqueries read shards runs on the federated tier, whatever its route
            boolean merged = false;
            if (write ? route.units().size() != 1 || !route.generatedKeys().isEmpty() || !route.kind().runsAsWritten()
                    || !(route.merge() instanceof MergeSpec.PassThrough)
                    || plan.federatedWrite(engine.rule()) instanceof FederatedWrite f && f.readsShards()
                    || plans.ordersByShards(plan.statement()) : !relayableRead(route)) {
                // a merge inside a native transaction: its units are the statement itself, so the face may
                // send them while the session's thread plans the same route again (NativeTransaction.prefetch);
                // in autocommit, when that thread would run them on the face's native reads (NativeReads)
                if (write || !route.kind().runsAsWritten()
                        || (transactional ? execution.nativeTransaction() == null : !execution.takesNativeRead(route.units()))) {
                    return null;
                }
                merged = true;
            }
            session.accessChecked(plan.statement());
            givenId = plan.statement() instanceof Insert i ? session.givenId(i, normalized, List.of()) : null;
            List<String> begin = transactional ? execution.nativeBegin(session.transactionReadOnly()) : null;
            return new RelayPlan(route.units(), engine.rule().schema(), setup, begin, write, merged, merged ? route : null);
        } catch (RuntimeException e) {
            return null; // a lexer or routing error included: execute reports it
        }
    }

    /**
     * The commonest transaction-control texts, exactly as drivers and sysbench send them (sysbench sends BEGIN and COMMIT
     * as text even with server-side prepared statements): {@link #plan} answers null for them without normalizing, as it
     * would after (a session command names no table). Any other spelling, a comment, a space, goes the normal way.
     */
    static boolean transactionControl(String sql) {
        if (sql.length() > 17 || sql.length() < 5) {
            return false;
        }
        return switch (sql) {
            case "BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "begin", "commit", "rollback", "start transaction" -> true;
            default -> false;
        };
    }

    /**
     * A transaction's own statement without the session's thread: a BEGIN that commits nothing first
     * and reaches no backend, or an end — with nothing to end on a backend, here; of a native
     * transaction, handed to the face, whose connections it runs on. The JDBC executor's transactions
     * (a backend joined) end on the session's thread as before. As a statement the session runs: a new diagnostics area.
     */
    @Override
    public TransactionCommand transactionCommand(String sql) {
        TransactionWords.Kind kind = TransactionWords.of(sql);
        TransactionWords.Savepoint named = kind == null ? TransactionWords.savepoint(sql) : null;
        if (kind == null && named == null || session.handshakePending()) {
            return null;
        }
        if (named != null) {
            return savepoint(named);
        }
        switch (kind) {
            case BEGIN -> {
                Boolean requested;
                try {
                    requested = TransactionAccess.requested(sql);
                } catch (RuntimeException e) {
                    return null; // the session's thread reports it
                }
                if (!execution.beginWithoutBackend()) {
                    return null;
                }
                session.relayedBegin(requested);
                session.clearDiagnostics();
                return TransactionCommand.ANSWERED;
            }
            case COMMIT, ROLLBACK -> {
                if (session.completionType() != 0) {
                    return null; // completion_type CHAIN or RELEASE: the session's thread chains or releases (TransactionCompletion)
                }
                io.shardwise.core.execute.NativeTransaction on = execution.nativeTransaction();
                if (on == null) {
                    if (!execution.endWithoutBackend()) {
                        return null;
                    }
                    noChain();
                    session.clearDiagnostics();
                    return TransactionCommand.ANSWERED;
                }
                noChain();
                session.clearDiagnostics();
                if (kind == TransactionWords.Kind.COMMIT) {
                    return new TransactionCommand(TransactionCommand.Action.COMMIT, on);
                }
                execution.nativeEnded(); // as ExecutionSession.rollback: out of the transaction first, whatever the backends answer
                return new TransactionCommand(TransactionCommand.Action.ROLLBACK, on);
            }
            case AUTOCOMMIT_ON, AUTOCOMMIT_OFF -> {
                return autocommit(kind == TransactionWords.Kind.AUTOCOMMIT_ON);
            }
        }
        return null;
    }

    /** A COMMIT or ROLLBACK that chains none drops a pending next-transaction level and mode, as the session's thread does (SessionCommandRunner#end). */
    private void noChain() {
        execution.state().takeNextIsolation();
        execution.state().takeNextReadOnly();
    }

    /**
     * SAVEPOINT, ROLLBACK TO, RELEASE SAVEPOINT without the session's thread. Of a native transaction: handed to
     * the face, which runs it on all the transaction's connections at once and records it, so a backend joining
     * later gets the savepoint replayed ({@code PinnedTransaction}). With no backend holding the session's
     * transaction (none open: SAVEPOINT does nothing in autocommit mode, or opens one with autocommit off; or one
     * no backend joined) it is recorded here, as ExecutionSession runs it, no I/O; such a transaction stays on the
     * native executor when its first statement relays (it takes them over: RelaySession#savepoints), else on the JDBC
     * executor's, whose joining backends replay them alike; 1305 for a savepoint the session does not hold is
     * answered by the face. A JDBC transaction a backend joined, table locks, a name too long (1059) go to the
     * session's thread.
     */
    private TransactionCommand savepoint(TransactionWords.Savepoint named) {
        String name = named.name();
        if (name.length() > 64) {
            return null;
        }
        io.shardwise.core.execute.NativeTransaction on = execution.nativeTransaction();
        if (on == null) {
            if (!execution.holdsNoBackend()) {
                return null;
            }
            try {
                switch (named.kind()) {
                    case SAVEPOINT -> execution.savepoint(name);
                    case ROLLBACK_TO_SAVEPOINT -> execution.rollbackToSavepoint(name);
                    default -> execution.releaseSavepoint(name);
                }
            } catch (io.shardwise.core.error.ShardwiseException e) {
                if (e.code() == io.shardwise.core.error.ErrorCode.SAVEPOINT_DOES_NOT_EXIST) {
                    session.clearDiagnostics(); // thrown before any change: the face answers it (the area records it)
                    return new TransactionCommand(TransactionCommand.Action.NO_SUCH_SAVEPOINT, null, name);
                }
                return null; // thrown before any change (a doomed transaction): the session's thread runs it again and reports it
            }
            session.clearDiagnostics();
            return TransactionCommand.ANSWERED;
        }
        session.clearDiagnostics();
        TransactionCommand.Action action = switch (named.kind()) {
            case SAVEPOINT -> TransactionCommand.Action.SAVEPOINT;
            case ROLLBACK_TO_SAVEPOINT -> TransactionCommand.Action.ROLLBACK_TO_SAVEPOINT;
            default -> TransactionCommand.Action.RELEASE_SAVEPOINT;
        };
        return new TransactionCommand(action, on, name);
    }

    /**
     * SET autocommit as ExecutionSession.setAutocommit runs it: off, or on while on, only flips the mode;
     * on while off commits the open transaction — here when none is open or no backend joined it, by the
     * face when it is native (autocommit on first, as on the session's thread, whatever COMMIT answers).
     * A JDBC transaction's commit, or table locks held, are the session thread's.
     */
    private TransactionCommand autocommit(boolean on) {
        if (execution.holdsTableLocks()) {
            return null;
        }
        if (!on || execution.autocommit()) {
            execution.setAutocommit(on); // no commit: nothing reaches a backend
            session.clearDiagnostics();
            return TransactionCommand.ANSWERED;
        }
        io.shardwise.core.execute.NativeTransaction open = execution.nativeTransaction();
        if (open == null) {
            if (!execution.endWithoutBackend()) {
                return null;
            }
            execution.setAutocommit(true); // nothing left open: its commit is a no-op
            session.clearDiagnostics();
            return TransactionCommand.ANSWERED;
        }
        execution.autocommitBeforeCommit();
        session.clearDiagnostics();
        return new TransactionCommand(TransactionCommand.Action.COMMIT, open);
    }

    private static boolean relayableRead(RoutePlan route) {
        boolean concat = route.merge() instanceof MergeSpec.Concat c && c.tail().equals(MergeSpec.Tail.NONE);
        return route.merge() instanceof MergeSpec.PassThrough || concat;
    }

    @Override
    public void wrote(long affectedRows, long lastInsertId) {
        String given = givenId;
        givenId = null;
        session.relayedWrite(lastInsertId, given);
    }

    @Override
    public void nativeOpener(NativeOpener opener) {
        // the begin is read when the session's thread opens it: READ ONLY and the isolation level are the transaction's then
        execution.nativeOpener(setup -> opener.open(setup, execution.nativeBegin(session.transactionReadOnly()), engine.rule().schema()));
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
    public List<String> savepoints() {
        return execution.savepointsBeforeJoin();
    }

    @Override
    public void useNativeReads(io.shardwise.core.execute.NativeReads reads) {
        execution.useNativeReads(reads);
    }

    @Override
    public void nativeEnded() {
        execution.nativeEnded();
    }

    /**
     * As {@link #plan}, for one execution of a prepared statement: a single unit passed through,
     * whose parameters are the very values bound, in their order (so the unit's SQL has the
     * statement's markers, only names changed: no value was inlined, dropped or repeated); and not
     * under NO_BACKSLASH_ESCAPES, whose status bit the relay's end packet does not carry. In a
     * transaction as in autocommit, and writes as {@link #plan} takes them: a write answers with an OK
     * packet, so its markers may lie anywhere; a read's only in its WHERE clause.
     */
    @Override
    public RelayPlan prepared(String sql, List<Object> params) {
        String schema = session.schema();
        boolean transactional = execution.inTransaction() || !execution.autocommit();
        String setup = setup(schema, transactional);
        if (setup == null || session.lexicalMode().noBackslashEscapes()) {
            return null;
        }
        try {
            // the statement's text read once, not per execution (its values are not in it)
            PreparedTexts.Reading text = texts.read(sql, session.lexicalMode(), session.clientCharset(), session::normalize);
            NormalizedSql normalized = text.normalized();
            if (normalized.parameterCount() != params.size() || text.assigns()) {
                return null; // @x := ... runs with the session's variables set and read back (AssigningRunner)
            }
            CachedPlan plan = engine.cachedPlan(normalized);
            if (plan == null || plan.statement().tables().isEmpty()) {
                return null;
            }
            Boolean relayed = switch (plan.statement()) {
                case Select s -> false;
                case Insert i -> i.columns().isEmpty() || i.source() != null ? null : true; // as plan()
                case Update u -> true;
                case Delete d -> true;
                default -> null;
            };
            if (relayed == null || !relayed && !text.markersOnlyInWhere()) {
                return null;
            }
            boolean write = relayed;
            if (!withinSession(plan, write, schema)) {
                return null;
            }
            List<ExecutionUnit> kept = text.kept().units(plan, schema);
            if (kept != null) {
                keptRoutes++;
                session.accessChecked(plan.statement());
                List<String> begin = transactional ? execution.nativeBegin(session.transactionReadOnly()) : null;
                return new RelayPlan(kept, engine.rule().schema(), setup, begin, write);
            }
            RoutePlan route = plans.route(normalized, plan, params);
            if (!write && route.units().size() > 1) {
                return preparedMerge(plan, route, setup, transactional);
            }
            if (route.units().size() != 1 || !(route.merge() instanceof MergeSpec.PassThrough)
                    || write && (!route.generatedKeys().isEmpty() || !route.kind().runsAsWritten()
                            || plan.federatedWrite(engine.rule()) instanceof FederatedWrite f && f.readsShards()
                            || plans.ordersByShards(plan.statement()))) {
                return null;
            }
            ExecutionUnit unit = route.units().get(0);
            if (unit.params().size() != params.size()) {
                return null;
            }
            for (int i = 0; i < params.size(); i++) {
                if (unit.params().get(i) != params.get(i)) {
                    return null; // identity: the router passes the values on, so a different object was made or moved
                }
            }
            List<ExecutionUnit> units = List.of(new ExecutionUnit(unit.backend(), unit.sql(), List.of(), unit.logicalTables()));
            session.accessChecked(plan.statement());
            if (valueFree(plan.statement(), route)) {
                text.kept().keep(plan, schema, units); // after the access check: a refused statement keeps nothing
            }
            List<String> begin = transactional ? execution.nativeBegin(session.transactionReadOnly()) : null;
            return new RelayPlan(units, engine.rule().schema(), setup, begin, write);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether a relayed execution's route is a function of the statement alone, so every execution of it relays the
     * same unit: a SELECT, UPDATE or DELETE that names no sharded table (tables of no rule, single and broadcast ones),
     * routed to one node with no value read for it — a single table's backend or the default one, a broadcast read's
     * copy chosen by the configuration ({@code Placement.readBackend}), the text rendered with the values bound to its
     * markers, never spelled in (the identity check above). Kept per statement text, lexical mode and charset
     * ({@link PreparedTexts.Reading}), cached plan (the engine's configuration is fixed for its life; DDL or an eviction
     * makes a new plan) and schema: an INSERT (its generated keys, its rows' routes) and anything sharded route per execution.
     */
    private boolean valueFree(io.shardwise.core.sql.analyze.Statement statement, RoutePlan route) {
        if (!(statement instanceof Select || statement instanceof Update || statement instanceof Delete)
                || route.kind() != io.shardwise.core.route.RouteKind.UNSHARDED && route.kind() != io.shardwise.core.route.RouteKind.BROADCAST_READ) {
            return false;
        }
        for (TableRef t : statement.tables()) {
            if ((t.schema() == null || t.schema().equalsIgnoreCase(engine.rule().schema()))
                    && engine.rule().table(t.name()) instanceof io.shardwise.core.rule.TableRule.Sharded) {
                return false;
            }
        }
        return true;
    }

    /** How many executions {@link #prepared} relayed with a kept route, not routing them again. */
    long keptRoutes() {
        return keptRoutes;
    }

    /**
     * A prepared read of several units ({@link #prepared}), which core merges as it merges the text statement's: as
     * {@link #plan}'s merged reads — in a native transaction, or in autocommit when the session's thread would run the
     * units on the face's native reads — with the values written into the units' text as the session's thread writes
     * them for those connections ({@link ExecutionSession#inlined}), so the units the face sends ahead are the very
     * ones that thread would send (it takes their responses) and the merge is its merge. Null otherwise.
     */
    private RelayPlan preparedMerge(CachedPlan plan, RoutePlan route, String setup, boolean transactional) {
        if (!route.kind().runsAsWritten()
                || (transactional ? execution.nativeTransaction() == null : !execution.takesNativeRead(route.units()))) {
            return null;
        }
        List<ExecutionUnit> units = execution.inlined(route.units());
        session.accessChecked(plan.statement());
        List<String> begin = transactional ? execution.nativeBegin(session.transactionReadOnly()) : null;
        return new RelayPlan(units, engine.rule().schema(), setup, begin, false, true, route);
    }

    /** How many times {@link #prepared} read (normalized) a statement's text: once per statement and lexical mode. */
    long preparedTextReads() {
        return texts.reads();
    }

    /** Clauses of a SELECT that end its WHERE clause (at parenthesis depth 0). */
    private static final List<String> AFTER_WHERE = List.of("group", "having", "window", "order", "limit", "union", "intersect",
            "except", "for", "lock", "into", "procedure");

    /**
     * Whether every {@code ?} marker of the statement lies in its WHERE clause. A marker elsewhere
     * (the select list, ORDER BY, LIMIT) makes the result's column types or order depend on how the
     * value is typed: bound on the backend it is a typed parameter, on the executor's path a literal
     * (Connector/J's client-side prepare), so the bytes would differ ({@code ? AS tag}, {@code amount * ?}).
     */
    static boolean markersOnlyInWhere(NormalizedSql normalized) {
        String sql = normalized.sql();
        int depth = 0;
        boolean inWhere = false;
        for (int i = 0; i < normalized.tokenCount(); i++) {
            int start = normalized.tokenStart(i);
            int length = normalized.tokenEnd(i) - start;
            char c = sql.charAt(start);
            if (length == 1 && c == '?' && !inWhere) {
                return false;
            } else if (length == 1 && c == '(') {
                depth++;
            } else if (length == 1 && c == ')') {
                depth--;
            } else if (depth == 0 && length == 5 && sql.regionMatches(true, start, "where", 0, 5)) {
                inWhere = true;
            } else if (depth == 0 && inWhere && Character.isLetter(c)) {
                for (String keyword : AFTER_WHERE) {
                    if (keyword.length() == length && sql.regionMatches(true, start, keyword, 0, length)) {
                        inWhere = false;
                    }
                }
            }
        }
        return true;
    }

    @Override
    public void started(String sql, RelayPlan plan) {
        session.diagnostics(new Diagnostics(plan.units().size()));
    }

    @Override
    public void started(String sql, RelayPlan plan, Diagnostics area) {
        session.newArea(area);
    }

    /**
     * As PlanRunner.run merges a statement's units: one unit's cursor as it is, several through the merger. Null
     * when an ordering key is an ENUM or SET column (the units' columns say), which the session's thread orders by
     * member index with a route of its own (PlanRunner.byEnumIndex).
     */
    @Override
    public io.shardwise.core.execute.ResultCursor merge(RelayPlan plan, List<io.shardwise.core.execute.UnitResult> results,
                                                       Diagnostics area) {
        List<io.shardwise.core.execute.ResultCursor> cursors = new ArrayList<>(results.size());
        for (io.shardwise.core.execute.UnitResult r : results) {
            cursors.add(((io.shardwise.core.execute.UnitResult.Rows) r).cursor());
        }
        if (cursors.size() == 1) {
            return cursors.get(0);
        }
        RoutePlan route = plan.mergeRoute();
        List<io.shardwise.core.execute.Column> columns = cursors.get(0).columns();
        if (io.shardwise.core.merge.EnumKeys.needed(route, columns)) {
            return null;
        }
        return io.shardwise.core.merge.Merger.merge(cursors, route.mergeFor(columns.size()), area::merged);
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

    /**
     * The statement names only tables of the session's schema (another schema's are read where the
     * engine reads them), and is no write the session refuses (its own 1792 then).
     */
    private boolean withinSession(CachedPlan plan, boolean write, String schema) {
        for (TableRef t : plan.statement().tables()) {
            if (t.schema() != null && !t.schema().equalsIgnoreCase(schema)) {
                return false;
            }
        }
        return !(write && session.refusesWrite());
    }

    /** The settings a relay connection must carry for this session (a transaction's when in one), or null when nothing relays. */
    private String setup(String schema, boolean transactional) {
        return schema == null || session.handshakePending() ? null
                : transactional ? execution.nativeSetup() : execution.relaySetup();
    }
}
