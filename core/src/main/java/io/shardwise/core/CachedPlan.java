package io.shardwise.core;

import io.shardwise.core.federate.Federation;
import io.shardwise.core.route.Router;
import io.shardwise.core.sql.analyze.Statement;

/**
 * What the plan cache keeps per digest: the analyzed statement prepared for routing, and its
 * digest's token layout (to render from each execution's own text); for a SELECT,
 * what the third tier does with it should the first two refuse it (null otherwise), so a cache hit
 * never plans again in any tier.
 */
record CachedPlan(Router.Prepared prepared, int[] digestTokenOffsets, Federation.Decision federated) {
    Statement statement() {
        return prepared.statement();
    }

    /** A rough size for the cache's weight bound: the text dominates. */
    int weight() {
        return 64 + statement().template().text().length() * 4 + digestTokenOffsets.length * 4
                + (federated instanceof io.shardwise.core.federate.FederatedPlan f ? 256 * f.copies().size() : 0);
    }
}
