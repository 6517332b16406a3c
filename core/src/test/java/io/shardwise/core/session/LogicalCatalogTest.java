package io.shardwise.core.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rule.ShardingRule;
import org.junit.jupiter.api.Test;

class LogicalCatalogTest {
    @Test
    void physicalDatabasesAreReadFromTheUrlsDecodedAsTheBackendsSeeThem() {
        ShardingRule rule = ShardingRule.load("""
                schema: shop
                backends:
                  ds0: { url: "jdbc:mysql://127.0.0.1:3306/shop%5F0?sslMode=DISABLED", user: root, password: "" }
                  ds1: { url: "jdbc:mysql://127.0.0.1:3306/shop%5F1", user: root, password: "" }
                defaultBackend: ds0
                tables:
                  orders: { nodes: "ds${0..1}.orders", key: user_id, algorithm: { type: mod } }
                """, "test.yaml", name -> null);
        LogicalCatalog catalog = new LogicalCatalog(rule);
        assertTrue(catalog.isPhysicalDatabase("shop_0"), "the default backend's database, %5F decoded");
        assertFalse(catalog.isPhysicalDatabase("shop%5F0"), "the URL's spelling is not a database name");
    }
}
