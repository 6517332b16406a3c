package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.federate.JoinKeys;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sample.SampleData;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The federated tier's join-key reduction ({@link JoinKeys}) on real backends: a copy joined by
 * equality to a narrowed copy ships only rows whose key the narrowed copy has, its PREVIEW shows the
 * pushed {@code IN}, every answer equals one database's, and where leaving rows out could change
 * the answer (an outer join's preserved side, NOT IN, NOT EXISTS, an OR, keys compared as other
 * types) the scan stays whole.
 */
class FederatedJoinKeysTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("joinkeys");

    private static final String ITEMS_OF_USER_7 = "SELECT o.order_id, i.item_id, i.sku FROM orders o JOIN order_items i"
            + " ON i.order_id = o.order_id WHERE o.user_id = 7 AND o.amount > 10";

    /** The PREVIEW scans (local and remote) of {@code table}'s copy; checks the answer against one database. */
    private static List<String> scans(Engine engine, String sql, String table) throws Exception {
        try (EngineSession s = engine.openSession()) {
            RoutePlan plan = s.preview(sql, List.of());
            assertEquals(RouteKind.FEDERATED, plan.kind(), sql);
            List<String> out = new ArrayList<>();
            for (ExecutionUnit u : plan.units()) {
                if (u.sql().contains("FROM `" + table + "_")) {
                    out.add(u.explain());
                }
            }
            assertFalse(out.isEmpty(), sql);
            assertEquals(direct(sql), sorted(SampleEngine.rows(s, sql)), sql);
            return out;
        }
    }

    private static List<String> scans(String sql, String table) throws Exception {
        return scans(SAMPLE.engine(), sql, table);
    }

    /** Rows shipped between backends to answer {@code sql} once. */
    private static long shipped(Engine engine, String sql) {
        try (EngineSession s = engine.openSession()) {
            long before = engine.federatedShipped()[0];
            SampleEngine.rows(s, sql);
            return engine.federatedShipped()[0] - before;
        }
    }

    private static List<String> direct(String sql) throws Exception {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); PreparedStatement st = c.prepareStatement(sql);
             ResultSet rs = st.executeQuery()) {
            int width = rs.getMetaData().getColumnCount();
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= width; i++) {
                    byte[] v = rs.getBytes(i);
                    row.append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8)).append('|');
                }
                out.add(row.toString());
            }
            return sorted(out);
        }
    }

    private static long count(String sql) throws Exception {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); PreparedStatement st = c.prepareStatement(sql);
             ResultSet rs = st.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static List<String> sorted(List<String> rows) {
        List<String> out = new ArrayList<>(rows);
        Collections.sort(out);
        return out;
    }

    private static void reduced(List<String> scans, String in) {
        for (String scan : scans) {
            assertTrue(scan.contains(in), scan);
        }
    }

    private static void whole(List<String> scans) {
        for (String scan : scans) {
            assertFalse(scan.contains(" IN ("), scan);
        }
    }

    @Test
    void anInnerJoinOnANonKeyColumnShipsOnlyRowsWithTheNarrowedSidesKeys() throws Exception {
        reduced(scans(ITEMS_OF_USER_7, "order_items"), "(`i`.`order_id` IN (/* keys of orders.order_id, in batches of 1000 */))");
        // at most user 7's orders and their items cross; without the reduction every item of every other node would
        long matching = count("SELECT COUNT(*) FROM orders WHERE user_id = 7 AND amount > 10")
                + count("SELECT COUNT(*) FROM order_items WHERE order_id IN (SELECT order_id FROM orders WHERE user_id = 7 AND amount > 10)");
        long shipped = shipped(SAMPLE.engine(), ITEMS_OF_USER_7);
        assertTrue(shipped <= matching, shipped + " > " + matching);
        assertTrue(shipped < count("SELECT COUNT(*) FROM order_items") / 4, "shipped " + shipped);
    }

    @Test
    void unqualifiedKeysAreAttributedAsMysqlAttributesThem() throws Exception {
        // item_id is order_items' alone, status orders' alone (TpchIT runs the all-unqualified shapes)
        reduced(scans("SELECT item_id, status FROM orders o JOIN order_items i ON item_id = o.order_id WHERE status = 'paid'"
                + " AND o.user_id < 30", "order_items"), "(`i`.`item_id` IN (/* keys of orders.order_id");
    }

    @Test
    void inAndExistsSubqueriesNarrowTheOuterTable() throws Exception {
        reduced(scans("SELECT i.item_id, i.quantity FROM order_items i WHERE i.order_id IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7)",
                "order_items"), "(`i`.`order_id` IN (/* keys of orders.order_id");
        reduced(scans("SELECT i.item_id FROM order_items i WHERE i.quantity > 1 AND EXISTS (SELECT 1 FROM orders o"
                + " WHERE o.order_id = i.order_id AND o.user_id = 7)", "order_items"), "(`i`.`order_id` IN (/* keys of orders.order_id");
    }

    @Test
    void aCorrelatedSubquerysTableTakesTheOuterTablesKeysEvenUnderNotExists() throws Exception {
        String sql = "SELECT o.order_id FROM orders o WHERE o.user_id = 7 AND NOT EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.order_id = o.order_id AND i.quantity > 2)";
        reduced(scans(sql, "order_items"), "(`i`.`order_id` IN (/* keys of orders.order_id");
        reduced(scans("SELECT o.order_id, (SELECT SUM(i.quantity) FROM order_items i WHERE i.order_id = o.order_id) FROM orders o"
                + " WHERE o.user_id = 7", "order_items"), "(`i`.`order_id` IN (/* keys of orders.order_id");
    }

    @Test
    void theNullSuppliedSideTakesItsOwnOnConditionsAndKeys() throws Exception {
        String sql = "SELECT o.order_id, i.item_id FROM orders o LEFT JOIN order_items i ON i.order_id = o.order_id AND i.quantity > 3"
                + " WHERE o.user_id = 7";
        reduced(scans(sql, "order_items"), "WHERE (i.quantity > 3) AND (`i`.`order_id` IN (/* keys of orders.order_id");
        // the preserved side keeps every row; the null-supplied side still takes its ON's own conjunct
        String preserved = "SELECT i.item_id, o.status FROM order_items i LEFT JOIN orders o ON o.order_id = i.order_id AND o.user_id = 7";
        whole(scans(preserved, "order_items"));
        reduced(scans(preserved, "orders"), "WHERE (o.user_id = 7)");
    }

    @Test
    void notInNotExistsAnOrAndKeysOfOtherTypesKeepTheWholeScan() throws Exception {
        for (String sql : List.of(
                "SELECT i.item_id FROM order_items i WHERE i.order_id NOT IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7)",
                "SELECT i.item_id FROM order_items i WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = i.order_id AND o.user_id = 7)",
                "SELECT i.item_id FROM order_items i WHERE i.quantity > 4 OR i.order_id IN (SELECT o.order_id FROM orders o WHERE o.user_id = 7)",
                "SELECT o.order_id, i.item_id FROM orders o JOIN order_items i ON i.order_id = o.order_id OR i.quantity > 9 WHERE o.user_id = 7",
                // VARCHAR(32) against VARCHAR(16): IN would compare as the item's type, = by coercibility
                "SELECT o.order_id, i.item_id FROM orders o JOIN order_items i ON i.sku = o.status WHERE o.user_id = 7",
                // neither side narrowed: no key set is smaller than the table
                "SELECT COUNT(*) FROM orders o JOIN order_items i ON i.order_id = o.order_id")) {
            whole(scans(sql, "order_items"));
        }
    }

    @Test
    void aKeyThatIsTheShardingKeyGoesOnlyToTheNodesItRoutesTo() throws Exception {
        String sql = "SELECT s.id, o.order_id FROM small s JOIN orders o ON o.user_id = s.id WHERE s.id < 6";
        reduced(scans(sql, "orders"), "(`o`.`user_id` IN (/* keys of small.id");
        long matching = count("SELECT COUNT(*) FROM small WHERE id < 6") + count("SELECT COUNT(*) FROM orders WHERE user_id < 6");
        long shipped = shipped(SAMPLE.engine(), sql);
        assertTrue(shipped <= matching, shipped + " > " + matching);
        // user_id mod 4: keys 1..5 split over the four nodes, 1 and 5 to node 1 only
        TableRule.Sharded orders = (TableRule.Sharded) SAMPLE.engine().rule().table("orders");
        assertEquals(List.of(List.of(4L), List.of(1L, 5L), List.of(2L), List.of(3L)),
                JoinKeys.route(List.of(1L, 2L, 3L, 4L, 5L), orders, true, List.of(0, 1, 2, 3)));
        assertEquals(List.of(List.of(1L, 2L), List.of(1L, 2L)), JoinKeys.route(List.of(1L, 2L), orders, false, List.of(0, 3)));
    }

    @Test
    void aSourceWithMoreKeysThanTheBoundLeavesTheScanWholeAndZeroTurnsItOff() throws Exception {
        ShardingRule bounded = SampleData.rule(SAMPLE.target(), yaml -> yaml + "\nfederation: { joinKeys: 1 }\n");
        try (Engine engine = Engine.start(bounded)) {
            scans(engine, ITEMS_OF_USER_7, "order_items"); // still the placeholder: only running reads the keys; the answer is exact
            assertTrue(shipped(engine, ITEMS_OF_USER_7) > shipped(SAMPLE.engine(), ITEMS_OF_USER_7));
        }
        ShardingRule off = SampleData.rule(SAMPLE.target(), yaml -> yaml + "\nfederation: { joinKeys: 0 }\n");
        try (Engine engine = Engine.start(off)) {
            whole(scans(engine, ITEMS_OF_USER_7, "order_items"));
        }
    }
}
