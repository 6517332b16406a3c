package io.shardwise.core.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.ConfigLoader;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.config.ShardwiseConfig;
import io.shardwise.core.config.UserConfig;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.SnowflakeKeyGenerator;
import io.shardwise.core.rule.TableRule;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SampleConfigTest {
    private static final String OPTIONS = "?sslMode=DISABLED&allowPublicKeyRetrieval=true&createDatabaseIfNotExist=true";
    private static final SampleTarget TARGET = new SampleTarget("db.example", 4406, "loader", "pw&=x", "pfx_7");

    @Test
    void sampleConfigurationParsesWithNoProblems() {
        ConfigLoader.Result result = new ConfigLoader(name -> null).parse(SampleData.configYaml(), "shop.yaml");
        assertEquals(List.of(), result.problems());
        assertNotNull(result.config());
    }

    @Test
    void withoutEnvironmentTheBackendsAreTwoDatabasesOnLocalMysql() {
        ShardwiseConfig config = ShardingRule.load(SampleData.configYaml(), "shop.yaml", name -> null).config();
        assertEquals("shop", config.schema());
        assertEquals("ds0", config.defaultBackend());
        BackendConfig ds0 = config.backends().get("ds0");
        BackendConfig ds1 = config.backends().get("ds1");
        assertEquals("jdbc:mysql://127.0.0.1:3306/shop_0" + OPTIONS, ds0.url());
        assertEquals("jdbc:mysql://127.0.0.1:3306/shop_1" + OPTIONS, ds1.url());
        assertEquals(List.of("root", ""), List.of(ds0.user(), ds0.password()));
        assertEquals(List.of("root", ""), List.of(ds1.user(), ds1.password()));
    }

    @Test
    void ruleTakesServerCredentialsAndDatabasesFromTheTargetNotTheProcessEnvironment() {
        ShardwiseConfig config = SampleData.rule(TARGET).config();
        assertEquals("jdbc:mysql://db.example:4406/pfx_7_0" + OPTIONS, config.backends().get("ds0").url());
        assertEquals("jdbc:mysql://db.example:4406/pfx_7_1" + OPTIONS, config.backends().get("ds1").url());
        for (BackendConfig b : config.backends().values()) {
            assertEquals("loader", b.user());
            assertEquals("pw&=x", b.password());
        }
    }

    @Test
    void ipv6HostsAreBracketedInTheUrls() {
        SampleTarget v6 = new SampleTarget("::1", 3306, "root", "", "p");
        assertEquals("jdbc:mysql://[::1]:3306/p_0" + OPTIONS, SampleData.rule(v6).config().backends().get("ds0").url());
    }

    @Test
    void serverSectionDefinesTheAppUserOnPort3307() {
        ShardwiseConfig config = SampleData.rule(TARGET).config();
        assertEquals(3307, config.server().port());
        assertEquals(1, config.server().users().size());
        UserConfig app = config.server().users().getFirst();
        assertEquals(List.of("app", "app", List.of("shop")), List.of(app.name(), app.password(), app.schemas()));
    }

    @Test
    void ordersAreShardedOverFourNodesByUserIdWithSnowflakeOrderIds() {
        TableRule.Sharded orders = assertInstanceOf(TableRule.Sharded.class, SampleData.rule(TARGET).table("orders"));
        assertEquals(nodes("ds0.orders_0", "ds0.orders_1", "ds1.orders_0", "ds1.orders_1"), orders.nodes());
        assertEquals("user_id", orders.keyColumn());
        assertEquals(new DataNode("ds1", "orders_1"), orders.nodeFor(7L)); // 7 mod 4 = 3
        assertEquals(new DataNode("ds1", "orders_1"), orders.nodeFor(-1L)); // floor mod
        assertEquals("order_id", orders.generatedKey().column());
        assertInstanceOf(SnowflakeKeyGenerator.class, orders.generatedKey().generator());
    }

    @Test
    void orderItemsAndUsersAreBoundToOrders() {
        ShardingRule rule = SampleData.rule(TARGET);
        TableRule.Sharded orders = (TableRule.Sharded) rule.table("orders");
        for (String name : List.of("order_items", "users")) {
            TableRule.Sharded bound = assertInstanceOf(TableRule.Sharded.class, rule.table(name));
            assertTrue(bound.isBoundTo(orders), name);
            assertEquals("user_id", bound.keyColumn());
            assertEquals(nodes("ds0." + name + "_0", "ds0." + name + "_1", "ds1." + name + "_0", "ds1." + name + "_1"),
                    bound.nodes());
            for (long key : new long[] {-1000, -1, 0, 1, 2, 3, Long.MAX_VALUE}) {
                assertEquals(orders.nodes().indexOf(orders.nodeFor(key)), bound.nodes().indexOf(bound.nodeFor(key)));
            }
        }
    }

    @Test
    void countriesAreBroadcastAndPromotionsLiveOnDs1() {
        ShardingRule rule = SampleData.rule(TARGET);
        TableRule.Broadcast countries = assertInstanceOf(TableRule.Broadcast.class, rule.table("countries"));
        assertEquals(nodes("ds0.countries", "ds1.countries"), countries.nodes());
        TableRule.Single promotions = assertInstanceOf(TableRule.Single.class, rule.table("promotions"));
        assertEquals(new DataNode("ds1", "promotions"), promotions.node());
    }

    @Test
    void eventsHaveOneTablePerYearOnDs0() {
        TableRule.Sharded events = assertInstanceOf(TableRule.Sharded.class, SampleData.rule(TARGET).table("events"));
        assertEquals(nodes("ds0.events_2025", "ds0.events_2026"), events.nodes());
        assertEquals("created_at", events.keyColumn());
        assertEquals(new DataNode("ds0", "events_2025"), events.nodeFor("2025-12-31 23:59:59"));
        assertEquals(new DataNode("ds0", "events_2026"), events.nodeFor("2026-01-01 00:00:00"));
    }

    @Test
    void benchmarkTablesAreShardedOverBothBackendsByIdUnderTheirOwnNames() {
        ShardingRule rule = SampleData.rule(TARGET);
        for (String name : List.of("sbtest1", "sbtest2", "sbtest3", "sbtest4", "small")) {
            TableRule.Sharded t = assertInstanceOf(TableRule.Sharded.class, rule.table(name), name);
            assertEquals(nodes("ds0." + name, "ds1." + name), t.nodes());
            assertEquals("id", t.keyColumn());
        }
        TableRule.Sharded small = (TableRule.Sharded) rule.table("small");
        assertEquals(List.of("ds1", "ds0", "ds1"), List.of(small.nodeFor(1L).backend(), small.nodeFor(2L).backend(),
                small.nodeFor(3L).backend()));
    }

    @Test
    void theConfigurationNamesExactlyTheSampleTables() {
        List<String> configured = new ArrayList<>();
        SampleData.rule(TARGET).tables().forEach(t -> configured.add(t.name()));
        List<String> generated = SampleData.tables().stream().map(SampleTable::name).toList();
        assertEquals(new java.util.TreeSet<>(configured), new java.util.TreeSet<>(generated));
    }

    @Test
    void targetsNeverPrintTheirPassword() {
        assertFalse(TARGET.toString().contains("pw&=x"), TARGET.toString());
        assertFalse(SampleData.rule(TARGET).config().backends().get("ds0").toString().contains("pw&=x"));
    }

    private static List<DataNode> nodes(String... names) {
        List<DataNode> nodes = new ArrayList<>();
        for (String n : names) {
            int dot = n.indexOf('.');
            nodes.add(new DataNode(n.substring(0, dot), n.substring(dot + 1)));
        }
        return nodes;
    }
}
