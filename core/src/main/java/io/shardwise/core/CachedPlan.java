package io.shardwise.core;

import io.shardwise.core.route.Router;
import io.shardwise.core.sql.analyze.Statement;

/**
 * What the plan cache keeps per digest: the analyzed statement prepared for routing, and its
 * digest's token layout (to render from each execution's own text).
 */
record CachedPlan(Router.Prepared prepared, int[] digestTokenOffsets) {
    Statement statement() {
        return prepared.statement();
    }

    /** A rough size for the cache's weight bound: the text dominates. */
    int weight() {
        return 64 + statement().template().text().length() * 4 + digestTokenOffsets.length * 4;
    }
}
