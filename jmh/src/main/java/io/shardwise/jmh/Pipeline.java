package io.shardwise.jmh;

import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.route.Router;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.cache.PlanCache;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;

/**
 * The engine's statement chain up to execution, as {@code Engine} and {@code EngineSession.execute}
 * run it: normalize, plan cache (analyze on a miss), then route with this statement's literals,
 * rendering each unit's SQL from the user's text. Built from core's public pieces because the
 * engine's own {@code CachedPlan} is package-private; keep it in step
 * with {@code Engine.plan} and {@code EngineSession.route} (same cache bound and weigher).
 *
 * <p>Routing never connects, so the sample rule's backends need not exist. Thread-safe, as the
 * engine: the cache is shared, everything else is per call.
 */
final class Pipeline {
    /** {@code Engine.PLAN_CACHE_WEIGHT}. */
    private static final long PLAN_CACHE_WEIGHT = 64L * 1024 * 1024;

    /** What the cache keeps per digest: {@code CachedPlan}'s fields. */
    record Plan(Router.Prepared prepared, int[] digestTokenOffsets) {
        Statement statement() {
            return prepared.statement();
        }

        /** {@code CachedPlan.weight()}. */
        int weight() {
            return 64 + statement().template().text().length() * 4 + digestTokenOffsets.length * 4;
        }
    }

    private final Analyzer analyzer;
    private final Router router;
    private final PlanCache<Plan> plans = new PlanCache<>(PLAN_CACHE_WEIGHT, Plan::weight);

    Pipeline(ShardingRule rule) {
        this.analyzer = new Analyzer(rule);
        this.router = new Router(rule);
    }

    /** The sample configuration (sbtest1..4 hashed by id, small by id mod 2 over ds0 and ds1). */
    static Pipeline sample() {
        return new Pipeline(SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop")));
    }

    /** The sample configuration without its table rules and second backend: every table whole on the default one (ds0). */
    static Pipeline noRules() {
        return new Pipeline(SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"), yaml -> {
            int ds1 = yaml.indexOf("\n  ds1:");
            String one = yaml.substring(0, ds1) + yaml.substring(yaml.indexOf("\n\n", ds1));
            int tables = one.indexOf("\ntables:");
            return one.substring(0, tables) + "\n" + one.substring(one.indexOf("\nserver:", tables));
        }));
    }

    /** The whole chain for one text statement. */
    RoutePlan run(String sql) {
        NormalizedSql normalized = Normalizer.normalize(sql);
        return route(normalized, plan(normalized));
    }

    /** {@code Engine.plan}: a hit is a hash probe and one digest comparison. */
    Plan plan(NormalizedSql normalized) {
        return plans.get(normalized, s -> new Plan(router.prepare(analyzer.analyze(s.digest())), s.digestTokenOffsets()));
    }

    /** {@code EngineSession.route}: routing and rendering, with this statement's values and text. */
    RoutePlan route(NormalizedSql normalized, Plan plan) {
        return router.route(plan.prepared(), new io.shardwise.core.StatementBindings(normalized, java.util.List.of()),
                SourceText.original(normalized, plan.digestTokenOffsets()));
    }

    Router router() {
        return router;
    }

    Analyzer analyzer() {
        return analyzer;
    }

    PlanCache.Stats stats() {
        return plans.stats();
    }
}
