package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingAlgorithm;
import io.shardwise.core.rule.TableRule;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The join-key reduction of a federated statement's copies (Vitess's batched lookup join, done before
 * the coordinator joins): a copy whose rows the statement uses only where a join key of theirs equals
 * a value of another copy's column ({@link FederatedPlan.Key}) is filled after that source copy, and its
 * scans keep only rows whose key is among the source's values: {@code AND (t.k IN (...))}, in batches
 * of {@link #BATCH}, each sent only to the nodes its keys route to when {@code k} is the table's
 * sharding key. Exact because the coordinator still runs the whole statement over the copies: a row
 * left out has a key no row of the source's copy has, so the key's equality drops it there anyway.
 *
 * <p>Order: copies whose pushed conjuncts pin their sharding key first, then those with other
 * pushed conjuncts of their own (the narrow ones), then the rest, each in plan order, a copy placed after the narrowed copies it takes keys from where that
 * makes no cycle; a copy takes keys only from a copy placed before it that is narrowed itself (by
 * its conjuncts or its own keys), so there is no cycle and a key set comes from a filtered table. A
 * source whose distinct keys exceed {@code federation.joinKeys} leaves the copy to its whole scan.
 * Immutable values and static functions; the runner reads the sources and ships.
 */
public final class JoinKeys {
    private JoinKeys() {}

    /** Keys per {@code IN (...)} of one scan: one statement well under max_allowed_packet, few round trips. */
    public static final int BATCH = 1000;
    /** The setting that bounds a source's distinct keys, as docs spell it. */
    public static final String SETTING = "federation.joinKeys";

    /** Copy {@code source} (index in the plan's copies) gives {@code key} to the copy that has it. */
    public record Edge(FederatedPlan.Key key, int source) {}

    /**
     * Per copy (plan order) the edges its scans may use and its level: level 0 ships first, a copy of
     * level n after every copy of lower levels (its sources are among them).
     */
    public record Order(List<List<Edge>> edges, int[] levels, int depth) {
        public Order {
            edges = List.copyOf(edges);
        }
    }

    /** No reduction: every copy at level 0. */
    public static Order none(int copies) {
        List<List<Edge>> edges = new ArrayList<>(copies);
        for (int i = 0; i < copies; i++) {
            edges.add(List.of());
        }
        return new Order(edges, new int[copies], 0);
    }

    /** The order of {@code bounds}' scans and the edges each may use (see the class comment). */
    public static Order order(List<CopyScans.Bound> bounds) {
        int n = bounds.size();
        List<Integer> ranked = new ArrayList<>(n);
        for (int rank = 0; rank < 3; rank++) {
            for (int i = 0; i < n; i++) {
                if (rank(bounds.get(i)) == rank) {
                    ranked.add(i);
                }
            }
        }
        List<List<Edge>> edges = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            edges.add(new ArrayList<>());
        }
        boolean[] narrowed = new boolean[n];
        boolean[] done = new boolean[n];
        int[] levels = new int[n];
        int depth = 0;
        for (int step = 0; step < n; step++) {
            int i = next(bounds, ranked, done);
            for (FederatedPlan.Key k : bounds.get(i).keys()) {
                int source = indexOf(bounds, k.source());
                if (source >= 0 && source != i && done[source] && narrowed[source] && bounds.get(source).position(k.sourceColumn()) >= 0) {
                    edges.get(i).add(new Edge(k, source));
                    levels[i] = Math.max(levels[i], levels[source] + 1);
                }
            }
            narrowed[i] = !bounds.get(i).pushed().isEmpty() || !edges.get(i).isEmpty();
            done[i] = true;
            depth = Math.max(depth, levels[i]);
        }
        List<List<Edge>> frozen = new ArrayList<>(n);
        for (List<Edge> e : edges) {
            frozen.add(List.copyOf(e));
        }
        return new Order(frozen, levels, depth);
    }

    /** 0: a pushed conjunct pins its sharding key (fewest nodes, likely fewest rows); 1: other pushed conjuncts; 2: none. */
    private static int rank(CopyScans.Bound b) {
        for (io.shardwise.core.sql.analyze.CopyScope.Conjunct c : b.pushed()) {
            if (!(c.key() instanceof io.shardwise.core.sql.analyze.KeyCondition.Any)) {
                return 0;
            }
        }
        return b.pushed().isEmpty() ? 2 : 1;
    }

    /**
     * The next copy to place: the first (by rank) that waits for no copy with conjuncts of its own
     * still unplaced (a semi-join's outer table waits for its subquery's); in a cycle (an inner join
     * narrows either side) the first by rank.
     */
    private static int next(List<CopyScans.Bound> bounds, List<Integer> ranked, boolean[] done) {
        for (int i : ranked) {
            if (done[i]) {
                continue;
            }
            boolean waits = false;
            for (FederatedPlan.Key k : bounds.get(i).keys()) {
                int source = indexOf(bounds, k.source());
                waits |= source >= 0 && source != i && !done[source] && !bounds.get(source).pushed().isEmpty();
            }
            if (!waits) {
                return i;
            }
        }
        for (int i : ranked) {
            if (!done[i]) {
                return i;
            }
        }
        throw new IllegalStateException("every copy placed");
    }

    private static int indexOf(List<CopyScans.Bound> bounds, String logical) {
        for (int i = 0; i < bounds.size(); i++) {
            if (bounds.get(i).copy().table().toLowerCase(Locale.ROOT).equals(logical)) {
                return i;
            }
        }
        return -1;
    }

    private static final Pattern INTEGER = Pattern.compile("^(tinyint|smallint|mediumint|int|integer|bigint)\\b.*");
    private static final Pattern SAME_TYPE = Pattern.compile("^(char|varchar|date|datetime|decimal)\\b.*");

    /**
     * Whether {@code IN} of one column's values on the other compares as their {@code =} does: both
     * integers (compared as numbers), or the same character, date or decimal type with the same
     * collation. Not otherwise: a string column against a number compares as doubles, two collations
     * by coercibility, floats by their binary values (their text form may not round-trip).
     */
    public static boolean comparable(CopyScans.Column a, CopyScans.Column b) {
        if (a == null || b == null) {
            return false;
        }
        String ta = a.type().toLowerCase(Locale.ROOT);
        String tb = b.type().toLowerCase(Locale.ROOT);
        if (INTEGER.matcher(ta).matches() && INTEGER.matcher(tb).matches()) {
            return true;
        }
        return ta.equals(tb) && SAME_TYPE.matcher(ta).matches() && java.util.Objects.equals(a.collation(), b.collation())
                && java.util.Objects.equals(a.charset(), b.charset());
    }

    /** The condition a reduced scan adds for {@code count} keys, on the name its scan reads the table under. */
    public static String in(String exposed, String column, int count) {
        return '(' + CopyTexts.quote(exposed) + '.' + CopyTexts.quote(column) + " IN (?" + ", ?".repeat(count - 1) + "))";
    }

    /** What PREVIEW shows in place of the keys, which only running the source's scans can tell. */
    public static String placeholder(String exposed, Edge edge) {
        return '(' + CopyTexts.quote(exposed) + '.' + CopyTexts.quote(edge.key().column()) + " IN (/* keys of " + edge.key().source() + '.'
                + edge.key().sourceColumn() + ", in batches of " + BATCH + " */))";
    }

    /** A query for the distinct keys of a source node on the coordinator ({@code where} as its scan's, or null). */
    public static String distinct(String column, String node, String exposed, String where) {
        return "SELECT DISTINCT " + CopyTexts.quote(column) + " FROM " + CopyTexts.quote(node)
                + (where == null ? "" : " AS " + CopyTexts.quote(exposed) + " WHERE " + where);
    }

    /**
     * The keys each node of {@code nodes} (indexes in {@code sharded}'s nodes) can hold: when {@code
     * routed} (the key is the sharding key) only those its algorithm places there, else all of them.
     */
    public static List<List<Object>> route(Collection<Object> keys, TableRule.Sharded sharded, boolean routed, List<Integer> nodes) {
        List<List<Object>> out = new ArrayList<>(nodes.size());
        if (!routed || sharded == null) {
            List<Object> all = List.copyOf(keys);
            for (int i = 0; i < nodes.size(); i++) {
                out.add(all);
            }
            return out;
        }
        int count = sharded.nodes().size();
        List<List<Object>> byNode = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byNode.add(new ArrayList<>());
        }
        ShardingAlgorithm algorithm = sharded.algorithm();
        for (Object key : keys) {
            int node;
            try {
                node = algorithm.nodeFor(key);
            } catch (IllegalArgumentException e) {
                node = -2; // a value the algorithm cannot read: MySQL's conversion decides, so every node
            }
            if (node == -2) {
                for (List<Object> l : byNode) {
                    l.add(key);
                }
            } else if (node >= 0 && node < count) {
                byNode.get(node).add(key);
            }
        }
        for (int n : nodes) {
            out.add(n < 0 ? List.copyOf(keys) : byNode.get(n));
        }
        return out;
    }

    /** The index of {@code node} in {@code sharded}'s nodes, or -1. */
    public static int nodeIndex(TableRule.Sharded sharded, DataNode node) {
        return sharded == null ? -1 : sharded.nodes().indexOf(node);
    }
}
