package io.shardwise.core.federate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FederatedWritePlanTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);

    private static Federation.Decision plan(String sql) {
        return FederatedWrite.plan(ANALYZER.analyze(sql), RULE);
    }

    private static FederatedWrite federated(String sql) {
        Federation.Decision d = plan(sql);
        assertInstanceOf(FederatedWrite.class, d, d.toString());
        return (FederatedWrite) d;
    }

    /** The write as a site renders it for one target node (the subqueries' names, the node, the self-read edits). */
    private static String rendered(String sql, String backend, String node) {
        FederatedWrite w = federated(sql);
        Statement s = ANALYZER.analyze(sql);
        Map<String, String> names = new java.util.HashMap<>(w.sites().get(backend).names());
        names.put(w.target().name().toLowerCase(java.util.Locale.ROOT), node);
        return Renderer.render(s.template(), names, io.shardwise.core.route.Bindings.NONE, w.selfReads()).sql();
    }

    @Test
    void eachBackendOfTheTargetIsASiteWithItsOwnCopiesOfTheSubqueriesShardedTables() {
        assertEquals("""
                FEDERATED WRITE of users
                  on ds0
                    copy orders -> orders (like orders_0)
                      where amount > 5  /* if amount are orders's alone */
                      local orders_0
                      local orders_1
                      ship ds1.orders_0
                      ship ds1.orders_1
                  on ds1
                    copy orders -> orders (like orders_0)
                      where amount > 5  /* if amount are orders's alone */
                      local orders_0
                      local orders_1
                      ship ds0.orders_0
                      ship ds0.orders_1""",
                federated("UPDATE users SET name = 'x' WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 5)").explain());
    }

    @Test
    void broadcastAndSingleTablesOfASiteAreReadInPlace() {
        FederatedWrite w = federated("DELETE FROM promotions WHERE id IN (SELECT user_id FROM orders) AND id IN (SELECT 1 FROM countries)");
        assertEquals(java.util.Set.of("ds1"), w.sites().keySet());
        assertEquals(Map.of("orders", "orders", "countries", "countries"), w.sites().get("ds1").names(),
                "orders' copy takes its logical name; countries is read in place");
    }

    @Test
    void subqueriesReadingTheTargetReadItsCopyWhileTheOuterReferencesNameTheNode() {
        assertEquals("UPDATE orders_1 SET amount = 0 WHERE order_id IN (SELECT order_id FROM `orders` WHERE amount > 4)",
                rendered("UPDATE orders SET amount = 0 WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 4)", "ds0", "orders_1"));
        assertEquals("DELETE FROM orders_1 WHERE amount > (SELECT AVG(amount) FROM `orders` o2 WHERE o2.status = orders_1.status)",
                rendered("DELETE FROM orders WHERE amount > (SELECT AVG(amount) FROM orders o2 WHERE o2.status = orders.status)",
                        "ds0", "orders_1"));
        assertEquals("UPDATE sbtest1 s SET k = 1 WHERE EXISTS (SELECT 1 FROM `shardwise_fed_sbtest1` WHERE `shardwise_fed_sbtest1`.id = s.id + 1)",
                rendered("UPDATE sbtest1 s SET k = 1 WHERE EXISTS (SELECT 1 FROM sbtest1 WHERE sbtest1.id = s.id + 1)", "ds1", "sbtest1"));
    }

    @Test
    void tablesWithNoNodeOnASiteAreCopiedFromAnotherNodesDefinitionWithTheirScansNarrowed() {
        assertEquals("""
                FEDERATED WRITE of orders
                  on ds0
                    copy promotions -> shardwise_fed_promotions (as ds1.promotions)
                      ship ds1.promotions
                    copy events -> events (like events_2025)
                      where e.kind = 'a'
                      local events_2025
                      local events_2026
                  on ds1
                    copy events -> events (as ds0.events_2025)
                      where e.kind = 'a'
                      ship ds0.events_2025
                      ship ds0.events_2026""",
                federated("UPDATE orders SET status = 'x' WHERE amount > (SELECT MAX(discount) FROM promotions)"
                        + " AND user_id IN (SELECT e.id FROM events e WHERE e.kind = 'a')").explain());
    }

    @Test
    void aQualifierNamingTheTargetMeansTheInnermostSelectExposingTheName() {
        assertEquals("UPDATE orders_1 SET amount = orders_1.amount WHERE orders_1.user_id > 1 AND order_id IN (SELECT order_id FROM `orders`"
                + " WHERE `orders`.amount > 4 AND EXISTS (SELECT 1 FROM users u WHERE u.user_id = `orders`.user_id))"
                + " AND EXISTS (SELECT 1 FROM users u WHERE u.user_id = orders_1.user_id)",
                rendered("UPDATE orders SET amount = orders.amount WHERE orders.user_id > 1 AND order_id IN (SELECT order_id FROM orders"
                        + " WHERE orders.amount > 4 AND EXISTS (SELECT 1 FROM users u WHERE u.user_id = orders.user_id))"
                        + " AND EXISTS (SELECT 1 FROM users u WHERE u.user_id = orders.user_id)", "ds0", "orders_1"));
    }

    @Test
    void declinesWhatItCannotAnswerExactly() {
        for (String sql : new String[] {
                "UPDATE orders SET user_id = 1 WHERE order_id IN (SELECT user_id FROM users)",
                "UPDATE orders SET status = 'x' WHERE user_id = 3"}) {
            assertTrue(plan(sql) instanceof Federation.Declined, sql);
        }
    }
}
