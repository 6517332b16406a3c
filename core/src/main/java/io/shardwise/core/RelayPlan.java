package io.shardwise.core;

import io.shardwise.core.route.ExecutionUnit;
import java.util.List;

/**
 * A read whose result is its units' results as the backends send them, one unit after another: a
 * face may relay the backends' packets instead of decoding rows. Only the column metadata's names
 * change (schema to the logical one, each unit's physical tables to logical ones, as
 * {@link ExecutionUnit#logicalTable}); the first unit's column definitions describe every unit's rows.
 * A unit's SQL is text with its literals inline, except in the plan of a prepared statement's
 * execution ({@link RelaySession#prepared}) passed through, whose one unit keeps the statement's {@code ?}
 * markers (a prepared execution's merged plan has its values inline, as a text statement's).
 *
 * @param logicalSchema what a column definition's non-empty schema becomes
 * @param setup SQL a fresh backend connection runs once so it carries the session's settings as the
 *     executor's connections would ("" for none): connections are pooled per setup
 * @param begin null in autocommit mode; in a transaction, what a backend connection runs when it
 *     joins the transaction ({@link io.shardwise.core.execute.ExecutionSession#nativeBegin}): the units run on
 *     the session's pinned connections, and the session's transaction is native from then on
 * @param write a single-unit INSERT, UPDATE or DELETE, answered by the backend's OK packet
 * @param merged a read whose units need the session's merger (ORDER BY, an aggregate, DISTINCT, LIMIT
 *     over several units): never relayed. In a native transaction the face may send the units on the
 *     transaction's connections at once ({@link io.shardwise.core.execute.NativeTransaction}'s prefetch)
 *     while the session's thread plans and merges them; in autocommit ({@code begin} null) only when the
 *     session's thread would run them on the face's native reads
 *     ({@link io.shardwise.core.execute.ExecutionSession#takesNativeRead}), which may take them sent ahead
 * @param mergeRoute of a merged plan, its route: the face may merge the units' results itself on its event
 *     loop once they are in ({@link RelaySession#merge}: the merge needs nothing but the rows), as the
 *     session's thread would; null for any other plan
 */
public record RelayPlan(List<ExecutionUnit> units, String logicalSchema, String setup, List<String> begin, boolean write,
                        boolean merged, io.shardwise.core.route.RoutePlan mergeRoute) {
    /** An autocommit read. */
    public RelayPlan(List<ExecutionUnit> units, String logicalSchema, String setup) {
        this(units, logicalSchema, setup, null, false, false, null);
    }

    public RelayPlan(List<ExecutionUnit> units, String logicalSchema, String setup, List<String> begin, boolean write) {
        this(units, logicalSchema, setup, begin, write, false, null);
    }

    public RelayPlan {
        begin = begin == null ? null : List.copyOf(begin);
        if (merged && write) {
            throw new IllegalArgumentException("a merged plan is a read");
        }
        if (mergeRoute != null && !merged) {
            throw new IllegalArgumentException("only a merged plan has a route to merge");
        }
        if (write && units.size() != 1) {
            throw new IllegalArgumentException("a relayed write has one unit");
        }
        units = List.copyOf(units);
        java.util.Objects.requireNonNull(setup, "setup");
        if (units.isEmpty()) {
            throw new IllegalArgumentException("a relay plan needs a unit");
        }
        for (ExecutionUnit u : units) {
            if (!u.params().isEmpty()) {
                throw new IllegalArgumentException("a relayed unit is text SQL without parameters: " + u.explain());
            }
        }
    }

    /** Runs on the session's transaction connections. */
    public boolean transactional() {
        return begin != null;
    }
}
