package io.shardwise.core;

import io.shardwise.core.federate.MultiTableFederation;
import io.shardwise.core.federate.Federation;
import io.shardwise.core.route.Router;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.Update;

/**
 * What the plan cache keeps per digest: the analyzed statement prepared for routing, its digest's
 * token layout (to render from each execution's own text), and for a SELECT the third tier's
 * decision, made the first time the first two tiers refuse it and kept from then on.
 */
record CachedPlan(Router.Prepared prepared, int[] digestTokenOffsets, FederationSlot federation) {
    Statement statement() {
        return prepared.statement();
    }

    /**
     * The third tier's decision (a {@link io.shardwise.core.federate.FederatedPlan} or why not); null
     * for a statement other than a SELECT.
     */
    Federation.Decision federated(ShardingRule rule) {
        return statement() instanceof Select select ? federation.get(select, rule) : null;
    }

    /**
     * For an UPDATE or DELETE, the third tier's decision ({@link io.shardwise.core.federate.FederatedWrite}
     * or why not), kept as a SELECT's is; null for other statements.
     */
    Federation.Decision federatedWrite(ShardingRule rule) {
        return statement() instanceof Update || statement() instanceof Delete ? federation.get(statement(), rule) : null;
    }

    /**
     * A rough size for the cache's weight bound: the text dominates (a federated plan, made later for
     * the few statements that need one, is a few small maps).
     */
    int weight() {
        return 64 + statement().template().text().length() * 4 + digestTokenOffsets.length * 4;
    }

    /**
     * Holds the decision: computed on first need, not at every cache miss, so the statements of the
     * hot path (which the first two tiers answer) never pay for it. Sessions racing to fill it compute
     * equal values; either one may stay.
     */
    static final class FederationSlot {
        private volatile Federation.Decision decision;

        FederationSlot() {}

        /**
         * An empty slot. A statement with {@code ||} under PIPES_AS_CONCAT is no exception: the third tier runs the
         * user's text on MySQL (the copies' reads and the coordinator's statement, on connections in the session's
         * sql_mode), so MySQL reads {@code ||} as the concatenation it is; the precedence Calcite would read otherwise
         * is refused before any tier ({@code SqlModeRules}).
         */
        static FederationSlot of(io.shardwise.core.sql.normalize.NormalizedSql statement) {
            return new FederationSlot();
        }

        Federation.Decision get(Statement statement, ShardingRule rule) {
            Federation.Decision d = decision;
            if (d == null) {
                d = statement instanceof Select select ? Federation.plan(select, rule) : MultiTableFederation.plan(statement, rule);
                decision = d;
            }
            return d;
        }
    }
}
