package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The third tier on real backends: which statements reach it, its budget, and what it leaves behind. */
class FederatedTierTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("federated");
    private static MysqlServer server;
    private static SampleTarget target;
    private static Engine engine;
    private static Engine tight;
    /** One connection per backend: a statement after a federated one runs on the coordinator's very connection. */
    private static Engine narrow;
    /** Federated (a window function), 1000 rows: more than a closing cursor drains before it kills. */
    private static final String FEDERATED_SCAN = "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM sbtest1";
    /** What the coordinator reads for sbtest1 (its nodes have the logical name): a single table of ds0 to the engine. */
    private static final String THE_COPY = "SELECT COUNT(*) FROM shardwise_fed_sbtest1";

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        engine = SAMPLE.engine();
        tight = Engine.start(SampleData.rule(target, yaml -> yaml + "\nfederation: { memoryBudget: 2K }\n"));
        narrow = Engine.start(SampleData.rule(target, yaml -> yaml.replace("    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n",
                "    password: \"${env:SHARDWISE_SAMPLE_PASSWORD:-}\"\n    pool: { max: 1 }\n")));
    }

    @AfterAll
    static void stop() {
        tight.close();
        narrow.close();
    }

    @AfterEach
    void nothingBorrowed() {
        assertEquals(0, tight.activeConnections(), "every backend connection is back in its pool");
        assertEquals(0, narrow.activeConnections(), "every backend connection is back in its pool");
    }

    private static void noCopyLeft(EngineSession s) {
        assertEquals(1146, assertThrows(ShardwiseException.class, () -> SampleEngine.rows(s, THE_COPY)).errno(),
                "the coordinator's connection still holds the copy");
    }

    @Test
    void theResultStreamsAndTheCopiesAreDroppedWhenTheClientClosesItEarly() {
        try (EngineSession s = narrow.openSession()) {
            try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(FEDERATED_SCAN)).cursor()) {
                assertTrue(c.next());
                assertEquals("1", new String(c.get(0), StandardCharsets.UTF_8));
                assertEquals(1, narrow.activeConnections(), "the coordinator's connection streams the rows");
            }
            assertEquals(0, narrow.activeConnections());
            noCopyLeft(s);
            assertEquals(1000, SampleEngine.rows(s, FEDERATED_SCAN).size());
            noCopyLeft(s);
        }
    }

    @Test
    void theCopiesAreDroppedWhenTheStatementIsCancelledMidResult() {
        try (EngineSession s = narrow.openSession()) {
            try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(FEDERATED_SCAN)).cursor()) {
                assertTrue(c.next());
                s.cancel();
                try {
                    while (c.next()) {
                        c.get(0); // the backend may have sent every row before the kill reached it
                    }
                } catch (ShardwiseException e) {
                    assertEquals(1317, e.errno());
                }
            }
            noCopyLeft(s);
        }
    }

    @Test
    void theCopiesAreDroppedWhenTheSessionEndsMidResult() {
        EngineSession s = narrow.openSession();
        ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(FEDERATED_SCAN)).cursor();
        assertTrue(c.next());
        s.close(); // a client gone mid-result: its session closes, the cursor with it
        assertEquals(0, narrow.activeConnections());
        try (EngineSession next = narrow.openSession()) {
            noCopyLeft(next);
        }
    }

    @Test
    void inATransactionTheCopiesAreDroppedWhenTheNextStatementEndsTheOpenResult() {
        try (EngineSession s = narrow.openSession()) {
            s.execute("BEGIN");
            ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(FEDERATED_SCAN)).cursor();
            assertTrue(c.next());
            noCopyLeft(s); // on the transaction's connection, after the open result was closed
            c.close();
            assertEquals(1000, SampleEngine.rows(s, FEDERATED_SCAN).size());
            noCopyLeft(s);
            s.execute("COMMIT");
        }
    }

    @Test
    void whatTheFastPathOrTheMergerAnswersNeverReachesTheFederatedTier() {
        List<String> firstTiers = List.of(
                "SELECT * FROM orders WHERE user_id = 7",
                "SELECT COUNT(*), SUM(amount), AVG(amount) FROM orders",
                "SELECT status, COUNT(DISTINCT user_id) FROM orders GROUP BY status ORDER BY status",
                "SELECT o.order_id, i.sku FROM orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                        + " ORDER BY o.order_id, i.item_id LIMIT 5",
                "SELECT * FROM orders WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items WHERE user_id = 3)",
                "SELECT u.name, c.name FROM users u JOIN countries c ON c.code = u.country_code ORDER BY u.user_id LIMIT 3",
                "SELECT DISTINCT status FROM orders",
                "SELECT * FROM promotions WHERE id IN (SELECT id FROM promotions)",
                // each node answers its own rows' subqueries (correlated on the key of bound tables, broadcast tables)
                "SELECT order_id FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id)",
                "SELECT o.order_id, (SELECT COUNT(*) FROM users u WHERE u.user_id = o.user_id) AS n FROM orders o ORDER BY o.order_id LIMIT 5",
                "SELECT COUNT(*) FROM users u WHERE u.country_code IN (SELECT code FROM countries)",
                "SELECT order_id FROM orders o ORDER BY (SELECT COUNT(*) FROM countries c WHERE c.code = o.status), order_id LIMIT 3");
        try (EngineSession s = engine.openSession()) {
            long before = engine.federatedStatements();
            for (String sql : firstTiers) {
                SampleEngine.rows(s, sql);
            }
            assertEquals(before, engine.federatedStatements());
            assertEquals(List.of(SampleEngine.rows(s, "SELECT COUNT(DISTINCT user_id) FROM orders").get(0)),
                    SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t"));
            assertEquals(before + 1, engine.federatedStatements());
        }
    }

    @Test
    void previewShowsTheScansTheCopiesAndTheStatementAsTheCoordinatorRunsIt() {
        try (EngineSession s = engine.openSession()) {
            io.shardwise.core.route.RoutePlan p = s.preview("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t", List.of());
            assertEquals(io.shardwise.core.route.RouteKind.FEDERATED, p.kind());
            assertEquals(List.of(
                    "ds1: SELECT `order_id`, `user_id` FROM `orders_0`",
                    "ds1: SELECT `order_id`, `user_id` FROM `orders_1`",
                    "ds0: DROP TEMPORARY TABLE IF EXISTS `orders`",
                    // only the columns the statement names (and the primary key's), defined as the node defines them
                    "ds0: CREATE TEMPORARY TABLE `orders` (`order_id` bigint(20) NOT NULL, `user_id` bigint(20) NOT NULL,"
                            + " PRIMARY KEY (`order_id`), KEY `idx_user` (`user_id`))",
                    "ds0: INSERT INTO `orders` (`order_id`, `user_id`) SELECT `order_id`, `user_id` FROM `orders_0`",
                    "ds0: INSERT INTO `orders` (`order_id`, `user_id`) SELECT `order_id`, `user_id` FROM `orders_1`",
                    "ds0: INSERT INTO `orders` (`order_id`, `user_id`) VALUES /* the rows of ds1.orders_0, in batches of 500 */",
                    "ds0: INSERT INTO `orders` (`order_id`, `user_id`) VALUES /* the rows of ds1.orders_1, in batches of 500 */",
                    "ds0: SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t",
                    "ds0: DROP TEMPORARY TABLE IF EXISTS `orders`"), p.units().stream().map(u -> u.explain()).toList());
        }
    }

    @Test
    void aCacheHitRunsTheCachedFederatedPlan() {
        try (EngineSession s = engine.openSession()) {
            long misses = engine.planCacheStats().misses();
            List<String> first = SampleEngine.rows(s, "SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE user_id < 10)");
            List<String> second = SampleEngine.rows(s, "SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE user_id < 20)");
            assertEquals(misses + 1, engine.planCacheStats().misses());
            assertTrue(Long.parseLong(first.get(0).replace("|", "")) <= Long.parseLong(second.get(0).replace("|", "")));
        }
    }

    @Test
    void rowsBeyondTheBudgetEndTheStatementWithMysqlCapacityErrorAndTheSessionGoesOn() {
        try (EngineSession s = tight.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t"));
            assertEquals(3170, e.errno());
            assertTrue(e.getMessage().contains("federation.memoryBudget"), e.getMessage());
            assertEquals(1, SampleEngine.rows(s, "SELECT COUNT(*) FROM orders").size());
        }
    }

    @Test
    void aFailedFederatedStatementLeavesNoCopyThatALaterStatementReads() {
        try (EngineSession s = engine.openSession()) {
            assertEquals(1054, assertThrows(ShardwiseException.class,
                    () -> s.execute("SELECT nope FROM (SELECT DISTINCT user_id FROM orders) t")).errno());
            String all = SampleEngine.rows(s, "SELECT COUNT(*) FROM orders").get(0);
            // later statements on the same pooled connections read the shards, never a stale copy
            for (int i = 0; i < 4; i++) {
                assertEquals(all, SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT order_id FROM orders) t").get(0));
            }
        }
    }

    @Test
    void inAnXaTransactionTheCopiesLiveInTheCoordinatorsBranch(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        String xa = "\ntransaction: { mode: xa, log: \"" + dir.resolve("xa.log").toString().replace("\\", "/")
                + "\", recoveryInterval: 1h }\n";
        try (Engine xaEngine = Engine.start(SampleData.rule(target, yaml -> yaml + xa)); EngineSession s = xaEngine.openSession()) {
            String expected = SampleEngine.rows(s, "SELECT COUNT(DISTINCT user_id) FROM orders").get(0);
            s.execute("BEGIN");
            SampleEngine.rows(s, "SELECT COUNT(*) FROM orders WHERE user_id = 3"); // a branch on a shard before the copies
            assertEquals(expected, SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t").get(0));
            s.execute("COMMIT");
            assertEquals(0, xaEngine.activeConnections());
        }
    }

    @Test
    void inATransactionTheStatementSeesTheTransactionsOwnChanges() {
        try (EngineSession s = engine.openSession()) {
            s.execute("BEGIN");
            String before = SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT order_id FROM orders) t").get(0);
            s.execute("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (990001, 5, 'tx', 1.00, '2025-01-01'),"
                    + " (990002, 6, 'tx', 1.00, '2025-01-01')");
            String after = SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT order_id FROM orders) t").get(0);
            s.execute("ROLLBACK");
            assertEquals(Long.parseLong(before.replace("|", "")) + 2, Long.parseLong(after.replace("|", "")));
            assertEquals(before, SampleEngine.rows(s, "SELECT COUNT(*) FROM (SELECT order_id FROM orders) t").get(0));
        }
    }
}
