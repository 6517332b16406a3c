package io.shardwise.core.rule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.ConfigProblem;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.config.InvalidConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardingRuleTest {
    private static final String HEAD = """
            schema: shop
            backends:
              ds0: { url: "jdbc:mysql://h:3306/shop_0" }
              ds1: { url: "jdbc:mysql://h:3306/shop_1" }
            defaultBackend: ds0
            tables:
              other: { backend: ds1 }
            """;

    private static ShardingRule rule(String tables) {
        return ShardingRule.load(HEAD + tables, "test.yaml", Map.<String, String>of()::get);
    }

    private static List<String> problems(String tables) {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> rule(tables));
        return e.problems().stream().map(ConfigProblem::toString).toList();
    }

    private static void assertOneProblem(String tables, String... fragments) {
        List<String> problems = problems(tables);
        assertEquals(1, problems.size(), problems::toString);
        for (String f : fragments) {
            assertTrue(problems.get(0).contains(f), () -> "'" + f + "' missing from " + problems.get(0));
        }
    }

    @Test
    void designLayoutRoutesUserIdModFourInNodeOrder() {
        ShardingRule rule = rule("""
                  orders: { nodes: "ds${0..1}.orders_${0..1}", key: user_id, algorithm: { type: mod }, generate: { column: order_id, type: snowflake } }
                  order_items: { bindTo: orders, key: user_id }
                """);
        TableRule.Sharded orders = assertInstanceOf(TableRule.Sharded.class, rule.table("orders"));
        assertEquals(new DataNode("ds0", "orders_0"), orders.nodeFor(4L));
        assertEquals(new DataNode("ds0", "orders_1"), orders.nodeFor(5L));
        assertEquals(new DataNode("ds1", "orders_0"), orders.nodeFor(6L));
        assertEquals(new DataNode("ds1", "orders_1"), orders.nodeFor(7L));
        assertEquals("order_id", orders.generatedKey().column());
        assertInstanceOf(Long.class, orders.generatedKey().generator().next());

        TableRule.Sharded items = assertInstanceOf(TableRule.Sharded.class, rule.table("ORDER_ITEMS"));
        assertSame(orders.algorithm(), items.algorithm(), "a bound table shares its root's algorithm");
        assertTrue(items.isBoundTo(orders));
        assertEquals(new DataNode("ds1", "order_items_1"), items.nodeFor(7L));
    }

    @Test
    void aBoundTableListedAboveItsRootIsStillBoundNeverSingle() {
        ShardingRule rule = rule("""
                  order_items: { bindTo: orders, key: user_id }
                  orders: { nodes: "ds${0..1}.orders_${0..1}", key: user_id, algorithm: mod }
                """);
        TableRule.Sharded items = assertInstanceOf(TableRule.Sharded.class, rule.table("order_items"));
        assertEquals(new DataNode("ds1", "order_items_0"), items.nodeFor(6L));
        assertEquals(List.of("other", "order_items", "orders"), rule.tables().stream().map(TableRule::name).toList());
    }

    @Test
    void emptyPropertyValuesAreReportedNotCrashed() {
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: range, boundaries: } }\n",
                "tables.t.algorithm.boundaries", "missing; expected 1 ascending numbers");
        assertOneProblem("  t: { generate: { column: id, type: uuid, version: } }\n", "tables.t.generate.version", "expected 4 (random) or 7");
    }

    @Test
    void numbersMayBeQuotedOrComeFromTheEnvironment() {
        ShardingRule rule = ShardingRule.load(HEAD + """
                  t: { generate: { column: id, type: snowflake, workerId: "${env:WORKER:-5}" } }
                  e: { nodes: "ds0.e_${1..2}", key: at, algorithm: { type: interval, unit: month, from: 2025-01-01, amount: "6" } }
                """, "test.yaml", Map.of("WORKER", "9")::get);
        assertEquals(9, SnowflakeKeyGenerator.workerOf((Long) rule.table("t").generatedKey().generator().next()));
        assertEquals(new DataNode("ds0", "e_2"), ((TableRule.Sharded) rule.table("e")).nodeFor("2025-07-01"));
    }

    @Test
    void aSnowflakeEpochInTheFutureIsRejected() {
        assertOneProblem("  t: { generate: { column: id, type: snowflake, epoch: 2999-01-01 } }\n",
                "tables.t.generate.epoch", "'2999-01-01' is in the future");
    }

    @Test
    void tablesTheConfigurationDoesNotNameAreSingleOnTheDefaultBackend() {
        ShardingRule rule = rule("  t: { broadcast: true }\n");
        assertFalse(rule.isConfigured("legacy"));
        assertEquals(new TableRule.Single("legacy", new DataNode("ds0", "legacy"), null), rule.table("legacy"));
        TableRule.Broadcast t = assertInstanceOf(TableRule.Broadcast.class, rule.table("t"));
        assertEquals(2, t.nodes().size());
        assertNull(t.generatedKey());
    }

    @Test
    void unknownAlgorithmTypeSuggestsAKnownOne() {
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: hsah } }\n",
                "tables.t.algorithm.type (line 8)", "'hsah' is not an algorithm type. Did you mean 'hash'?",
                "Known: hash, interval, last-digit, mod, range");
    }

    @Test
    void unknownAlgorithmPropertiesAreRejected() {
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: mod, count: 4 } }\n",
                "tables.t.algorithm.count", "unknown property 'count' for algorithm type mod", "Valid: type");
        List<String> p = problems("  t: { nodes: \"ds${0..1}.t_${0..1}\", key: id, algorithm: { type: range, boundary: [1, 2, 3] } }\n");
        assertEquals(2, p.size(), p::toString);
        assertTrue(p.get(0).contains("unknown property 'boundary'") && p.get(0).contains("Did you mean 'boundaries'?"), p::toString);
        assertTrue(p.get(1).contains("tables.t.algorithm.boundaries") && p.get(1).contains("missing; expected 3 ascending numbers"), p::toString);
    }

    @Test
    void rangeBoundariesMustBeOneFewerThanNodesAndAscend() {
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: range, boundaries: [10, 20] } }\n",
                "tables.t.algorithm.boundaries", "[10, 20] has 2 boundaries, but table 't' has 2 nodes; expected 1");
        assertOneProblem("  t: { nodes: \"ds${0..1}.t_${0..1}\", key: id, algorithm: { type: range, boundaries: [10, 30, 20] } }\n",
                "not strictly ascending at 20");
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: range } }\n",
                "boundaries", "missing; expected 1 ascending numbers");
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: range, boundaries: [ten] } }\n",
                "'ten' is not a number");
        ShardingRule ok = rule("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: range, boundaries: [1000] } }\n");
        assertEquals(new DataNode("ds1", "t"), ((TableRule.Sharded) ok.table("t")).nodeFor(1000L));
    }

    @Test
    void intervalNeedsAUnitAndAStart() {
        List<String> p = problems("  e: { nodes: \"ds0.e_${1..2}\", key: at, algorithm: { type: interval, unit: week } }\n");
        assertEquals(2, p.size(), p::toString);
        assertTrue(p.get(0).contains("tables.e.algorithm.unit") && p.get(0).contains("'week' is not a unit; expected day, month or year"), p::toString);
        assertTrue(p.get(1).contains("tables.e.algorithm.from") && p.get(1).contains("missing"), p::toString);
        assertOneProblem("  e: { nodes: \"ds0.e_${1..2}\", key: at, algorithm: { type: interval, unit: day, from: yesterday } }\n",
                "'yesterday' is not a date");
        assertOneProblem("  e: { nodes: \"ds0.e_${1..2}\", key: at, algorithm: { type: interval, unit: day, from: 2025-01-01, amount: 0 } }\n",
                "tables.e.algorithm.amount", "expected a whole number of units from 1");
    }

    @Test
    void keyGeneratorMistakesAreReported() {
        assertOneProblem("  t: { generate: { column: id, type: snowflak } }\n",
                "tables.t.generate.type", "'snowflak' is not a key generator type. Did you mean 'snowflake'?");
        assertOneProblem("  t: { generate: { column: id, type: snowflake, workerId: 2000 } }\n",
                "tables.t.generate.workerId", "'2000' is not a worker id; expected 0 to 1023");
        assertOneProblem("  t: { generate: { column: id, type: uuid, version: 5 } }\n", "expected 4 (random) or 7");
        assertOneProblem("  t: { generate: { column: id, type: uuid, worker: 5 } }\n", "unknown property 'worker' for key generator uuid");
        ShardingRule ok = rule("  t: { generate: { column: id, type: snowflake, workerId: 7, epoch: 2020-01-01 } }\n");
        long id = (Long) ok.table("t").generatedKey().generator().next();
        assertEquals(7, SnowflakeKeyGenerator.workerOf(id));
    }

    @Test
    void structuralAndAlgorithmMistakesArriveTogether() {
        List<String> p = problems("""
                  t: { nodes: "ds${0..1}.t", key: id, algorithm: { type: range, boundaries: [1, 2] } }
                  u: { nodes: "ds${0..1}.u", key: id, algoritm: mod }
                """);
        assertEquals(3, p.size(), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("unknown key 'algoritm'")), p::toString);
        assertTrue(p.stream().anyMatch(s -> s.contains("has 2 boundaries")), p::toString);
    }

    @Test
    void customAlgorithmsPlugInThroughServiceLoader() {
        ShardingRule rule = rule("  t: { nodes: \"ds${0..1}.t_${0..4}\", key: id, algorithm: { type: last-digit, offset: 1 } }\n");
        TableRule.Sharded t = (TableRule.Sharded) rule.table("t");
        assertEquals(new DataNode("ds1", "t_0"), t.nodeFor(4L));
        assertOneProblem("  t: { nodes: \"ds${0..1}.t\", key: id, algorithm: { type: last-digit } }\n",
                "last-digit needs exactly 10 nodes, table 't' has 2");
    }

    @Test
    void loadsFromAFileAndReportsAnUnreadableOne(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shardwise.yaml");
        Files.writeString(file, HEAD + "  countries: { broadcast: true }\n");
        assertInstanceOf(TableRule.Broadcast.class, ShardingRule.load(file, Map.<String, String>of()::get).table("countries"));
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> ShardingRule.load(dir.resolve("missing.yaml")));
        assertTrue(e.getMessage().contains("cannot read"), e.getMessage());
    }
}
