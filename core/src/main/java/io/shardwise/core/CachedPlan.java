package io.shardwise.core;

import io.shardwise.core.sql.analyze.Statement;

/** What the plan cache keeps per digest: the analyzed statement and its digest's token layout. */
record CachedPlan(Statement statement, int[] digestTokenOffsets) {
    /** A rough size for the cache's weight bound: the text dominates. */
    int weight() {
        return 64 + statement.template().text().length() * 4 + digestTokenOffsets.length * 4;
    }
}
