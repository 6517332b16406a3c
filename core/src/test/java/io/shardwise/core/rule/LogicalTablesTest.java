package io.shardwise.core.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LogicalTablesTest {
    /** Two backends on one server; orders and its bound order_items split four ways, regions whole on the second. */
    private static final ShardingRule RULE = ShardingRule.load("""
            defaultBackend: s0
            schema: store
            tables:
              orders: { key: user_id, nodes: "s${0..1}.orders_${0..1}", algorithm: { type: mod } }
              order_items: { key: user_id, bindTo: orders }
              regions: { backend: s1 }
            backends:
              s0: { url: "jdbc:mysql://db:3306/store_a" }
              s1: { url: "jdbc:mysql://db:3306/store_b" }
            """, "catalog.yaml", Map.<String, String>of()::get);
    private static final LogicalTables TABLES = RULE.logicalTables();

    @Test
    void theRuleKeepsOneCatalog() {
        assertSame(TABLES, RULE.logicalTables());
    }

    @Test
    void firstNodesStandForTheirLogicalTablesPerBackendInTheConfigurationsOrder() {
        assertEquals(List.of("s0", "s1"), List.copyOf(TABLES.firstNodes().keySet()));
        assertEquals(Map.of("orders_0", "orders", "order_items_0", "order_items"), TABLES.firstNodes().get("s0"));
        assertEquals(List.of("orders_0", "order_items_0"), List.copyOf(TABLES.firstNodes().get("s0").keySet()));
        assertEquals(Map.of("regions", "regions"), TABLES.firstNodes().get("s1"));
    }

    @Test
    void everyRenamedNodeOfABackendMapsToItsLogicalTableAndSameNamedOnesAreLeftOut() {
        assertEquals("orders", TABLES.renamedOn("s1").get("orders_1"));
        assertEquals("order_items", TABLES.renamedOn("s1").get("order_items_0"));
        assertFalse(TABLES.renamedOn("s1").containsKey("regions"), "a node under its logical name needs no renaming");
        assertEquals(Map.of(), TABLES.renamedOn("nowhere"));
    }

    @Test
    void physicalTablesThatNodesClaimAreNeitherSingleNorDescribable() {
        assertFalse(TABLES.isSingleOnDefault("ORDERS_1"));
        assertFalse(TABLES.isSingleOnDefault("orders"), "a configured name is no single table");
        assertTrue(TABLES.isSingleOnDefault("legacy"));
        assertEquals(new DataNode("s0", "orders_0"), TABLES.describedBy("Orders"));
        assertEquals(new DataNode("s0", "legacy"), TABLES.describedBy("legacy"));
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> TABLES.describedBy("orders_1"));
        assertTrue(ErrorCode.NO_SUCH_TABLE.is(e.errno()));
    }

    @Test
    void matchingListsConfiguredAndSingleTablesByPatternInTheAskedOrder() {
        List<String> onDefault = List.of("orders_0", "orders_1", "legacy", "order_items_0", "Audit");
        assertEquals(List.of("order_items", "orders"), TABLES.matching("ord%", onDefault, LogicalTables.SHOW_ORDER));
        assertEquals(List.of("orders", "order_items"), TABLES.matching("ORD%", onDefault, LogicalTables.METADATA_ORDER));
        assertEquals(List.of("Audit", "legacy", "order_items", "orders", "regions"), TABLES.matching(null, onDefault, LogicalTables.SHOW_ORDER));
        assertEquals(List.of("order_items"), TABLES.matching(LogicalTables.escape("order_items"), onDefault, LogicalTables.SHOW_ORDER));
    }
}
