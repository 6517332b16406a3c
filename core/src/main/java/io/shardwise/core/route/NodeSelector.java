package io.shardwise.core.route;

import io.shardwise.core.rule.KeyRange;
import io.shardwise.core.rule.ShardingAlgorithm;
import io.shardwise.core.sql.analyze.KeyCondition;
import io.shardwise.core.sql.analyze.ValueRef;
import java.util.BitSet;

/**
 * Turns a key condition and this execution's values into the set of node indexes that can hold
 * matching rows. Errs only towards more nodes: a value the algorithm cannot read widens the route.
 */
public final class NodeSelector {
    private NodeSelector() {}

    public static BitSet nodes(KeyCondition condition, ShardingAlgorithm algorithm, int nodeCount, Bindings bindings) {
        BitSet out = new BitSet(nodeCount);
        switch (condition) {
            case KeyCondition.Any a -> out.set(0, nodeCount);
            case KeyCondition.IsNull n -> { } // no row has a NULL key: it could not have been placed
            case KeyCondition.Eq eq -> point(value(eq.value(), bindings), algorithm, nodeCount, out);
            case KeyCondition.In in -> {
                for (ValueRef v : in.values()) {
                    point(value(v, bindings), algorithm, nodeCount, out);
                }
            }
            case KeyCondition.Range r -> {
                Object lo = r.lower() == null ? null : ShardingKeys.of(value(r.lower(), bindings));
                Object hi = r.upper() == null ? null : ShardingKeys.of(value(r.upper(), bindings));
                if (r.lower() != null && lo == null || r.upper() != null && hi == null) {
                    return out; // a comparison with NULL is never true
                }
                if (!algorithm.supportsRanges()) {
                    out.set(0, nodeCount);
                    return out;
                }
                try {
                    algorithm.nodesFor(new KeyRange(lo, r.lowerInclusive(), hi, r.upperInclusive()), out);
                } catch (IllegalArgumentException e) {
                    out.set(0, nodeCount);
                }
            }
            case KeyCondition.And and -> {
                out.set(0, nodeCount);
                for (KeyCondition c : and.operands()) {
                    out.and(nodes(c, algorithm, nodeCount, bindings));
                }
            }
            case KeyCondition.Or or -> {
                for (KeyCondition c : or.operands()) {
                    out.or(nodes(c, algorithm, nodeCount, bindings));
                }
            }
        }
        return out;
    }

    private static void point(Object value, ShardingAlgorithm algorithm, int nodeCount, BitSet out) {
        if (value == null) {
            return; // = NULL matches nothing; <=> NULL only NULL keys, which no node holds
        }
        try {
            int node = algorithm.nodeFor(ShardingKeys.of(value));
            if (node != ShardingAlgorithm.NO_NODE) {
                out.set(node);
            }
        } catch (IllegalArgumentException e) {
            out.set(0, nodeCount); // a value the algorithm cannot read: MySQL's conversion decides, so ask every node
        }
    }

    static Object value(ValueRef ref, Bindings bindings) {
        return switch (ref) {
            case ValueRef.Param p -> bindings.value(p.index());
            case ValueRef.Const c -> c.value();
        };
    }

    /** The most specific route kind the condition supports. */
    static RouteKind kind(KeyCondition condition, int selected, int nodeCount) {
        if (hasRange(condition)) {
            return RouteKind.RANGE;
        }
        if (selected >= nodeCount && nodeCount > 1) {
            return RouteKind.SCATTER;
        }
        return selected <= 1 ? RouteKind.POINT : RouteKind.MULTI_POINT;
    }

    private static boolean anyRange(java.util.List<KeyCondition> conditions) {
        for (KeyCondition c : conditions) {
            if (hasRange(c)) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasRange(KeyCondition c) {
        return switch (c) {
            case KeyCondition.Range r -> true;
            case KeyCondition.And a -> anyRange(a.operands());
            case KeyCondition.Or o -> anyRange(o.operands());
            default -> false;
        };
    }
}
