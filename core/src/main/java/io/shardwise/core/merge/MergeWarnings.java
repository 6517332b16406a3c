package io.shardwise.core.merge;

import io.shardwise.core.execute.Condition;

/**
 * Where the merger's own conditions go (the statement's diagnostics area), as MySQL raises them while
 * it computes the result: {@code x / 0} over merged aggregates is NULL with warning 1365. Called on
 * the thread reading the merged cursor, before its end is reported.
 */
@FunctionalInterface
public interface MergeWarnings {
    /** Drops every condition: for describing columns and for tests that do not look. */
    MergeWarnings NONE = condition -> { };

    void raise(Condition condition);
}
