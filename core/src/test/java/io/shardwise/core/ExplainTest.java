package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXPLAIN of a statement on real backends: a one-unit statement is the backend's own EXPLAIN (compared
 * with the same EXPLAIN on one unsharded database), anything else Shardwise's plan; writes stay unwritten.
 */
class ExplainTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("explain");
    private static Engine engine;
    /** An engine over the unsharded copy alone: every table single, so its EXPLAIN is the database's own. */
    private static Engine oneDatabase;

    @BeforeAll
    static void load() {
        engine = SAMPLE.engine();
        var server = SAMPLE.server();
        String yaml = "schema: shop\nbackends:\n  ds0: { url: \"" + server.jdbcUrl(SAMPLE.whole()) + "\", user: \"" + server.user()
                + "\", password: \"" + server.password() + "\" }\ndefaultBackend: ds0\n";
        oneDatabase = Engine.start(SampleData.rule(SAMPLE.target(), y -> yaml));
    }

    @AfterAll
    static void stop() {
        oneDatabase.close();
    }

    record Answer(List<Column> columns, List<List<String>> rows) {}

    private static Answer answer(Engine e, String sql) {
        try (EngineSession s = e.openSession()) {
            return answer(s, sql);
        }
    }

    private static Answer answer(EngineSession s, String sql) {
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            List<List<String>> rows = new ArrayList<>();
            while (c.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    row.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                }
                rows.add(row);
            }
            return new Answer(c.columns(), rows);
        }
    }

    /** {@code sql} on the unsharded database itself (named shop to the user: its physical name read as that). */
    private static List<List<String>> direct(String sql) {
        try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery(sql)) {
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    byte[] b = rs.getBytes(i); // the text protocol's bytes, as the engine's cursor holds them
                    String v = b == null ? null : new String(b, StandardCharsets.UTF_8);
                    row.add(v == null ? null : v.replace(SAMPLE.whole() + ".", "shop."));
                }
                rows.add(row);
            }
            return rows;
        } catch (java.sql.SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    private static ShardwiseException error(EngineSession s, String sql) {
        return assertThrows(ShardwiseException.class, () -> {
            StatementResult r = s.execute(sql);
            if (r instanceof StatementResult.Rows rows) {
                try (ResultCursor c = rows.cursor()) {
                    while (c.next()) {
                        // an error may come with the rows
                    }
                }
            }
        }, sql);
    }

    /** Every row of the sharded tables, to show nothing was written. */
    private static List<List<String>> everything() {
        List<List<String>> all = new ArrayList<>();
        for (String t : List.of("orders", "order_items", "users", "countries", "promotions")) {
            all.addAll(answer(engine, "SELECT * FROM " + t + " ORDER BY 1, 2").rows());
        }
        return all;
    }

    /** The backend's numbers (costs, row estimates) differ between a shard and the whole table: not the plan's shape. */
    private static String shape(String json) {
        return json.replaceAll("\"(cost|rows|filtered|r_[a-z_]+)\": [0-9.e+-]+", "\"$1\": N");
    }

    @Test
    void aOneShardStatementIsTheBackendsOwnExplainWithTheTablesLogicalName() {
        for (String sql : List.of("EXPLAIN SELECT * FROM orders WHERE user_id = 6",
                "EXPLAIN SELECT o.order_id, i.sku FROM orders o JOIN order_items i USING (user_id, order_id) WHERE o.user_id = 3",
                "EXPLAIN EXTENDED SELECT status FROM orders WHERE user_id = 5 ORDER BY amount",
                "DESCRIBE SELECT * FROM orders WHERE user_id = 6",
                "EXPLAIN SELECT name FROM countries WHERE code = 'DE'",
                "EXPLAIN SELECT * FROM promotions",
                "EXPLAIN SELECT @@version_comment")) {
            // the unsharded database is named shop there, as the logical schema: ref reads shop.o.order_id in both
            Answer sharded = answer(engine, sql);
            assertEquals(answer(oneDatabase, sql).columns(), sharded.columns(), sql + ": labels and types as the database's own");
            int rows = labels(sharded).indexOf("rows");
            assertEquals(without(direct(sql), rows), without(sharded.rows(), rows), sql);
        }
        assertEquals("orders", answer(engine, "EXPLAIN SELECT * FROM orders WHERE user_id = 6").rows().get(0).get(2),
                "the table column names the logical table, not its node orders_0");
    }

    @Test
    void formatJsonOfAOneShardStatementIsTheBackendsDocumentWithLogicalTableNames() {
        String sql = "EXPLAIN FORMAT=JSON SELECT * FROM orders WHERE user_id = 6 AND status = 'paid'";
        Answer sharded = answer(engine, sql);
        assertEquals(List.of("EXPLAIN"), labels(sharded));
        assertEquals(answer(oneDatabase, sql).columns(), sharded.columns());
        String json = sharded.rows().get(0).get(0);
        assertTrue(json.contains("\"table_name\": \"orders\""), json);
        assertEquals(shape(direct(sql).get(0).get(0)), shape(json));
    }

    @Test
    void aScatterIsShardwisesPlanOneReadPerNodeThenTheMerge() {
        String select = "SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY status";
        Answer a = answer(engine, "EXPLAIN " + select);
        assertEquals(OwnPlan.LABELS, labels(a));
        List<List<String>> preview = answer(engine, "PREVIEW " + select).rows();
        assertEquals(preview.size() + 1, a.rows().size(), "a step per unit, then the merge");
        for (int i = 0; i < preview.size(); i++) {
            List<String> step = a.rows().get(i);
            assertEquals(List.of("1", "merger", "SCATTER", "read", preview.get(i).get(0), preview.get(i).get(1)), step.subList(0, 6));
        }
        List<String> merge = a.rows().get(preview.size());
        assertEquals(List.of("2", "merger", "SCATTER", "merge"), merge.subList(0, 4));
        assertEquals(preview.get(0).get(4), merge.get(7), "the merge PREVIEW shows");
        assertEquals(answer(engine, "EXPLAIN FORMAT=TRADITIONAL " + select), a);
        assertEquals(8, a.columns().get(0).mysqlType(), "id is a number");
    }

    @Test
    void formatJsonOfShardwisesPlanIsOneDocumentWithTheTierAndEveryStep() throws Exception {
        Answer a = answer(engine, "EXPLAIN FORMAT=JSON SELECT * FROM orders WHERE user_id IN (1, 2) ORDER BY order_id");
        assertEquals(List.of("EXPLAIN"), labels(a));
        assertEquals(1, a.rows().size());
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(a.rows().get(0).get(0)).get("shardwise");
        assertEquals("merger", tree.get("tier").asText());
        assertEquals("MULTI_POINT", tree.get("route").asText());
        var steps = tree.get("steps");
        assertEquals(3, steps.size(), steps.toString());
        assertEquals("read", steps.get(0).get("step").asText());
        assertTrue(steps.get(0).get("sql").asText().contains("FROM orders_1"), steps.toString());
        assertEquals("merge", steps.get(2).get("step").asText());
        assertEquals(2, steps.get(2).get("id").asInt());
    }

    @Test
    void aFederatedSelectWhosePushedConjunctPrunesNodesStillNamesEachStep() {
        String select = "SELECT o.order_id FROM orders o WHERE o.order_id IN (SELECT order_id FROM order_items WHERE sku = 'A') AND o.user_id = 7";
        List<List<String>> rows = answer(engine, "EXPLAIN " + select).rows();
        List<String> ordersReads = new ArrayList<>();
        for (List<String> row : rows) {
            assertTrue(!row.get(3).equals("step"), "an unnamed step: " + rows);
            if (row.get(5) != null && row.get(5).contains("FROM `orders_")) {
                ordersReads.add(row.get(3));
            }
        }
        assertEquals(1, ordersReads.size(), "user 7's node only: " + rows);
    }

    @Test
    void aFederatedSelectShowsItsShippedScansThenTheCoordinatorsSequence() throws Exception {
        String select = "SELECT o.order_id FROM orders o WHERE o.order_id IN (SELECT order_id FROM order_items WHERE sku = 'A') AND o.user_id > 0";
        Answer a = answer(engine, "EXPLAIN " + select);
        List<List<String>> preview = answer(engine, "PREVIEW " + select).rows();
        assertEquals(preview.size(), a.rows().size());
        List<String> steps = new ArrayList<>();
        for (int i = 0; i < preview.size(); i++) {
            List<String> row = a.rows().get(i);
            assertEquals(List.of("federated", "FEDERATED"), row.subList(1, 3));
            assertEquals(preview.get(i).subList(0, 2), row.subList(4, 6), "the SQL PREVIEW shows");
            steps.add(row.get(0) + " " + row.get(3));
        }
        assertEquals("1 ship", steps.get(0));
        assertTrue(steps.contains("1 ship") && steps.stream().anyMatch(s -> s.endsWith(" statement")), steps.toString());
        assertTrue(a.rows().stream().anyMatch(r -> r.get(3).equals("statement") && r.get(5).startsWith("SELECT o.order_id FROM orders o")),
                a.rows().toString());
        var tree = new com.fasterxml.jackson.databind.ObjectMapper().readTree(answer(engine, "EXPLAIN FORMAT=JSON " + select).rows().get(0).get(0));
        assertEquals("federated", tree.get("shardwise").get("tier").asText());
        assertEquals(preview.size(), tree.get("shardwise").get("steps").size());
    }

    @Test
    void explainingWritesWritesNothing() {
        List<List<String>> before = everything();
        Answer point = answer(engine, "EXPLAIN UPDATE orders SET amount = amount + 1 WHERE user_id = 6");
        assertEquals(answer(oneDatabase, "EXPLAIN UPDATE orders SET amount = amount + 1 WHERE user_id = 6").columns(), point.columns());
        assertEquals("orders", point.rows().get(0).get(2));
        answer(engine, "EXPLAIN DELETE FROM orders WHERE user_id = 7");
        answer(engine, "EXPLAIN INSERT INTO orders (order_id, user_id, status, amount) VALUES (99001, 8, 'new', 1.00)");
        answer(engine, "EXPLAIN REPLACE INTO promotions (id, code, discount) VALUES (1, 'x', 1)");
        Answer scatter = answer(engine, "EXPLAIN DELETE FROM orders WHERE amount > 0");
        assertEquals(4, scatter.rows().size());
        assertTrue(scatter.rows().stream().allMatch(r -> r.get(1).equals("write") && r.get(3).equals("write")), scatter.rows().toString());
        Answer broadcast = answer(engine, "EXPLAIN UPDATE countries SET name = 'x' WHERE code = 'DE'");
        assertEquals("BROADCAST_WRITE", broadcast.rows().get(0).get(2));
        Answer keyed = answer(engine, "EXPLAIN UPDATE orders SET amount = 0 ORDER BY order_id LIMIT 2");
        assertEquals("keyed write", keyed.rows().get(0).get(1));
        assertEquals("choose rows", keyed.rows().get(0).get(3));
        assertEquals("write by key", keyed.rows().get(keyed.rows().size() - 1).get(3));
        Answer copy = answer(engine, "EXPLAIN INSERT INTO promotions (id, code, discount) SELECT order_id, status, 1 FROM orders");
        assertEquals("insert select", copy.rows().get(0).get(1));
        assertEquals("insert", copy.rows().get(copy.rows().size() - 1).get(3));
        try (EngineSession s = engine.openSession()) {
            s.execute("BEGIN");
            answer(s, "EXPLAIN UPDATE orders SET amount = 0 WHERE user_id = 6");
            answer(s, "EXPLAIN DELETE FROM orders");
            s.execute("COMMIT");
        }
        assertEquals(before, everything(), "nothing changed");
    }

    @Test
    void aWriteThatChoosesItsRowsFirstShowsTheChoiceOnItsTierThenTheWriteSteps() {
        List<List<String>> before = everything();
        // routed to one node by its WHERE, but its ORDER BY reads order_items of every node: chosen on the third tier, written by key
        String oneNode = "UPDATE orders SET status = 'x' WHERE user_id = 3 ORDER BY (SELECT COUNT(*) FROM order_items i"
                + " WHERE i.user_id = MOD(orders.order_id, 50)) DESC, order_id LIMIT 2";
        List<List<String>> rows = answer(engine, "EXPLAIN " + oneNode).rows();
        assertTrue(rows.stream().allMatch(r -> r.get(1).equals("keyed write") && r.get(2).equals("KEYED_WRITE")), rows.toString());
        assertEquals("1", rows.get(0).get(0));
        assertEquals("ship", rows.get(0).get(3), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.get(3).equals("choose rows") && r.get(5).contains("FOR UPDATE")), rows.toString());
        assertEquals("write by key", rows.get(rows.size() - 1).get(3));
        List<List<String>> preview = answer(engine, "PREVIEW " + oneNode).rows();
        assertEquals(rows.size() - 1, preview.size(), "PREVIEW: the choice's units (the write by key depends on its rows)");
        assertTrue(preview.stream().allMatch(r -> r.get(3).equals("KEYED_WRITE")), preview.toString());
        for (int i = 0; i < preview.size(); i++) {
            assertEquals(preview.get(i).subList(0, 2), rows.get(i).subList(4, 6), "the SQL PREVIEW shows");
        }
        // a multi-table UPDATE of a sharding column that is the primary key (co-located): the join's choice on each node,
        // the new keys computed beside the rows, then the write in place and the moves
        String multi = "UPDATE users u JOIN orders o USING (user_id) SET u.user_id = u.user_id + 9000 WHERE o.amount > 900";
        rows = answer(engine, "EXPLAIN " + multi).rows();
        assertTrue(rows.stream().allMatch(r -> r.get(1).equals("key move") && r.get(2).equals("KEY_MOVE")), rows.toString());
        assertEquals(4, rows.stream().filter(r -> r.get(3).equals("choose rows")).count(), rows.toString());
        assertTrue(rows.get(0).get(5).contains("9000") && rows.get(0).get(5).contains("FOR UPDATE"), rows.toString());
        assertEquals(List.of("write by key", "move rows"), List.of(rows.get(rows.size() - 2).get(3), rows.get(rows.size() - 1).get(3)));
        assertEquals(4, answer(engine, "PREVIEW " + multi).rows().size());
        // a key move whose WHERE reads other shards: its choice on the third tier, then in place and moved
        String sub = "UPDATE orders SET user_id = 11 WHERE order_id IN (SELECT order_id FROM order_items WHERE quantity = 3) AND amount < 300";
        rows = answer(engine, "EXPLAIN FORMAT=TRADITIONAL " + sub).rows();
        assertTrue(rows.stream().anyMatch(r -> r.get(3).equals("ship")) && rows.stream().anyMatch(r -> r.get(3).equals("choose rows")),
                rows.toString());
        assertEquals("move rows", rows.get(rows.size() - 1).get(3));
        assertEquals(before, everything(), "nothing changed");
    }

    @Test
    void aRefusedStatementsExplainFailsAsTheStatementWould() {
        try (EngineSession s = engine.openSession()) {
            for (String refused : List.of("UPDATE IGNORE orders SET user_id = 5 WHERE user_id = 4", "SELECT * FROM no_such_table",
                    "SELECT nope FROM orders WHERE user_id = 1", "SELECT * FROM orders WHERE user_id = 1 FOR UPDATE SKIP NOPE")) {
                ShardwiseException statement = error(s, refused);
                ShardwiseException explained = error(s, "EXPLAIN " + refused);
                assertEquals(statement.errno(), explained.errno(), refused);
                assertEquals(statement.getMessage(), explained.getMessage(), refused);
            }
            ShardwiseException analyze = error(s, "EXPLAIN ANALYZE SELECT * FROM orders");
            assertEquals(1235, analyze.errno());
            assertTrue(analyze.getMessage().contains("EXPLAIN ANALYZE"), analyze.getMessage());
            ShardwiseException mariaDbAnalyze = error(s, "ANALYZE SELECT * FROM promotions");
            assertEquals(1235, mariaDbAnalyze.errno());
            assertTrue(mariaDbAnalyze.getMessage().contains("'ANALYZE of a statement"), mariaDbAnalyze.getMessage());
            assertEquals(1235, error(s, "ANALYZE FORMAT=JSON UPDATE promotions SET name = 'x'").errno());
            assertEquals(1235, error(s, "EXPLAIN FOR CONNECTION 1").errno());
            ShardwiseException tree = error(s, "EXPLAIN FORMAT=TREE SELECT * FROM orders");
            assertEquals(1235, tree.errno());
            assertTrue(tree.getMessage().contains("FORMAT=TREE"), tree.getMessage());
        }
    }

    @Test
    void explainOfATableIsStillItsColumns() {
        assertEquals(answer(engine, "DESCRIBE orders"), answer(engine, "EXPLAIN orders"));
        assertEquals("Field", labels(answer(engine, "EXPLAIN orders")).get(0));
    }

    @Test
    void aPreparedExplainDescribesTheColumnsItReturns() {
        try (EngineSession s = engine.openSession()) {
            String one = "EXPLAIN SELECT * FROM orders WHERE user_id = ?";
            List<Column> described = s.describe(one);
            try (ResultCursor c = ((StatementResult.Rows) s.execute(one, List.of(6L))).cursor()) {
                assertEquals(described, c.columns());
                assertTrue(c.next());
                assertEquals("orders", new String(c.get(2), StandardCharsets.UTF_8));
            }
            String many = "EXPLAIN SELECT * FROM orders WHERE amount > ? ORDER BY order_id";
            assertEquals(OwnPlan.columns(OwnPlan.Format.TABLE), s.describe(many));
            try (ResultCursor c = ((StatementResult.Rows) s.execute(many, List.of(new java.math.BigDecimal("1.50")))).cursor()) {
                assertTrue(c.next());
                assertEquals("[1.50]", new String(c.get(6), StandardCharsets.UTF_8), "the unit's parameters");
            }
        }
    }

    @Test
    void explainReadsTheStatementAsTheSessionRunsIt() {
        List<List<String>> before = everything();
        try (EngineSession s = engine.openSession()) {
            Answer into = answer(s, "EXPLAIN SELECT name INTO @n FROM users WHERE user_id = 1");
            assertEquals("users", into.rows().get(0).get(2), "the plan of its SELECT");
            assertEquals(java.util.Arrays.asList((String) null), answer(s, "SELECT @n").rows().get(0), "no variable assigned");
            Answer implicit = answer(s, "EXPLAIN INSERT INTO orders VALUES (99002, 8, 'new', 1.00, '2025-01-01 00:00:00')");
            assertEquals("orders", implicit.rows().get(0).get(2), "routed by the key among the table's columns, to one node");
            assertEquals(1, answer(s, "EXPLAIN (SELECT 1)").rows().size());
            assertEquals("<derived2>", answer(s, "EXPLAIN WITH x AS (SELECT 1) SELECT * FROM x").rows().get(0).get(2));
        }
        assertEquals(before, everything(), "nothing changed");
    }

    private static List<String> labels(Answer a) {
        return a.columns().stream().map(Column::name).toList();
    }

    private static List<List<String>> without(List<List<String>> rows, int column) {
        List<List<String>> out = new ArrayList<>();
        for (List<String> r : rows) {
            List<String> copy = new ArrayList<>(r);
            if (column >= 0) {
                copy.remove(column);
            }
            out.add(copy);
        }
        return out;
    }
}
