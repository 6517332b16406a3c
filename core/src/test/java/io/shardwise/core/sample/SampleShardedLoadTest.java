package io.shardwise.core.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A sharded load on a real server, read back with plain JDBC and checked against the rule. */
class SampleShardedLoadTest {
    private static MysqlServer server;
    private static ShardingRule rule;
    private static SampleData.LoadReport report;

    @BeforeAll
    static void load() {
        server = TestBackends.shared();
        rule = SampleData.rule(SampleDb.target(server, TestBackends.uniqueSchemaName("sample_sharded")));
        long start = System.nanoTime();
        report = SampleData.loadSharded(rule);
        System.out.printf("[sample] loadSharded of %d rows into %d physical tables took %d ms%n",
                report.rowsPerPhysicalTable().values().stream().mapToLong(Long::longValue).sum(),
                report.rowsPerPhysicalTable().size(), (System.nanoTime() - start) / 1_000_000);
    }

    @AfterAll
    static void drop() {
        if (rule != null) {
            SampleDb.dropDatabases(server, SampleDb.database(rule, "ds0"), SampleDb.database(rule, "ds1"));
        }
    }

    @Test
    void everyPhysicalTableHoldsOnlyRowsWhoseKeyMapsToIt() {
        for (SampleTable table : SampleData.tables()) {
            if (!(rule.table(table.name()) instanceof TableRule.Sharded sharded)) {
                continue;
            }
            int total = 0;
            for (DataNode node : sharded.nodes()) {
                List<List<Object>> rows = read(node, List.of(sharded.keyColumn()));
                for (List<Object> row : rows) {
                    assertEquals(sharded.nodeFor(row.getFirst()), node,
                            table.name() + " row with " + sharded.keyColumn() + " = " + row.getFirst() + " is on " + node);
                }
                total += rows.size();
            }
            assertEquals(table.rows().size(), total, "rows of " + table.name() + " over all its nodes");
        }
    }

    @Test
    void orderItemsAndUsersShareANodeWithTheirOrders() {
        TableRule.Sharded orders = (TableRule.Sharded) rule.table("orders");
        TableRule.Sharded items = (TableRule.Sharded) rule.table("order_items");
        for (int i = 0; i < orders.nodes().size(); i++) {
            DataNode o = orders.nodes().get(i);
            DataNode it = items.nodes().get(i);
            assertEquals(o.backend(), it.backend());
            long itemsWithoutLocalOrder = SampleDb.longQuery(server, database(o), "SELECT COUNT(*) FROM `" + it.table()
                    + "` i LEFT JOIN `" + o.table() + "` o ON o.order_id = i.order_id WHERE o.order_id IS NULL");
            assertEquals(0, itemsWithoutLocalOrder, "items on " + it + " whose order is not on " + o);
            assertTrue(SampleDb.count(server, database(it), it.table()) > 0, it + " is empty");
        }
    }

    @Test
    void broadcastTableIsIdenticalOnEveryBackend() {
        SampleTable countries = table("countries");
        List<DataNode> nodes = rule.table("countries").nodes();
        assertEquals(Set.of("ds0", "ds1"), backendsOf(nodes));
        for (DataNode node : nodes) {
            SampleDb.assertSameRows(countries.rows(), read(node, countries.columns()), "countries on " + node);
        }
    }

    @Test
    void singleTableExistsOnlyOnItsBackend() {
        SampleTable promotions = table("promotions");
        assertTrue(SampleDb.tables(server, database("ds1")).contains("promotions"));
        assertFalse(SampleDb.tables(server, database("ds0")).contains("promotions"));
        SampleDb.assertSameRows(promotions.rows(), read(new DataNode("ds1", "promotions"), promotions.columns()), "promotions");
    }

    @Test
    void backendsHoldExactlyThePhysicalTablesTheRuleNames() {
        Map<String, Set<String>> expected = new LinkedHashMap<>();
        for (SampleTable t : SampleData.tables()) {
            for (DataNode node : rule.table(t.name()).nodes()) {
                expected.computeIfAbsent(node.backend(), b -> new TreeSet<>()).add(node.table());
            }
        }
        for (String backend : List.of("ds0", "ds1")) {
            assertEquals(expected.get(backend), SampleDb.tables(server, database(backend)), backend);
        }
        assertEquals(new TreeSet<>(physicalNames(expected)), new TreeSet<>(report.rowsPerPhysicalTable().keySet()));
    }

    @Test
    void reportCountsMatchSelectCount() {
        report.rowsPerPhysicalTable().forEach((physical, rows) -> {
            int dot = physical.indexOf('.');
            DataNode node = new DataNode(physical.substring(0, dot), physical.substring(dot + 1));
            assertEquals(rows, SampleDb.count(server, database(node), node.table()), physical);
        });
        for (SampleTable t : SampleData.tables()) {
            long logical = report.rowsPerLogicalTable().get(t.name());
            assertEquals(t.rows().size(), logical, t.name());
            long counted = 0;
            for (DataNode node : rule.table(t.name()).nodes()) {
                counted += SampleDb.count(server, database(node), node.table());
            }
            long copies = rule.table(t.name()) instanceof TableRule.Broadcast b ? b.nodes().size() : 1;
            assertEquals(logical * copies, counted, "COUNT(*) over the physical tables of " + t.name());
        }
        assertEquals(SampleData.tables().stream().map(SampleTable::name).toList(),
                new ArrayList<>(report.rowsPerLogicalTable().keySet()), "logical tables in sample order");
    }

    @Test
    void benchmarkTablesKeepTheirUpstreamSchemas() {
        String ds0 = database("ds0");
        assertEquals("MEMORY", SampleDb.stringQuery(server, ds0,
                "SELECT engine FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = 'small'"));
        assertEquals("k", SampleDb.stringQuery(server, ds0, "SELECT column_name FROM information_schema.statistics"
                + " WHERE table_schema = DATABASE() AND table_name = 'sbtest1' AND index_name = 'k_1'"));
        assertEquals("auto_increment", SampleDb.stringQuery(server, ds0, "SELECT extra FROM information_schema.columns"
                + " WHERE table_schema = DATABASE() AND table_name = 'sbtest1' AND column_name = 'id'"));
    }

    @Test
    void loadingAgainReplacesTheTablesInsteadOfAddingRows() throws SQLException {
        DataNode node = new DataNode("ds0", "orders_0");
        try (Connection c = server.connect(database(node)); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO orders_0 (order_id, user_id, created_at) VALUES (1, 4, '2025-01-01')");
        }
        SampleData.LoadReport again = SampleData.loadSharded(rule);
        assertEquals(report, again);
        assertEquals(report.rowsPerPhysicalTable().get("ds0.orders_0"), SampleDb.count(server, database(node), "orders_0"));
        assertEquals(0, SampleDb.longQuery(server, database(node), "SELECT COUNT(*) FROM orders_0 WHERE order_id = 1"));
    }

    private static List<List<Object>> read(DataNode node, List<String> columns) {
        return SampleDb.rows(server, database(node), node.table(), columns);
    }

    private static String database(DataNode node) {
        return database(node.backend());
    }

    private static String database(String backend) {
        return SampleDb.database(rule, backend);
    }

    private static SampleTable table(String name) {
        return SampleData.tables().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static Set<String> backendsOf(List<DataNode> nodes) {
        Set<String> backends = new TreeSet<>();
        nodes.forEach(n -> backends.add(n.backend()));
        return backends;
    }

    private static List<String> physicalNames(Map<String, Set<String>> byBackend) {
        List<String> names = new ArrayList<>();
        byBackend.forEach((backend, tables) -> tables.forEach(t -> names.add(backend + "." + t)));
        return names;
    }
}
