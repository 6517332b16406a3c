package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The engine on real backends under the sql_mode flags that change what a statement means. */
class SqlModeEngineTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("sqlmode");

    private static String one(EngineSession s, String sql) {
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            assertTrue(c.next(), sql);
            byte[] v = c.get(0);
            return v == null ? null : new String(v, StandardCharsets.UTF_8);
        }
    }

    /**
     * {@code user_id = 1 || user_id = 0} is {@code (user_id = CONCAT(1, user_id)) = 0}: true on every
     * row, while an OR would have routed it to the nodes of keys 0 and 1 only. One text, two modes,
     * two plans (the mode is part of the plan-cache key).
     */
    @Test
    void pipesAsConcatRoutesTheConcatenationNotAnOr() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            String all = one(s, "SELECT COUNT(*) FROM orders");
            String either = "SELECT COUNT(*) FROM orders WHERE user_id = 1 || user_id = 0";
            String asOr = one(s, either);
            s.execute("SET sql_mode = 'PIPES_AS_CONCAT'");
            assertEquals(all, one(s, either));
            assertEquals(one(s, "SELECT COUNT(*) FROM orders WHERE user_id = 10"), one(s, "SELECT COUNT(*) FROM orders WHERE user_id = 1 || 0"));
            s.execute("SET sql_mode = DEFAULT");
            assertEquals(asOr, one(s, either));
            assertTrue(Long.parseLong(asOr) < Long.parseLong(all), asOr + " of " + all);
        }
    }

    /**
     * The federated tier runs the user's text on MySQL in the session's sql_mode: {@code ||} is MySQL's concatenation
     * there too, NULL operands included (CONCAT of a NULL is NULL), in the coordinator's statement and in the
     * conditions pushed to the copies' reads. Checked against the same statements with CONCAT in the default mode.
     */
    @Test
    void theFederatedTierAnswersPipesUnderPipesAsConcatAsConcat() {
        String[][] pairs = {
            {"SELECT COUNT(*) FROM (SELECT DISTINCT status || 'x' AS s FROM orders) t",
                "SELECT COUNT(*) FROM (SELECT DISTINCT CONCAT(status, 'x') AS s FROM orders) t"},
            {"SELECT COUNT(*) FROM (SELECT status || 'x' AS s FROM orders) t WHERE s IS NULL",
                "SELECT COUNT(*) FROM (SELECT CONCAT(status, 'x') AS s FROM orders) t WHERE s IS NULL"},
            {"SELECT COUNT(*) FROM orders o WHERE o.status || '' = 'paid' AND o.user_id IN (SELECT user_id FROM users WHERE name || '' IS NOT NULL)",
                "SELECT COUNT(*) FROM orders o WHERE CONCAT(o.status, '') = 'paid' AND o.user_id IN (SELECT user_id FROM users WHERE CONCAT(name, '') IS NOT NULL)"},
            {"SELECT MAX(s) FROM (SELECT u.name || '/' || o.order_id AS s FROM users u JOIN orders o ON o.amount = u.user_id) t",
                "SELECT MAX(s) FROM (SELECT CONCAT(u.name, '/', o.order_id) AS s FROM users u JOIN orders o ON o.amount = u.user_id) t"},
            {"SELECT COUNT(*) FROM orders WHERE user_id = 1 || 0 OR order_id IN (SELECT order_id FROM order_items WHERE quantity || '' = '2')",
                "SELECT COUNT(*) FROM orders WHERE user_id = CONCAT(1, 0) OR order_id IN (SELECT order_id FROM order_items WHERE CONCAT(quantity, '') = '2')"},
        };
        try (EngineSession s = SAMPLE.engine().openSession()) {
            String[] expected = new String[pairs.length];
            for (int i = 0; i < pairs.length; i++) {
                expected[i] = one(s, pairs[i][1]);
            }
            long before = SAMPLE.engine().federatedStatements();
            s.execute("SET sql_mode = 'ANSI'");
            for (int i = 0; i < pairs.length; i++) {
                assertEquals(expected[i], one(s, pairs[i][0]), pairs[i][0]);
            }
            assertEquals(before + pairs.length, SAMPLE.engine().federatedStatements(), "each on the third tier");
            s.execute("SET sql_mode = DEFAULT");
            assertTrue(Long.parseLong(one(s, pairs[0][0])) <= 3, "|| is OR again (0, 1 or NULL): " + one(s, pairs[0][0]));
        }
    }

    @Test
    void highNotPrecedenceAndOracleModeAreRefusedWhereNotHonoured() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("SET sql_mode = 'HIGH_NOT_PRECEDENCE'");
            ShardwiseException not = assertThrows(ShardwiseException.class,
                    () -> s.execute("SELECT COUNT(*) FROM orders WHERE NOT user_id BETWEEN 1 AND 5"));
            assertEquals(1235, not.errno());
            assertTrue(not.getMessage().contains("HIGH_NOT_PRECEDENCE"), not.getMessage());
            one(s, "SELECT COUNT(*) FROM orders WHERE NOT (user_id BETWEEN 1 AND 5)");
            s.execute("SET sql_mode = 'ORACLE'");
            assertTrue(one(s, "SELECT @@sql_mode").contains("ORACLE"));
            ShardwiseException oracle = assertThrows(ShardwiseException.class, () -> s.execute("SELECT COUNT(*) FROM orders"));
            assertEquals(1235, oracle.errno());
            assertTrue(oracle.getMessage().contains("sql_mode ORACLE"), oracle.getMessage());
            s.execute("SET sql_mode = DEFAULT");
            one(s, "SELECT COUNT(*) FROM orders");
        }
    }
}
