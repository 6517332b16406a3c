package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * UPDATE of a sharding column ({@link io.shardwise.core.route.RouteKind#KEY_MOVE}) on real backends:
 * every write runs through the engine and on the unsharded copy; both must report the same outcome
 * and leave the same table, and every row must then sit on the node its key routes to (a point read
 * by the new key, which reads that node only, finds it).
 */
class KeyMoveTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("keymove");

    /** Runs the write both ways: same outcome, same table after, each row found by a point read of its key. */
    private static String same(String write, String table, String key, String shardingColumn) throws SQLException {
        String expected = SAMPLE.directWrite(write);
        try (EngineSession s = SAMPLE.engine().openSession()) {
            String actual = SampleEngine.engineWrite(s, write);
            assertEquals(expected, actual, write);
            String all = "SELECT * FROM " + table + " ORDER BY " + key;
            assertEquals(SAMPLE.direct(all), SampleEngine.rows(s, all), "the table after " + write);
            // each key's rows on the unsharded copy, read at once: a read (and a new connection) per key made this class
            // one of the suite's slowest (~200 keys after each write), for the rows this one read holds
            Map<String, List<String>> byKey = new LinkedHashMap<>();
            for (String row : SAMPLE.direct("SELECT " + shardingColumn + ", " + table + ".* FROM " + table
                    + " ORDER BY " + shardingColumn + ", " + key)) {
                int end = row.indexOf('|');
                byKey.computeIfAbsent(row.substring(0, end), k -> new ArrayList<>()).add(row.substring(end + 1));
            }
            for (Map.Entry<String, List<String>> rowsOfKey : byKey.entrySet()) {
                String v = rowsOfKey.getKey();
                String point = "SELECT * FROM " + table + " WHERE " + shardingColumn + " = " + v + " ORDER BY " + key;
                List<String> plan = SampleEngine.rows(s, "PREVIEW " + point);
                assertTrue(plan.size() == 1 && plan.get(0).contains("|POINT|"), point + ": " + plan);
                assertEquals(rowsOfKey.getValue(), SampleEngine.rows(s, point), "rows of key " + v + " on their node after " + write);
            }
            return actual;
        }
    }

    @Test
    void anUpdatedShardingKeyMovesTheRowToItsNewNode() throws SQLException {
        assertEquals("affected 1", same("UPDATE orders SET user_id = 5 WHERE order_id = 100001", "orders", "order_id", "user_id"));
        // several rows, from every node, with other assignments beside the key
        same("UPDATE orders SET status = 'moved', user_id = user_id + 1 WHERE amount > 900", "orders", "order_id", "user_id");
        // a new key on the same node (4 and 8 are both node 0 under mod 4): updated in place, nothing moves
        same("UPDATE orders SET user_id = 8, status = 'same node' WHERE user_id = 4", "orders", "order_id", "user_id");
        // SET reads left to right: the key takes the amount just assigned
        same("UPDATE orders SET amount = 3, user_id = amount WHERE order_id BETWEEN 100010 AND 100020", "orders", "order_id", "user_id");
        // no row matches
        assertEquals("affected 0", same("UPDATE orders SET user_id = 1 WHERE order_id = -1", "orders", "order_id", "user_id"));
    }

    @Test
    void aPrimaryKeyThatIsTheShardingKeyIsFoundByItsNewValue() throws SQLException {
        same("UPDATE users SET user_id = user_id + 1000 WHERE user_id IN (3, 6, 9)", "users", "user_id", "user_id");
        // the new key is taken on its node: MySQL's duplicate key (1062), and nothing changed anywhere
        String duplicate = same("UPDATE users SET user_id = 2 WHERE user_id = 1003", "users", "user_id", "user_id");
        assertEquals("error 1062", duplicate);
    }

    @Test
    void aPrimaryKeyTakenByAnotherChosenRowIsADuplicateInMysqlsRowOrder() throws SQLException {
        // without ORDER BY MySQL updates in primary key order: 30 takes 31 while 31 still holds it (1062), though each
        // node alone (30..33 sit on four nodes) would meet no duplicate
        String shift = "UPDATE users SET user_id = IF(user_id = 33, 5033, user_id + 1) WHERE user_id BETWEEN 30 AND 33";
        assertEquals("error 1062", same(shift, "users", "user_id", "user_id"));
        // in descending order every key is free when it is taken: the rows shift across the nodes
        assertEquals("affected 4", same(shift + " ORDER BY user_id DESC", "users", "user_id", "user_id"));
        // on one node too (40, 44, 48 are node 0's): the in-place UPDATE follows that order, not its own ascending one
        assertEquals("affected 3", same("UPDATE users SET user_id = IF(user_id = 48, 5048, user_id + 4) WHERE user_id IN (40, 44, 48)"
                + " ORDER BY user_id DESC", "users", "user_id", "user_id"));
        // no row chosen: nothing to order, nothing written
        assertEquals("affected 0", same("UPDATE users SET user_id = user_id + 1 WHERE user_id = -77 ORDER BY user_id DESC",
                "users", "user_id", "user_id"));
        // a swap is a duplicate in any order
        assertEquals("error 1062", same("UPDATE users SET user_id = IF(user_id = 50, 51, 50) WHERE user_id IN (50, 51)",
                "users", "user_id", "user_id"));
        // a primary key other than the sharding key, both assigned: 100020 takes 100021 while it is still there
        assertEquals("error 1062", same("UPDATE orders SET order_id = order_id + 1, user_id = 3 WHERE order_id BETWEEN 100020 AND 100022",
                "orders", "order_id", "user_id"));
        assertEquals("affected 3", same("UPDATE orders SET order_id = order_id + 7000, user_id = 3 WHERE order_id BETWEEN 100020 AND 100022",
                "orders", "order_id", "user_id"));
    }

    @Test
    void orderByAndLimitChooseTheRowsAsOneMysqlDoes() throws SQLException {
        same("UPDATE orders SET user_id = 7 WHERE status = 'paid' ORDER BY order_id DESC LIMIT 3", "orders", "order_id", "user_id");
    }

    @Test
    void explainNamesTheSteps() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            List<String> plan = SampleEngine.rows(s, "EXPLAIN UPDATE orders SET user_id = 5 WHERE order_id = 100004");
            assertEquals(4, plan.stream().filter(r -> r.contains("|choose rows|")).count(), plan.toString()); // every node
            assertTrue(plan.get(0).startsWith("1|key move|KEY_MOVE|choose rows|ds0|select *, (5) from orders_0 where order_id = 100004 for update|"),
                    plan.toString());
            assertTrue(plan.get(plan.size() - 2).contains("|write by key|"), plan.toString());
            assertTrue(plan.get(plan.size() - 1).contains("|move rows|"), plan.toString());
        }
    }

    @Test
    void insideATransactionARollbackPutsTheRowBack() throws SQLException {
        String all = "SELECT * FROM users ORDER BY user_id";
        try (EngineSession s = SAMPLE.engine().openSession()) {
            List<String> before = SampleEngine.rows(s, all);
            s.execute("BEGIN");
            assertEquals("affected 1", SampleEngine.engineWrite(s, "UPDATE users SET user_id = 4242 WHERE user_id = 11"));
            assertEquals(1, SampleEngine.rows(s, "SELECT * FROM users WHERE user_id = 4242").size());
            s.execute("ROLLBACK");
            assertEquals(before, SampleEngine.rows(s, all));
            assertEquals(SAMPLE.direct(all), before);
        }
    }

    @Test
    void subqueriesReadingOtherShardsChooseTheRowsThroughTheTierThatAnswersThem() throws SQLException {
        // the WHERE reads users and order_items of every node: the choice is the federated tier's, the rows then written by key
        same("UPDATE orders SET user_id = user_id + 2, status = 'sub' WHERE user_id IN (SELECT user_id FROM users WHERE country_code = 'DE')"
                + " AND amount > 500", "orders", "order_id", "user_id");
        same("UPDATE orders SET user_id = 11 WHERE order_id IN (SELECT order_id FROM order_items WHERE quantity = 3) AND amount < 300",
                "orders", "order_id", "user_id");
        same("UPDATE orders o SET o.user_id = 13 WHERE EXISTS (SELECT 1 FROM users u WHERE u.user_id = o.user_id + 1)"
                + " ORDER BY o.order_id LIMIT 2", "orders", "order_id", "user_id");
    }

    @Test
    void aSubqueryInTheNewKeyValueIsComputedOverWholeTablesForEachChosenRow() throws SQLException {
        // in place, each node would compute it over its own rows: the in-place UPDATE runs on the third tier
        same("UPDATE orders SET user_id = (SELECT MAX(user_id) FROM users WHERE country_code = 'DE') WHERE order_id = 100002",
                "orders", "order_id", "user_id");
        same("UPDATE orders o SET o.user_id = (SELECT MIN(i.user_id) + 1 FROM order_items i WHERE i.order_id = o.order_id), status = 'moved'"
                + " WHERE o.amount > 800", "orders", "order_id", "user_id");
        // the primary key is the sharding key: the rows found again by the values the choice computed
        same("UPDATE users SET user_id = (SELECT MAX(order_id) FROM orders WHERE orders.user_id = users.user_id) + 7000"
                + " WHERE user_id BETWEEN 20 AND 25 AND user_id IN (SELECT user_id FROM orders)", "users", "user_id", "user_id");
        // MySQL's semantics: no row is NULL (refused by the NOT NULL column), several rows are 1242
        assertEquals("error 1048", same("UPDATE orders SET user_id = (SELECT user_id FROM users WHERE user_id < -1000000) WHERE order_id = 100003",
                "orders", "order_id", "user_id"));
        assertEquals("error 1242", same("UPDATE orders SET user_id = (SELECT user_id FROM users WHERE user_id < 50) WHERE order_id = 100003",
                "orders", "order_id", "user_id"));
    }

    @Test
    void whatCannotMoveExactlyIsRefusedNamingWhy() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            ShardwiseException ignore = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE IGNORE orders SET user_id = 5 WHERE order_id = 100002"));
            assertEquals(1235, ignore.errno());
            assertTrue(ignore.getMessage().contains("UPDATE IGNORE of sharding column 'user_id'"), ignore.getMessage());
            // the new primary key reads a column assigned before it: computed on the old row it would be another value
            ShardwiseException reads = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE users SET name = 'x', user_id = LENGTH(name) + 5000 WHERE user_id = 12"));
            assertEquals(1235, reads.errno());
            assertTrue(reads.getMessage().contains("new primary key value reads a column"), reads.getMessage());
        }
    }
}
