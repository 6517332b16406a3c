package io.shardwise.core.federate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.CopyScope;
import io.shardwise.core.sql.analyze.Select;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Key sets each node answers for its own rows ({@link CopyScope.NodeKeys}): a subquery grouped by (or
 * filtering) the sharding key of a table bound with the copied one, and EXISTS / NOT EXISTS correlated
 * on it, narrow the copies; nothing else does, and a table not bound (not co-located) never takes one.
 * The sample schema: orders, order_items and users bound on user_id; sbtest1 sharded on its own.
 */
class NodeKeysTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);

    /** Per copied table, its node key sets as {@code key <- tables} (the tables each node reads at its own index). */
    private static Map<String, List<String>> nodeKeys(String sql) {
        FederatedPlan plan = (FederatedPlan) Federation.plan((Select) ANALYZER.analyze(sql), RULE);
        Map<String, List<String>> out = new TreeMap<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            List<String> sets = new java.util.ArrayList<>();
            for (CopyScope.Conjunct conjunct : c.push().conjuncts()) {
                collect(conjunct, sets);
            }
            if (!sets.isEmpty()) {
                out.put(c.table(), sets);
            }
        }
        return out;
    }

    private static void collect(CopyScope.Conjunct c, List<String> out) {
        if (c.node() != null) {
            out.add(c.node().column() + " <- " + new java.util.TreeSet<>(c.node().nodes().keySet()));
        }
        for (List<CopyScope.Conjunct> branch : c.any()) {
            for (CopyScope.Conjunct part : branch) {
                collect(part, out);
            }
        }
    }

    @Test
    void aSubqueryGroupedByTheKeyOfABoundTableNarrowsItsOwnTableAndTheOuterOnesOnTheKey() {
        // TPC-H Q18's shape: the subquery's own table, the outer table whose key is IN it, and the one equated with that key
        Map<String, List<String>> q18 = nodeKeys("SELECT u.name, o.order_id FROM users u, orders o, order_items i WHERE o.user_id IN"
                + " (SELECT user_id FROM order_items GROUP BY user_id HAVING SUM(quantity) > 5) AND u.user_id = o.user_id"
                + " AND i.user_id = o.user_id GROUP BY u.name, o.order_id");
        assertEquals(List.of("user_id <- [order_items]"), q18.get("orders"));
        assertEquals(List.of("user_id <- [order_items]"), q18.get("users"));
        assertEquals(List.of("user_id <- [order_items]"), q18.get("order_items"), q18.toString());
        // not grouped at all: a filter, each node's rows passing it
        assertEquals(List.of("user_id <- [orders]"), nodeKeys("SELECT u.name FROM users u WHERE u.user_id IN"
                + " (SELECT o.user_id FROM orders o WHERE o.amount > 3) AND u.name > (SELECT MIN(name) FROM users)").get("orders"));
    }

    @Test
    void existsAndNotExistsCorrelatedOnTheKeyNarrowEveryReferenceOfTheTable() {
        // TPC-H Q21's shape: one table under three names, the outer one with EXISTS and NOT EXISTS on the key
        Map<String, List<String>> q21 = nodeKeys("SELECT COUNT(*) FROM order_items l1, orders o, promotions p WHERE o.user_id = l1.user_id"
                + " AND p.id = l1.item_id AND EXISTS (SELECT * FROM order_items l2 WHERE l2.user_id = l1.user_id AND l2.item_id <> l1.item_id)"
                + " AND NOT EXISTS (SELECT * FROM order_items l3 WHERE l3.user_id = l1.user_id AND l3.item_id <> l1.item_id AND l3.quantity > 2)");
        assertEquals(List.of("user_id <- [order_items]"), q21.get("order_items"), q21.toString());
    }

    @Test
    void nothingIsAnsweredPerNodeWhereAKeysRowsMayLiveOnOtherNodes() {
        for (String sql : List.of(
                // grouped by another column: a group spans nodes
                "SELECT o.order_id FROM orders o, promotions p WHERE o.user_id IN (SELECT i.user_id FROM order_items i GROUP BY i.item_id, i.user_id"
                        + " HAVING COUNT(*) > 1 ORDER BY 1 LIMIT 3) AND p.id = o.order_id",
                "SELECT o.order_id FROM orders o, promotions p WHERE o.user_id IN (SELECT i.item_id FROM order_items i GROUP BY i.item_id)"
                        + " AND p.id = o.order_id",
                // a table not bound with the outer one: its keys live elsewhere
                "SELECT o.order_id FROM orders o, promotions p WHERE o.user_id IN (SELECT s.id FROM sbtest1 s GROUP BY s.id HAVING COUNT(*) > 0)"
                        + " AND p.id = o.order_id",
                // correlated on another column, and EXISTS under OR
                "SELECT o.order_id FROM orders o, promotions p WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id)"
                        + " AND p.id = o.order_id",
                "SELECT o.order_id FROM orders o, promotions p WHERE (o.amount > 3 OR EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id))"
                        + " AND p.id = o.order_id",
                // a subquery reading another table: not one node's
                "SELECT o.order_id FROM orders o, promotions p WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id"
                        + " AND i.item_id IN (SELECT id FROM promotions)) AND p.id = o.order_id",
                // time and user variables differ between backends
                "SELECT o.order_id FROM orders o, promotions p WHERE o.user_id IN (SELECT user_id FROM order_items WHERE quantity > @q)"
                        + " AND p.id = o.order_id")) {
            Map<String, List<String>> keys = nodeKeys(sql);
            assertTrue(!keys.containsKey("orders"), sql + " -> " + keys);
        }
        // NOT IN: the outer table keeps its rows, the subquery's own table still only its groups
        Map<String, List<String>> notIn = nodeKeys("SELECT o.order_id FROM orders o, promotions p WHERE o.user_id NOT IN"
                + " (SELECT user_id FROM order_items GROUP BY user_id HAVING SUM(quantity) > 5) AND p.id = o.order_id");
        assertEquals(Map.of("order_items", List.of("user_id <- [order_items]")), notIn);
    }
}
