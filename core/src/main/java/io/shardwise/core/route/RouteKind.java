package io.shardwise.core.route;

/** How a statement was routed; shown by PREVIEW. */
public enum RouteKind {
    /** Requires: only single tables (or no table) on one backend; the SQL passes through untouched. */
    UNSHARDED,
    /** Requires: the sharding key bound to one value; one node. */
    POINT,
    /** Requires: the key bound to a finite set of values (IN, OR of =); the nodes those map to. */
    MULTI_POINT,
    /** Requires: a range condition on a range-capable algorithm; the nodes it overlaps. */
    RANGE,
    /** Requires: nothing narrows the key; every node. */
    SCATTER,
    /** Requires: a read of broadcast tables only; one backend's copy. */
    BROADCAST_READ,
    /** Requires: a write to a broadcast table; every backend's copy. */
    BROADCAST_WRITE,
    /**
     * Requires: an UPDATE or DELETE with ORDER BY / LIMIT over several nodes. The units are the SELECT
     * that chooses its rows (every node, merged in the global order, limited, locked); the write then
     * runs on the chosen rows' nodes by their primary keys, in one transaction with the choice.
     */
    KEYED_WRITE,
    /**
     * Requires: an UPDATE that assigns its target's sharding column. The units are the SELECT that
     * chooses its rows (locked, each with its assignments' values: {@link io.shardwise.core.sql.analyze.RowChoice});
     * the session then runs the UPDATE on those rows in place, and moves each row whose new key belongs
     * to another node there (read, deleted, inserted by the rule), all in one transaction.
     */
    KEY_MOVE,
    /**
     * Requires: an INSERT ... SELECT naming sharded or broadcast tables. The units are its SELECT
     * (routed and merged as that SELECT alone); the session then inserts the rows in INSERT ... VALUES
     * batches routed by the target's rule, in one transaction with the SELECT.
     */
    INSERT_SELECT,
    /**
     * Requires: a SELECT the fast path and the streaming merger refuse, that the federated tier takes
     * ({@link io.shardwise.core.federate.FederatedPlan}). The units are, in order: each remote node's
     * scan (its rows shipped), then the coordinator's sequence on one connection: the copies made and
     * filled, the statement as written, the copies dropped.
     */
    FEDERATED;

    /**
     * Whether a route of this kind runs its units as the statement itself: false where the units are a
     * first step the session builds on (the rows a write chooses, an INSERT's SELECT, the federated
     * tier's scans), which must never be relayed or explained as if they were the statement.
     */
    public boolean runsAsWritten() {
        return switch (this) {
            case UNSHARDED, POINT, MULTI_POINT, RANGE, SCATTER, BROADCAST_READ, BROADCAST_WRITE -> true;
            case KEYED_WRITE, KEY_MOVE, INSERT_SELECT, FEDERATED -> false;
        };
    }
}
