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

    /** The federated tier would evaluate || with Calcite's rules: closed to it, with a 1235 naming the mode. */
    @Test
    void theFederatedTierRefusesPipesUnderPipesAsConcat() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            String federated = "SELECT COUNT(*) FROM (SELECT DISTINCT status || 'x' AS s FROM orders) t";
            String answered = one(s, federated);
            s.execute("SET sql_mode = 'ANSI'");
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(federated));
            assertEquals(1235, e.errno());
            assertTrue(e.getMessage().contains("PIPES_AS_CONCAT"), e.getMessage());
            one(s, "SELECT COUNT(*) FROM (SELECT DISTINCT user_id FROM orders) t"); // no ||: federated as ever
            s.execute("SET sql_mode = DEFAULT");
            assertEquals(answered, one(s, federated));
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
