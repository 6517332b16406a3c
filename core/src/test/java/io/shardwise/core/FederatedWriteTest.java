package io.shardwise.core;

import static io.shardwise.core.SampleEngine.affected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * UPDATE and DELETE with subqueries over other shards (the third tier's writes) and locking reads of
 * the third tier, on real backends: every write runs through the engine and on the unsharded copy,
 * and both must report the same affected rows (or error) and leave the same table.
 */
class FederatedWriteTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("fedwrite");

    /** {@link SampleEngine#sameWrite}. */
    private static String same(String write, String table, String key) throws SQLException {
        return SAMPLE.sameWrite(write, table, key);
    }

    @Test
    void updateWithInSubqueryOverAnotherShardedTableChangesWhatOneMysqlChanges() throws SQLException {
        long before = SAMPLE.engine().federatedStatements();
        assertTrue(affected(same("UPDATE users SET name = CONCAT(name, '!') WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 300)",
                "users", "user_id")) > 0);
        assertEquals(before + 1, SAMPLE.engine().federatedStatements());
        assertTrue(affected(same("UPDATE sbtest1 SET k = k + 1 WHERE k IN (SELECT quantity FROM order_items WHERE price > 50)",
                "sbtest1", "id")) > 0, "a target whose nodes carry the logical name; a subquery table not bound to it");
    }

    @Test
    void correlatedSubqueriesInWhereAndSetSeeWholeTables() throws SQLException {
        assertTrue(affected(same("UPDATE orders o SET amount = amount + 1 WHERE EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.order_id = o.order_id AND i.quantity > 3)", "orders", "order_id")) > 0);
        assertTrue(affected(same("UPDATE orders SET amount = (SELECT MAX(price) FROM order_items i WHERE i.order_id = orders.order_id)"
                + " WHERE status = 'paid'", "orders", "order_id")) > 0);
        assertTrue(affected(same("UPDATE users u SET email = (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id)"
                + " WHERE u.user_id < 40", "users", "user_id")) > 0, "a scalar subquery per row in SET");
    }

    @Test
    void deleteWithSubqueriesAndThePrunedTargetNodes() throws SQLException {
        assertTrue(affected(same("DELETE FROM order_items WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = order_items.order_id"
                + " AND o.amount < 200)", "order_items", "item_id")) > 0);
        same("DELETE FROM users WHERE user_id IN (3, 7, 8) AND user_id NOT IN (SELECT user_id FROM orders WHERE status = 'paid')",
                "users", "user_id");
        same("DELETE FROM orders WHERE user_id = 5 AND amount < (SELECT AVG(amount) FROM orders o2 WHERE o2.status = 'paid')",
                "orders", "order_id");
    }

    @Test
    void aWriteRoutedToOneNodeStillReadsItsSubqueriesTablesWhole() throws SQLException {
        long before = SAMPLE.engine().federatedStatements();
        assertTrue(affected(same("UPDATE orders SET amount = (SELECT COUNT(*) FROM order_items) WHERE user_id = 3", "orders", "order_id")) > 0,
                "the node of user 3 holds a part of order_items only");
        same("DELETE FROM users WHERE user_id = 2 AND user_id IN (SELECT o.user_id FROM orders o WHERE o.amount > 100)", "users", "user_id");
        assertEquals(before + 2, SAMPLE.engine().federatedStatements());
    }

    @Test
    void singleAndBroadcastTargetsReadShardedSubqueries() throws SQLException {
        same("UPDATE promotions SET discount = discount + 1 WHERE id <= (SELECT COUNT(*) FROM orders WHERE amount > 450)",
                "promotions", "id");
        assertEquals("affected " + SAMPLE.direct("SELECT COUNT(*) FROM countries WHERE code IN (SELECT country_code FROM users)").get(0)
                .replace("|", ""), same("UPDATE countries SET name = CONCAT(name, '*') WHERE code IN (SELECT country_code FROM users)",
                "countries", "code"), "every copy changes; the change counts once");
    }

    @Test
    void errorsAreMysqlsAndLeaveEveryShardAsItWas() throws SQLException {
        assertEquals("error " + ErrorCode.SUBQUERY_MORE_THAN_ONE_ROW.errno(),
                same("UPDATE users SET name = (SELECT status FROM orders WHERE amount > 1) WHERE user_id > 2", "users", "user_id"));
        assertEquals("error 1054", same("DELETE FROM orders WHERE nope IN (SELECT user_id FROM users)", "orders", "order_id"));
    }

    @Test
    void theCopiesAreDroppedAlsoWhenTheWriteFails() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("BEGIN");
            // sbtest1's nodes carry its logical name, so its copy is shardwise_fed_sbtest1: a name the session can read back
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE users SET name = (SELECT c FROM sbtest1) WHERE user_id > 0"));
            assertEquals(ErrorCode.SUBQUERY_MORE_THAN_ONE_ROW.errno(), e.errno());
            ShardwiseException gone = assertThrows(ShardwiseException.class, () -> s.execute("SELECT COUNT(*) FROM shardwise_fed_sbtest1"),
                    "the copy on the transaction's connection is gone");
            assertEquals(ErrorCode.NO_SUCH_TABLE.errno(), gone.errno());
            s.execute("ROLLBACK");
        }
    }

    @Test
    void insideATransactionTheWriteIsTheTransactionsAndRollsBackWithIt() throws SQLException {
        String read = "SELECT user_id, name FROM users ORDER BY user_id";
        try (EngineSession s = SAMPLE.engine().openSession()) {
            List<String> before = SampleEngine.rows(s, read);
            s.execute("BEGIN");
            long changed = assertInstanceOf(StatementResult.Update.class, s.execute(
                    "UPDATE users SET name = 'tx' WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 100)")).affectedRows();
            assertTrue(changed > 0);
            assertEquals(changed, SampleEngine.rows(s, "SELECT COUNT(*) FROM users WHERE name = 'tx'").size() == 1
                    ? Long.parseLong(SampleEngine.rows(s, "SELECT COUNT(*) FROM users WHERE name = 'tx'").get(0).replace("|", "")) : -1);
            s.execute("ROLLBACK");
            assertEquals(before, SampleEngine.rows(s, read));
            assertEquals(SAMPLE.direct(read), SampleEngine.rows(s, read));
        }
    }

    @Test
    void aSubqueryReadingTheTargetItselfReadsItAsItWasBeforeTheWriteAsMariadbDoes() throws SQLException {
        assertTrue(affected(same("UPDATE orders SET amount = 0 WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 480)",
                "orders", "order_id")) > 0);
        assertTrue(affected(same("DELETE FROM orders WHERE amount > (SELECT AVG(amount) * 2 FROM orders o2 WHERE o2.status = orders.status)",
                "orders", "order_id")) > 0, "an unaliased target, an aliased subquery reference: orders.status is the target's");
        assertTrue(affected(same("UPDATE users u SET name = CONCAT(name, '^') WHERE EXISTS (SELECT 1 FROM users WHERE users.user_id"
                + " = u.user_id - 1)", "users", "user_id")) > 0, "an aliased target: users.user_id is the subquery's");
        same("UPDATE orders o SET amount = (SELECT MAX(amount) FROM orders WHERE orders.user_id = o.user_id) WHERE o.user_id < 30",
                "orders", "order_id");
        assertTrue(affected(same("UPDATE orders SET amount = amount + 0.01 WHERE order_id IN (SELECT order_id FROM orders WHERE orders.amount > 300)",
                "orders", "order_id")) > 0, "both unaliased: orders.amount inside the subquery is the subquery's");
        same("UPDATE orders SET amount = orders.amount + 1 WHERE orders.user_id < 9 AND EXISTS (SELECT 1 FROM orders WHERE orders.amount > 400)"
                + " AND EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = orders.order_id)", "orders", "order_id");
        same("DELETE FROM orders WHERE orders.amount < 20 AND orders.amount < (SELECT AVG(orders.amount) FROM orders WHERE orders.status"
                + " = 'paid' AND orders.user_id IN (SELECT u.user_id FROM users u WHERE u.user_id > orders.user_id - 50))", "orders", "order_id");
    }

    @Test
    void orderByAndLimitOverSeveralNodesChooseTheRowsOneMysqlChooses() throws SQLException {
        long before = SAMPLE.engine().federatedStatements();
        assertEquals("affected 3", same("UPDATE orders SET amount = amount + 1 WHERE user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)"
                + " ORDER BY amount DESC, order_id LIMIT 3", "orders", "order_id"));
        assertTrue(SAMPLE.engine().federatedStatements() > before, "the choice and the write by key both on the third tier");
        assertEquals("affected 2", same("DELETE FROM order_items WHERE order_id IN (SELECT order_id FROM orders WHERE amount > 100)"
                + " ORDER BY price, item_id LIMIT 2", "order_items", "item_id"));
        assertEquals("affected 4", same("UPDATE users u SET name = CONCAT(name, '<') WHERE EXISTS (SELECT 1 FROM orders o"
                + " WHERE o.user_id = u.user_id) ORDER BY u.user_id DESC LIMIT 4", "users", "user_id"));
        assertEquals("affected 2", same("DELETE FROM orders WHERE amount > (SELECT AVG(amount) FROM orders o2) ORDER BY order_id LIMIT 2",
                "orders", "order_id"), "a subquery over the target itself: chosen and written over the rows as they were");
        assertEquals("affected 0", same("UPDATE orders SET amount = 1 WHERE user_id IN (SELECT user_id FROM users) ORDER BY order_id LIMIT 0",
                "orders", "order_id"));
        assertEquals("affected 0", same("DELETE FROM orders WHERE order_id IN (SELECT order_id FROM order_items WHERE price < 0)"
                + " ORDER BY order_id LIMIT 5", "orders", "order_id"));
        assertEquals("error 1054", same("UPDATE orders SET nope = 1 WHERE user_id IN (SELECT user_id FROM users) ORDER BY order_id LIMIT 1",
                "orders", "order_id"));
    }

    @Test
    void subqueriesOverTablesWithNoNodeOnASiteReadCopiesMadeFromTheirDefinitions() throws SQLException {
        assertTrue(affected(same("UPDATE users SET name = CONCAT(name, '%') WHERE user_id IN (SELECT id FROM promotions)", "users", "user_id")) > 0,
                "promotions lives on ds1 alone: ds0's site copies it");
        same("DELETE FROM orders WHERE amount > (SELECT MAX(discount) * 10 FROM promotions) AND user_id < 20", "orders", "order_id");
        same("UPDATE orders SET status = 'evt' WHERE user_id IN (SELECT id FROM events WHERE kind IS NOT NULL)", "orders", "order_id");
        same("UPDATE promotions SET discount = discount + 1 WHERE id IN (SELECT id FROM events)", "promotions", "id");
        same("UPDATE orders SET status = 'p' WHERE user_id IN (SELECT id FROM promotions) ORDER BY order_id DESC LIMIT 2", "orders", "order_id");
    }

    @Test
    void aWritesCopiesShipOnlyTheColumnsAndRowsItsSubqueriesRead() throws SQLException {
        // a subquery's own conjunct on the sharding key leaves one node of order_items to read; the rest is never shipped
        assertTrue(affected(same("UPDATE users SET name = CONCAT(name, '~') WHERE user_id IN (SELECT user_id FROM order_items"
                + " WHERE user_id = 7 AND quantity > 1)", "users", "user_id")) >= 0);
        same("DELETE FROM order_items WHERE order_id IN (SELECT o.order_id FROM orders o WHERE o.status = 'cancelled' AND o.amount > 200)",
                "order_items", "item_id");
        same("UPDATE orders o SET amount = (SELECT MAX(price) FROM order_items i WHERE i.order_id = o.order_id AND i.sku LIKE 'S%')"
                + " WHERE o.user_id IN (3, 4)", "orders", "order_id");
    }

    @Test
    void previewAndExplainShowTheFederatedWritesStepsAndRunNothing() throws SQLException {
        String write = "UPDATE users SET name = 'never' WHERE user_id IN (SELECT user_id FROM order_items WHERE user_id = 7 AND quantity > 1)";
        try (EngineSession s = SAMPLE.engine().openSession()) {
            io.shardwise.core.route.RoutePlan plan = s.preview(write, List.of());
            assertEquals(io.shardwise.core.route.RouteKind.FEDERATED, plan.kind());
            String steps = plan.units().stream().map(u -> u.backend() + ": " + u.sql()).toList().toString();
            assertTrue(steps.contains("CREATE TEMPORARY TABLE"), steps);
            assertTrue(steps.contains("UPDATE users_0 SET name = 'never'"), steps);
            assertTrue(steps.contains("(user_id = 7)") && steps.contains("(quantity > 1)"), "the subquery's conjuncts pushed: " + steps);
            assertTrue(s.preview("DELETE FROM orders WHERE user_id IN (SELECT user_id FROM users) ORDER BY order_id LIMIT 2", List.of()).units()
                    .stream().anyMatch(u -> u.sql().contains("FOR UPDATE")), "an ORDER BY / LIMIT over nodes: the choosing SELECT first");
            assertTrue(SampleEngine.rows(s, "EXPLAIN " + write).size() > 3);
            assertEquals(0, SampleEngine.rows(s, "SELECT * FROM users WHERE name = 'never'").size(), "nothing ran");
        }
    }

    @Test
    void anOrderByTheMergerRefusesIsChosenByTheFederatedTierThenWrittenByKey() throws SQLException {
        long before = SAMPLE.engine().federatedStatements();
        assertEquals("affected 3", same("UPDATE orders SET status = 'top' ORDER BY (SELECT MAX(i.price) FROM order_items i"
                + " WHERE i.order_id = orders.order_id) DESC, order_id LIMIT 3", "orders", "order_id"));
        assertTrue(SAMPLE.engine().federatedStatements() > before, "the choice on the third tier");
        assertEquals("affected 2", same("DELETE FROM order_items ORDER BY user_id IN (SELECT user_id FROM users WHERE name IS NULL) DESC,"
                + " item_id LIMIT 2", "order_items", "item_id"));
        assertEquals("affected 4", same("UPDATE users u SET name = CONCAT(name, '>') WHERE u.user_id > 10 ORDER BY (SELECT COUNT(*)"
                + " FROM orders o WHERE o.user_id = u.user_id), u.user_id DESC LIMIT 4", "users", "user_id"));
        assertEquals("affected 2", same("UPDATE orders SET amount = amount + 1 WHERE user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)"
                + " ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.order_id = orders.order_id), order_id DESC LIMIT 2", "orders", "order_id"),
                "subqueries in WHERE and ORDER BY");
        assertEquals("error 1242", same("UPDATE orders SET status = 'x' ORDER BY (SELECT user_id FROM users) LIMIT 1", "orders", "order_id"),
                "MySQL's error from a subquery of several rows");
        try (EngineSession s = SAMPLE.engine().openSession()) {
            assertTrue(s.preview("DELETE FROM orders ORDER BY (SELECT MAX(price) FROM order_items i WHERE i.order_id = orders.order_id), order_id"
                    + " LIMIT 2", List.of()).units().stream().anyMatch(u -> u.sql().contains("FOR UPDATE")), "the choosing SELECT first");
        }
    }

    @Test
    void aWriteRoutedToOneNodeChoosesByAnOrderBySubqueryOverWholeTables() throws SQLException {
        // the WHERE routes the write to one node; the ORDER BY's subquery reads other nodes' rows too, so only its whole-table
        // values choose the rows one MySQL chooses (on the node alone, its rows' values are that node's part)
        same("UPDATE orders SET status = 'one' WHERE user_id = 3 ORDER BY (SELECT COUNT(*) FROM order_items i"
                + " WHERE i.user_id = MOD(orders.order_id, 50)) DESC, order_id LIMIT 2", "orders", "order_id");
        same("DELETE FROM order_items WHERE user_id = 6 ORDER BY (SELECT MAX(x.amount) FROM orders x WHERE x.user_id = MOD(order_items.item_id, 50)),"
                + " item_id LIMIT 1", "order_items", "item_id");
        same("UPDATE users SET name = CONCAT(name, '^') WHERE user_id IN (4, 8) ORDER BY (SELECT COUNT(*) FROM orders x"
                + " WHERE x.user_id = MOD(users.user_id + 1, 50)) DESC, user_id LIMIT 1", "users", "user_id");
        same("UPDATE orders SET amount = amount + 1 WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items)"
                + " ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.user_id = MOD(orders.order_id, 50)) DESC, order_id LIMIT 1",
                "orders", "order_id");
    }

    /** {@code <order id> AND user_id = <its user>} of an order on node {@code node} (user_id mod 4) whose user has a name. */
    private static String orderOn(EngineSession s, int node) {
        String[] row = SampleEngine.rows(s, "SELECT o.order_id, o.user_id FROM orders o WHERE o.user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL"
                + " AND MOD(user_id, 4) = " + node + ") ORDER BY o.order_id LIMIT 1").get(0).split("\\|");
        return row[0] + " AND user_id = " + row[1];
    }

    private static final String LOCKING_READ =
            "SELECT COUNT(*) FROM orders WHERE user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)";

    @Test
    void aFederatedLockingReadInATransactionLocksTheRowsItReadOnTheirNodes() {
        for (String clause : List.of(" FOR UPDATE", " LOCK IN SHARE MODE")) {
            try (EngineSession reader = SAMPLE.engine().openSession(); EngineSession writer = SAMPLE.engine().openSession()) {
                writer.execute("SET SESSION innodb_lock_wait_timeout = 1");
                List<String> expected = SampleEngine.rows(writer, LOCKING_READ);
                String coordinatorOrder = orderOn(writer, 1);
                String shippedOrder = orderOn(writer, 2);
                String user = orderOn(writer, 3).split(" AND ")[1].replace("user_id = ", "");
                long before = SAMPLE.engine().federatedStatements();
                reader.execute("BEGIN");
                assertEquals(expected, SampleEngine.rows(reader, LOCKING_READ + clause));
                assertEquals(before + 1, SAMPLE.engine().federatedStatements(), "the third tier answered");
                for (String write : List.of("UPDATE orders SET status = status WHERE order_id = " + coordinatorOrder,
                        "UPDATE orders SET status = status WHERE order_id = " + shippedOrder, // a node shipped from ds1
                        "UPDATE users SET name = name WHERE user_id = " + user)) {
                    ShardwiseException blocked = assertThrows(ShardwiseException.class, () -> writer.execute(write), write + clause);
                    assertEquals(ErrorCode.LOCK_WAIT_TIMEOUT.errno(), blocked.errno(), write + clause);
                }
                reader.execute("ROLLBACK");
                assertInstanceOf(StatementResult.Update.class, writer.execute("UPDATE orders SET status = status WHERE order_id = "
                        + shippedOrder));
            }
        }
    }

    @Test
    void aLockingReadWhoseCopiesArePushedRepeatsItsClauseAfterTheirWhere() {
        try (EngineSession reader = SAMPLE.engine().openSession(); EngineSession writer = SAMPLE.engine().openSession()) {
            writer.execute("SET SESSION innodb_lock_wait_timeout = 1");
            String coordinatorOrder = orderOn(writer, 1);
            String shippedOrder = orderOn(writer, 2);
            String read = "SELECT COUNT(*) FROM orders o WHERE o.user_id IN (" + coordinatorOrder.split(" = ")[1] + ", "
                    + shippedOrder.split(" = ")[1] + ") AND o.user_id IN (SELECT user_id FROM users WHERE name IS NOT NULL)";
            List<String> expected = SampleEngine.rows(writer, read);
            // the copy of orders reads only the two users' nodes, through the pushed conjunct
            List<String> steps = new java.util.ArrayList<>();
            for (io.shardwise.core.route.ExecutionUnit u : reader.preview(read + " FOR UPDATE", List.of()).units()) {
                if (u.sql().contains("FROM `orders_")) {
                    steps.add(u.sql());
                }
            }
            assertEquals(2, steps.size(), steps::toString);
            for (String step : steps) {
                assertTrue(step.contains("AS `o` WHERE (o.user_id IN ("), step);
            }
            long before = SAMPLE.engine().federatedStatements();
            reader.execute("BEGIN");
            assertEquals(expected, SampleEngine.rows(reader, read + " FOR UPDATE"));
            assertEquals(before + 1, SAMPLE.engine().federatedStatements(), "the third tier answered");
            for (String write : List.of("UPDATE orders SET status = status WHERE order_id = " + coordinatorOrder,
                    "UPDATE orders SET status = status WHERE order_id = " + shippedOrder)) {
                ShardwiseException blocked = assertThrows(ShardwiseException.class, () -> writer.execute(write), write);
                assertEquals(ErrorCode.LOCK_WAIT_TIMEOUT.errno(), blocked.errno(), write);
            }
            reader.execute("ROLLBACK");
        }
    }

    @Test
    void anAutocommitLockingReadLocksNothingAsInMysql() {
        try (EngineSession reader = SAMPLE.engine().openSession(); EngineSession writer = SAMPLE.engine().openSession()) {
            writer.execute("SET SESSION innodb_lock_wait_timeout = 1");
            String order = orderOn(writer, 2);
            assertEquals(SampleEngine.rows(writer, LOCKING_READ), SampleEngine.rows(reader, LOCKING_READ + " FOR UPDATE"));
            assertInstanceOf(StatementResult.Update.class, writer.execute("UPDATE orders SET status = status WHERE order_id = " + order));
        }
    }

    @Test
    void aFederatedWriteHoldsItsTargetRowsAndSharesTheRowsItsSubqueriesReadUntilTheTransactionEnds() {
        try (EngineSession first = SAMPLE.engine().openSession(); EngineSession second = SAMPLE.engine().openSession()) {
            second.execute("SET SESSION innodb_lock_wait_timeout = 1");
            first.execute("BEGIN");
            String order = orderOn(second, 2);
            first.execute("UPDATE users SET email = email WHERE user_id IN (SELECT user_id FROM orders)");
            // the copy reads orders' user_id only (as MySQL's own semi-join may, through its index): a change of what it
            // read waits; deleting the order would
            second.execute("BEGIN");
            ShardwiseException blocked = assertThrows(ShardwiseException.class,
                    () -> second.execute("DELETE FROM orders WHERE order_id = " + order));
            assertEquals(ErrorCode.LOCK_WAIT_TIMEOUT.errno(), blocked.errno());
            String count = "SELECT COUNT(*) FROM orders WHERE order_id = " + order;
            assertEquals(SampleEngine.rows(first, count), SampleEngine.rows(second, count), "shared locks: plain reads go on");
            first.execute("COMMIT");
            assertInstanceOf(StatementResult.Update.class, second.execute("DELETE FROM orders WHERE order_id = " + order));
            second.execute("ROLLBACK");
        }
    }
}
