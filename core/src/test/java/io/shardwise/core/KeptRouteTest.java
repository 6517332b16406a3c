package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.route.ExecutionUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The relay keeps a prepared statement's route when no value changes it ({@code EngineRelay.prepared}: it names no
 * sharded table, so one node and one rendered unit) and relays later executions with it, not routing them again —
 * each kept unit compared with the one a fresh route gives; and routes again whatever it was keyed by changes (lexical
 * mode, schema), never keeps a statement that names a sharded table, and never normalizes the commonest text
 * BEGIN / COMMIT / ROLLBACK only to find they do not relay.
 */
class KeptRouteTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("kroute");

    private static final String BROADCAST = "SELECT name FROM countries WHERE code = ?";
    private static final String SINGLE = "SELECT code, discount FROM promotions WHERE id = ?";
    private static final String SINGLE_UPDATE = "UPDATE promotions SET discount = discount WHERE id = ?";

    /** A fresh session's unit for {@code sql}: routed, never kept. */
    private static ExecutionUnit routed(String sql, List<Object> params) {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            RelayPlan plan = ((EngineRelay) s.relay()).prepared(sql, params);
            assertNotNull(plan, sql + " relays");
            return plan.units().get(0);
        }
    }

    @Test
    void singleAndBroadcastStatementsRelayTheirKeptUnitFromTheSecondExecution() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            s.execute(BROADCAST, List.of("fr"));
            s.execute(SINGLE, List.of(1L));
            s.execute(SINGLE_UPDATE, List.of(1L));
            EngineRelay relay = (EngineRelay) s.relay();
            for (String sql : List.of(BROADCAST, SINGLE, SINGLE_UPDATE)) {
                long before = relay.keptRoutes();
                Object value = sql == BROADCAST ? "fr" : 1L;
                RelayPlan first = relay.prepared(sql, List.of(value));
                assertNotNull(first, sql);
                assertEquals(before, relay.keptRoutes(), "the first execution routes");
                for (int i = 0; i < 5; i++) {
                    Object other = sql == BROADCAST ? "c" + i : (Object) (long) (i + 2);
                    RelayPlan again = relay.prepared(sql, List.of(other));
                    assertSame(first.units(), again.units(), sql + ": the kept unit");
                    ExecutionUnit fresh = routed(sql, List.of(other));
                    ExecutionUnit kept = again.units().get(0);
                    assertEquals(fresh.backend(), kept.backend(), sql + ": the node a fresh route chooses (a broadcast read's copy too)");
                    assertEquals(fresh.sql(), kept.sql());
                    assertEquals(fresh.logicalTables(), kept.logicalTables());
                    assertTrue(kept.params().isEmpty(), "a relayed unit's values are the execute's own");
                    assertEquals(first.write(), again.write());
                }
                assertEquals(before + 5, relay.keptRoutes(), sql + ": five executions relayed with the kept route");
            }
        }
    }

    @Test
    void aStatementNamingAShardedTableRoutesEveryExecutionByItsValues() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            // a broadcast table joined with a sharded one: the sharded key's value chooses the node
            String sql = "SELECT c.name FROM users u JOIN countries c ON c.code = u.country_code WHERE u.user_id = ?";
            s.execute(sql, List.of(1L));
            String point = "SELECT c FROM sbtest1 WHERE id = ?";
            s.execute(point, List.of(1L));
            EngineRelay relay = (EngineRelay) s.relay();
            for (String text : List.of(sql, point)) {
                Set<String> backends = new HashSet<>();
                for (long id = 1; id <= 16; id++) {
                    RelayPlan plan = relay.prepared(text, List.of(id));
                    assertNotNull(plan, text + " relays");
                    assertEquals(routed(text, List.of(id)).backend(), plan.units().get(0).backend(), text + " with " + id);
                    backends.add(plan.units().get(0).backend());
                }
                assertEquals(2, backends.size(), text + ": each execution on its own shard");
            }
            assertEquals(0, relay.keptRoutes(), "no route naming a sharded table is kept");
        }
    }

    @Test
    void anotherSqlModeRoutesAgainThenKeepsThatModesRoute() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            s.execute(SINGLE, List.of(1L));
            EngineRelay relay = (EngineRelay) s.relay();
            RelayPlan first = relay.prepared(SINGLE, List.of(1L));
            relay.prepared(SINGLE, List.of(2L));
            assertEquals(1, relay.keptRoutes());
            s.execute("SET sql_mode = 'ANSI_QUOTES'");
            s.execute(SINGLE, List.of(1L)); // the plan of this mode's reading cached
            RelayPlan ansi = relay.prepared(SINGLE, List.of(3L));
            assertNotNull(ansi);
            assertEquals(1, relay.keptRoutes(), "the text read in another mode is routed again");
            assertFalse(first.units() == ansi.units());
            relay.prepared(SINGLE, List.of(4L));
            assertEquals(2, relay.keptRoutes(), "and kept for that mode");
            s.execute("SET sql_mode = ''");
            relay.prepared(SINGLE, List.of(5L));
            assertEquals(2, relay.keptRoutes(), "back in the first mode: routed again (one reading per text)");
        }
    }

    @Test
    void aKeptRouteIsNeverUsedWithoutTheSchemaItWasRoutedIn() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            EngineRelay relay = (EngineRelay) s.relay();
            assertNull(relay.prepared(SINGLE, List.of(1L)), "no database selected: nothing relays");
            s.execute("USE " + SAMPLE.engine().rule().schema());
            s.execute(SINGLE, List.of(1L));
            assertNotNull(relay.prepared(SINGLE, List.of(1L)));
            assertEquals(0, relay.keptRoutes());
            PreparedTexts.Kept kept = new PreparedTexts.Kept();
            kept.keep(null, "shop", List.of());
            assertNull(kept.units(null, "shop"), "nothing is kept for no plan");
        }
    }

    @Test
    void onlyTheCommonestTransactionTextsSkipTheNormalizer() {
        for (String sql : List.of("BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "begin", "commit", "rollback", "start transaction")) {
            assertTrue(EngineRelay.transactionControl(sql), sql);
        }
        for (String sql : List.of("BEGIN ", "Begin", "COMMIT;", "BEGIN WORK", "ROLLBACK AND CHAIN", "START TRANSACTION READ ONLY",
                "/*x*/BEGIN", "SELECT 1", "")) {
            assertFalse(EngineRelay.transactionControl(sql), sql);
        }
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            EngineRelay relay = (EngineRelay) s.relay();
            for (String sql : List.of("BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "BEGIN WORK", "Commit")) {
                assertNull(relay.plan(sql), sql + " is no relayed statement, fast path or not");
            }
            s.execute("BEGIN");
            s.execute("COMMIT");
            assertFalse(s.inTransaction());
        }
    }
}
