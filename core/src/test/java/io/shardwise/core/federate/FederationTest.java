package io.shardwise.core.federate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.route.Bindings;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.Select;
import java.util.List;
import org.junit.jupiter.api.Test;

class FederationTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);

    private static Federation.Decision plan(String sql) {
        return Federation.plan((Select) ANALYZER.analyze(sql), RULE);
    }

    private static FederatedPlan federated(String sql) {
        return assertInstanceOf(FederatedPlan.class, plan(sql));
    }

    @Test
    void derivedTableCopiesTheShardedTableLocalNodesThereRemoteNodesShipped() {
        assertEquals("""
                FEDERATED on ds0
                  copy orders -> orders (like orders_0)
                    local orders_0
                    local orders_1
                    ship ds1.orders_0
                    ship ds1.orders_1""", federated("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t").explain());
    }

    @Test
    void eachTableIsCopiedOnceHoweverOftenTheStatementNamesIt() {
        FederatedPlan p = federated("SELECT * FROM orders WHERE user_id IN (SELECT user_id FROM orders o2 WHERE o2.amount > 5)"
                + " UNION SELECT * FROM orders");
        assertEquals(1, p.copies().size());
    }

    @Test
    void broadcastTablesAreReadInPlaceAndCopiesTakeTheLogicalNameSoTheTextStaysTheUsers() {
        FederatedPlan p = federated("SELECT name FROM users UNION SELECT name FROM countries");
        assertEquals(List.of("users"), p.copies().stream().map(FederatedPlan.Copy::table).toList());
        assertEquals("users", p.copies().get(0).temp());
        assertEquals(java.util.Map.of(), p.names());
        assertEquals("users", p.logical().get("users"));
    }

    @Test
    void aTableWhoseNodeHasItsLogicalNameIsCopiedUnderAPrefixedName() {
        FederatedPlan p = federated("SELECT s.id FROM sbtest1 s JOIN orders o ON o.order_id = s.k");
        assertEquals("shardwise_fed_sbtest1", p.names().get("sbtest1"));
        assertEquals("sbtest1", p.logical().get("shardwise_fed_sbtest1"));
        assertEquals(null, p.names().get("orders"));
    }

    @Test
    void aSchemaQualifiedNameIsRewritten() {
        assertEquals("orders", federated("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM shop.orders) t").names().get("orders"));
    }

    @Test
    void aSingleTableMakesItsBackendTheCoordinator() {
        FederatedPlan p = federated("SELECT p.code FROM orders o JOIN promotions p ON o.amount > p.discount");
        assertEquals("ds1", p.coordinator());
        FederatedPlan.Copy orders = p.copies().get(0);
        assertEquals(List.of("orders_0", "orders_1"), orders.local());
        assertEquals("ds0", orders.remote().get(0).backend());
    }

    @Test
    void aLockingReadIsPlannedAndItsCopiesRepeatItsClause() {
        federated("SELECT * FROM orders WHERE user_id IN (SELECT user_id FROM users) FOR UPDATE");
        assertEquals(" FOR UPDATE", Federation.lockClause("select * from orders where user_id in (select user_id from users) for update"));
        assertEquals(" LOCK IN SHARE MODE", Federation.lockClause("select * from t for share"));
        assertEquals(" LOCK IN SHARE MODE SKIP LOCKED", Federation.lockClause("select * from t lock in share mode skip locked"));
        assertEquals(" FOR UPDATE NOWAIT", Federation.lockClause("select * from (select * from t for share) d for update nowait"));
        assertEquals("", Federation.lockClause("select * from t"));
    }

    @Test
    void aLockingClauseNamingTablesLocksOnlyTheSourceRowsOfTheTablesItNames() {
        String sql = "SELECT * FROM orders o JOIN sbtest1 ON sbtest1.id = o.order_id FOR SHARE OF `sbtest1` FOR UPDATE OF o, x NOWAIT";
        FederatedPlan p = federated(sql);
        String text = ((Select) ANALYZER.analyze(sql)).template().text();
        assertTrue(Federation.namesLockedTables(text));
        assertEquals(" FOR UPDATE NOWAIT", Federation.lockClause(text, java.util.Set.of("orders", "o")));
        assertEquals(" LOCK IN SHARE MODE", Federation.lockClause(text, java.util.Set.of("sbtest1")));
        assertEquals("", Federation.lockClause(text, java.util.Set.of("users")));
        assertEquals(java.util.Set.of("orders", "o"), Federation.calledBy((Select) ANALYZER.analyze(sql), "orders"));
        assertEquals(List.of("sbtest1", "o", "x"), Federation.lockedNames(text).stream().map(Federation.LockedName::name).toList());
        assertEquals("`sbtest1`", text.substring(Federation.lockedNames(text).get(0).start(), Federation.lockedNames(text).get(0).end()));
        assertEquals(2, p.copies().size());
        assertEquals(" FOR UPDATE", Federation.lockClause("select * from t for update", java.util.Set.of("u")), "no OF: every table");
    }

    @Test
    void aCopyOfATableWithALongNameGetsAShortenedNameNotARefusal() {
        String name = "t".repeat(60);
        String yaml = String.join("\n", "schema: s", "backends:",
                "  ds0: { url: \"jdbc:mysql://127.0.0.1:3306/s_0\", user: root, password: \"\" }",
                "  ds1: { url: \"jdbc:mysql://127.0.0.1:3306/s_1\", user: root, password: \"\" }",
                "defaultBackend: ds0", "tables:", "  " + name + ": { nodes: \"ds${0..1}." + name + "\", key: id, algorithm: { type: mod } }", "");
        ShardingRule rule = ShardingRule.load(yaml, "long", k -> null);
        String temp = Federation.tempName(rule.logicalTables().served(name));
        assertEquals(64, temp.length());
        assertTrue(temp.startsWith(Federation.TEMP_PREFIX + "tttt"), temp);
        assertEquals("shardwise_fed_sbtest1", Federation.fit("shardwise_fed_sbtest1"));
        FederatedPlan p = assertInstanceOf(FederatedPlan.class, Federation.plan((Select) new Analyzer(rule).analyze(
                "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM " + name), rule));
        assertEquals(temp, p.copies().getFirst().temp());
    }

    @Test
    void aSetOperationsLabelsComeFromItsFirstBranchAndAWithsFromItsBody() {
        for (String sql : List.of("SELECT (SELECT COUNT(*) FROM sbtest1), 1 + 1, k AS kk, k FROM sbtest1 UNION SELECT 1, 2, 3, 4",
                "(SELECT (SELECT COUNT(*) FROM sbtest1), 1 + 1, k AS kk, k FROM sbtest1) UNION ALL (SELECT 1, 2, 3, 4) ORDER BY 1",
                "WITH w AS (SELECT k FROM sbtest1) SELECT (SELECT COUNT(*) FROM sbtest1), 1 + 1, k AS kk, k FROM w")) {
            Select s = (Select) ANALYZER.analyze(sql);
            FederatedPlan p = federated(sql);
            assertEquals(1, p.labels().size(), sql);
            assertEquals("(SELECT COUNT(*) FROM sbtest1)", s.template().text().substring(p.labels().get(0).start(), p.labels().get(0).end()),
                    sql);
        }
    }

    @Test
    void aShardedTableWithNoNodeOnTheCoordinatorIsCopiedFromTheDefinitionOfItsFirstNode() {
        FederatedPlan p = federated("SELECT e.id FROM events e JOIN promotions p ON p.id = e.id");
        assertEquals("""
                FEDERATED on ds1
                  copy events -> events (as ds0.events_2025)
                    ship ds0.events_2025
                    ship ds0.events_2026""", p.explain());
    }

    @Test
    void aCopyFromAnotherBackendsDefinitionKeepsEveryColumnAndTakesOnlyQualifiedConjuncts() {
        FederatedPlan p = federated("SELECT e.id FROM events e JOIN promotions p ON p.id = e.id WHERE e.id < 9 AND kind = 'a'");
        FederatedPlan.Copy events = p.copies().get(0);
        assertEquals(null, events.like());
        assertTrue(events.push().whole(), "its columns are in no catalog of the coordinator");
        assertEquals(List.of("e.id < 9"), events.push().conjuncts().stream().map(io.shardwise.core.sql.analyze.CopyScope.Conjunct::text).toList());
        assertEquals(List.of(), CopyScans.catalogTables(p), "nothing to read from the coordinator's catalog");
        CopyScans.Bound b = CopyScans.bind(events, java.util.Map.of(), io.shardwise.core.route.Bindings.NONE);
        assertEquals(null, b.columns());
        assertEquals(1, b.pushed().size());
    }

    @Test
    void theCoordinatorHoldsMostOfTheStatementsTablesTiesGoToASingleTablesBackendThenTheDefault() {
        ShardingRule spread = ShardingRule.load("""
                schema: s
                backends:
                  ds0: { url: "jdbc:mysql://h/s0", user: u, password: "" }
                  ds1: { url: "jdbc:mysql://h/s1", user: u, password: "" }
                  ds2: { url: "jdbc:mysql://h/s2", user: u, password: "" }
                defaultBackend: ds0
                tables:
                  t: { nodes: "ds${1..2}.t", key: id, algorithm: { type: mod } }
                  far: { backend: ds2 }
                  near: { backend: ds0 }
                  c: { broadcast: true }
                """, "spread", name -> null);
        Analyzer analyzer = new Analyzer(spread);
        java.util.function.Function<String, FederatedPlan> on = sql ->
                assertInstanceOf(FederatedPlan.class, Federation.plan((Select) analyzer.analyze(sql), spread));
        // no table on the default backend: the first backend of the most
        assertEquals("ds1", on.apply("SELECT COUNT(*) FROM (SELECT DISTINCT v FROM t) x").coordinator());
        // a single table outweighs half a sharded one; t has no node there, so its copy is made from ds1.t's definition
        FederatedPlan near = on.apply("SELECT near.id FROM near JOIN t ON t.v = near.id");
        assertEquals("ds0", near.coordinator());
        assertEquals(new io.shardwise.core.config.DataNode("ds1", "t"), near.copies().get(0).definition());
        // two single tables on two backends: the first one's backend; the other is copied (shipped whole from its backend)
        FederatedPlan both = on.apply("SELECT near.id FROM near JOIN far ON far.id = near.id");
        assertEquals("ds0", both.coordinator());
        assertEquals(FederatedPlan.Push.NONE, both.copies().get(0).push(), "a single table from elsewhere is copied whole");
        assertEquals("""
                FEDERATED on ds0
                  copy far -> shardwise_fed_far (as ds2.far)
                    ship ds2.far""", both.explain());
        assertEquals("shardwise_fed_far", both.names().get("far"));
        // far and half of t on ds2 outweigh near
        assertEquals("ds2", on.apply("SELECT near.id FROM near JOIN far ON far.id = near.id JOIN t ON t.v = far.id JOIN c ON c.id = t.id")
                .coordinator());
    }

    @Test
    void aTableOfAnotherSchemaIsReadInPlaceOnTheDefaultBackendWhichCoordinates() {
        FederatedPlan p = federated("SELECT COUNT(*) FROM promotions WHERE code IN (SELECT name FROM otherdb.statuses)"
                + " AND id IN (SELECT user_id FROM orders)");
        assertEquals("ds0", p.coordinator());
        assertEquals(List.of("promotions", "orders"), p.copies().stream().map(FederatedPlan.Copy::table).toList());
        assertEquals(null, p.names().get("statuses"));
    }

    @Test
    void aCopyFromAnotherBackendsDefinitionKeepsColumnsKeysAndOptionsAndDropsForeignKeysAndPartitions() {
        FederatedPlan.Copy c = new FederatedPlan.Copy("t", "shardwise_fed_t", null, List.of(), List.of(),
                new io.shardwise.core.config.DataNode("ds1", "t_0"));
        assertEquals("SHOW CREATE TABLE `t_0`", CopyTexts.showCreate(c.definition()));
        assertEquals("""
                CREATE TEMPORARY TABLE `shardwise_fed_t` (
                  `id` int(11) NOT NULL,
                  `pid` int(11) DEFAULT NULL,
                  PRIMARY KEY (`id`),
                  KEY `fk_p` (`pid`)
                ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci""", CopyTexts.createFrom(c, """
                CREATE TABLE `t_0` (
                  `id` int(11) NOT NULL,
                  `pid` int(11) DEFAULT NULL,
                  PRIMARY KEY (`id`),
                  KEY `fk_p` (`pid`),
                  CONSTRAINT `fk_p` FOREIGN KEY (`pid`) REFERENCES `p` (`id`)
                ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
                 PARTITION BY HASH (`id`)
                PARTITIONS 2"""));
        assertEquals("CREATE TEMPORARY TABLE `shardwise_fed_t` (\n  `a``b` int\n)",
                CopyTexts.createFrom(c, "CREATE TABLE `x``y` (\n  `a``b` int\n)"));
        assertEquals(ErrorCode.UNSUPPORTED, assertThrows(ShardwiseException.class,
                () -> CopyTexts.createFrom(c, "CREATE ALGORITHM=UNDEFINED VIEW `t_0` AS select 1")).code());
    }

    @Test
    void theStatementRunsAsWrittenWithPrefixedCopiesAndTheirQualifiersRenamed() {
        String sql = "SELECT sbtest1.k, (SELECT COUNT(*) FROM orders o WHERE o.order_id = sbtest1.id) n"
                + " FROM sbtest1 WHERE c = c";
        Select s = (Select) ANALYZER.analyze(sql);
        FederatedPlan p = federated(sql);
        String rendered = Renderer.render(s.template(), p.names(), Bindings.NONE, List.of()).sql();
        // the user's own text: never a re-printed predicate (a Calcite federation's narrowing CAST)
        assertEquals("SELECT shardwise_fed_sbtest1.k, (SELECT COUNT(*) FROM orders o WHERE o.order_id = shardwise_fed_sbtest1.id) n"
                + " FROM shardwise_fed_sbtest1 WHERE c = c", rendered);
    }

    @Test
    void anUnaliasedExpressionItemNamingARenamedCopyIsLabelledWithItsOwnText() {
        String sql = "SELECT (SELECT COUNT(*) FROM sbtest1 WHERE sbtest1.k < 100), sbtest1.k + 1, sbtest1.k, k AS kk FROM sbtest1";
        Select s = (Select) ANALYZER.analyze(sql);
        FederatedPlan p = federated(sql);
        assertEquals(2, p.labels().size());
        List<Renderer.Edit> edits = p.labels().stream().map(l -> new Renderer.Edit(l.start(), l.end(),
                List.<Renderer.Piece>of(new Renderer.Piece.Copy(l.start(), l.end())), true)).toList();
        assertEquals("SELECT (SELECT COUNT(*) FROM shardwise_fed_sbtest1 WHERE shardwise_fed_sbtest1.k < 100)"
                + " AS `(SELECT COUNT(*) FROM sbtest1 WHERE sbtest1.k < 100)`, shardwise_fed_sbtest1.k + 1 AS `sbtest1.k + 1`,"
                + " shardwise_fed_sbtest1.k, k AS kk FROM shardwise_fed_sbtest1",
                Renderer.render(s.template(), p.names(), Bindings.NONE, edits).sql());
    }

    @Test
    void copyStatementsTouchOnlyTheTemporaryTable() {
        FederatedPlan.Copy c = federated("SELECT COUNT(*) FROM (SELECT user_id FROM orders) t").copies().get(0);
        assertEquals("DROP TEMPORARY TABLE IF EXISTS `orders`", CopyTexts.drop(c));
        assertEquals("CREATE TEMPORARY TABLE `orders` LIKE `orders_0`", CopyTexts.create(c));
        assertEquals("INSERT INTO `orders` SELECT * FROM `orders_1`", CopyTexts.copyLocal(c, "orders_1"));
        assertEquals("INSERT INTO `orders`", CopyTexts.insertHead(c));
    }

    @Test
    void theBudgetEndsTheStatementWithMysqlCapacityErrorNamingTheSetting() {
        ShipBudget b = new ShipBudget(1000);
        b.row(2, 100);
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> b.row(10, 1000));
        assertEquals(ErrorCode.CAPACITY_EXCEEDED, e.code());
        assertEquals(3170, e.errno());
        assertTrue(e.getMessage().contains("'federation.memoryBudget'"), e.getMessage());
    }
}
