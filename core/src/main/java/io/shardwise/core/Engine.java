package io.shardwise.core;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.BackendPools;
import io.shardwise.core.execute.ExecutorOptions;
import io.shardwise.core.route.Router;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.session.SessionHost;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.cache.PlanCache;
import io.shardwise.core.sql.normalize.NormalizedSql;

/**
 * The one engine both faces stand on: a configuration's rule, its backend pools and its plan
 * cache, shared by every session. Thread-safe; {@link #openSession()} per client connection.
 */
public final class Engine implements AutoCloseable {
    static final long PLAN_CACHE_WEIGHT = 64L * 1024 * 1024;
    /** USER() of an in-process session: it logs in to no server, so it has no account name of its own. */
    static final String IN_PROCESS_USER = "shardwise";

    private final ShardingRule rule;
    private final BackendPools pools;
    private final ExecutorOptions options;
    private final Analyzer analyzer;
    private final Router router;
    private final PlanCache<CachedPlan> plans;
    private final Descriptions descriptions = new Descriptions();
    private final io.shardwise.core.federate.CopyDefinitions copyDefinitions = new io.shardwise.core.federate.CopyDefinitions();
    private final long federationBudget;
    private final java.util.concurrent.atomic.LongAdder federated = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder shippedRows = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder shippedCells = new java.util.concurrent.atomic.LongAdder();

    private Engine(ShardingRule rule, BackendPools pools, ExecutorOptions options) {
        this.rule = rule;
        this.pools = pools;
        this.options = options;
        this.analyzer = new Analyzer(rule);
        this.router = new Router(rule);
        this.plans = new PlanCache<>(PLAN_CACHE_WEIGHT, CachedPlan::weight);
        this.federationBudget = rule.config().federation().memoryBudget();
    }

    /** An engine with the configuration's {@code timeouts}. */
    public static Engine start(ShardingRule rule) {
        return start(rule, ExecutorOptions.of(rule.config().timeouts()));
    }

    public static Engine start(ShardingRule rule, ExecutorOptions options) {
        return new Engine(rule, BackendPools.of(rule), options);
    }

    /**
     * A session with autocommit on; {@code clientFoundRows} as the MySQL client flag (Connector/J's
     * default: true); {@code schema} the database the client connected with, null for none (then,
     * until USE, a statement naming a table without a schema fails with 1046, as in MySQL).
     *
     * @throws ShardwiseException 1049 when {@code schema} is not the logical schema
     */
    public EngineSession openSession(boolean clientFoundRows, String schema, SessionHost host) {
        if (schema != null) {
            SessionCommands.use(schema, rule.schema());
        }
        return new EngineSession(this, new io.shardwise.core.execute.ExecutionSession(pools, options, rule.schema(), clientFoundRows),
                schema == null ? null : rule.schema(), host);
    }

    /** A session of an in-process client ({@link SessionHost#inProcess}). */
    public EngineSession openSession(boolean clientFoundRows, String schema) {
        return openSession(clientFoundRows, schema, SessionHost.inProcess(IN_PROCESS_USER));
    }

    /** A session with the logical schema selected (as the JDBC driver's connections are). */
    public EngineSession openSession(boolean clientFoundRows) {
        return openSession(clientFoundRows, rule.schema());
    }

    public EngineSession openSession() {
        return openSession(true);
    }

    /** For checks of text the engine does not plan (a stored procedure's body). */
    Analyzer analyzer() {
        return analyzer;
    }

    public ShardingRule rule() {
        return rule;
    }

    public PlanCache.Stats planCacheStats() {
        return plans.stats();
    }

    /** KILL QUERY {@code connectionId} on {@code backend}, over a connection of its own; blocks until processed. */
    void killQuery(String backend, long connectionId) {
        pools.killQuery(backend, connectionId);
    }

    /** Connections currently borrowed from the pools (0 when every session is idle). */
    public int activeConnections() {
        return pools.activeConnections();
    }

    /**
     * One XA recovery pass now: in transaction mode xa, prepared branches of this instance are
     * committed when the decision log holds their commit and rolled back otherwise. Runs by itself
     * at start and every {@code transaction.recoveryInterval}; a no-op in mode local.
     */
    public io.shardwise.core.execute.RecoveryReport recoverTransactions() {
        return pools.recoverTransactions();
    }

    CachedPlan plan(NormalizedSql statement) {
        try {
            return plans.get(statement, s -> new CachedPlan(router.prepare(analyzer.analyze(s.digest(), s.lexicalMode())),
                    s.digestTokenOffsets(), CachedPlan.FederationSlot.of(s)));
        } catch (io.shardwise.core.sql.analyze.SyntaxErrorNear e) {
            // worded from the user's text, as MariaDB words it
            io.shardwise.core.rewrite.SourceText source = io.shardwise.core.rewrite.SourceText.original(statement, statement.digestTokenOffsets());
            throw e.in(source.text(), source::at);
        }
    }

    /** The cached plan of {@code statement}, or null: never analyzes (a caller on an event loop must not run Calcite). */
    CachedPlan cachedPlan(NormalizedSql statement) {
        return plans.ifCached(statement);
    }

    /** Bytes of rows one federated statement may hold in this process ({@link io.shardwise.core.federate.ShipBudget}). */
    long federationBudget() {
        return federationBudget;
    }

    /** Distinct keys a federated copy's join-key reduction may send ({@link io.shardwise.core.federate.JoinKeys}); 0: none. */
    int federationJoinKeys() {
        return rule.config().federation().joinKeys();
    }

    /** Rows and cells the federated tier's SELECTs have shipped between backends since start (TpchShippedIT reads it). */
    public long[] federatedShipped() {
        return new long[] {shippedRows.sum(), shippedCells.sum()};
    }

    void countShipped(long rows, long cells) {
        shippedRows.add(rows);
        shippedCells.add(cells);
    }

    /** SELECTs run by the federated tier since start (the tier-choice tests read it). */
    public long federatedStatements() {
        return federated.sum();
    }

    void countFederated() {
        federated.increment();
    }

    Descriptions descriptions() {
        return descriptions;
    }

    /** The node definitions federated copies are made from ({@link io.shardwise.core.federate.CopyDefinitions}); emptied with {@link #descriptions}. */
    io.shardwise.core.federate.CopyDefinitions copyDefinitions() {
        return copyDefinitions;
    }

    Router router() {
        return router;
    }

    @Override
    public void close() {
        pools.close();
    }
}
