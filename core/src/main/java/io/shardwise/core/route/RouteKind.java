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
    BROADCAST_WRITE
}
