package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plain INSERT ... SELECT (and INSERT IGNORE, REPLACE, INSERT ... WITH) whose SELECT spans shards with a subquery, derived
 * table, set operation, CTE, window function or a join the router cannot prove co-located: its rows read by the federated
 * tier, then inserted row by row by the target's rule. Every write runs through the engine and on the unsharded copy; both
 * report the same affected rows and leave the same table.
 */
class InsertSelectFederatedTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("inselfed");

    /** {@link SampleEngine#sameWrite}, which must succeed (a statement both sides refuse alike would prove nothing). */
    private static String same(String write, String table, String key) throws SQLException {
        String outcome = SAMPLE.sameWrite(write, table, key);
        assertTrue(outcome.startsWith("affected "), write + ": " + outcome);
        return outcome;
    }

    private static long affected(String outcome) {
        assertTrue(outcome.startsWith("affected "), outcome);
        return Long.parseLong(outcome.substring("affected ".length()));
    }

    @Test
    void subqueriesInAndExistsAndScalar() throws SQLException {
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT o.order_id, o.status FROM orders o WHERE o.order_id IN"
                + " (SELECT i.order_id FROM order_items i WHERE i.quantity > 2) AND o.amount > 500", "users", "user_id")) > 0);
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT o.order_id + 1000000, o.status FROM orders o WHERE EXISTS"
                + " (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id AND i.price > 90) AND o.amount < 200", "users", "user_id")) > 0);
        same("INSERT INTO users (user_id, name) SELECT o.order_id + 2000000, 'avg' FROM orders o WHERE o.amount > (SELECT AVG(amount)"
                + " FROM orders) AND o.user_id < 30", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT u.user_id + 3000000, u.name FROM users u WHERE u.user_id NOT IN"
                + " (SELECT user_id FROM orders WHERE amount > 100) AND u.user_id < 1000000", "users", "user_id");
    }

    @Test
    void derivedTablesUnionsAndCtes() throws SQLException {
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT d.n + 4000000, d.status FROM (SELECT status, COUNT(*) AS n"
                + " FROM orders GROUP BY status) d", "users", "user_id")) > 0);
        same("INSERT INTO users (user_id, name) SELECT user_id + 5000000, 'o' FROM orders WHERE amount > 900 AND user_id < 1000000 UNION"
                + " SELECT user_id + 5000000, 'o' FROM order_items WHERE quantity > 4 AND user_id < 1000000", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, COUNT(*) AS n FROM order_items GROUP BY user_id)"
                + " SELECT c.user_id + 6000000, CONCAT('n', c.n) FROM c WHERE c.n > 1 AND c.user_id < 1000000", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH RECURSIVE r (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 6)"
                + " SELECT r.k + 6500000, (SELECT MAX(status) FROM orders) FROM r", "users", "user_id");
    }

    @Test
    void windowFunctionsAndJoinsAcrossShards() throws SQLException {
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT o.order_id + 7000000, CONCAT('r', ROW_NUMBER() OVER"
                + " (ORDER BY o.amount DESC, o.order_id)) FROM orders o WHERE o.amount > 700", "users", "user_id")) > 0);
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT i.item_id + 8000000, o.status FROM order_items i"
                + " JOIN orders o ON o.order_id = i.order_id WHERE i.quantity > 3", "users", "user_id")) > 0);
        same("INSERT INTO users (user_id, name, country_code) SELECT u.user_id + 9000000, c.name, c.code FROM users u JOIN countries c"
                + " ON c.code = u.country_code JOIN (SELECT user_id, MAX(amount) AS m FROM orders GROUP BY user_id) d ON d.user_id = u.user_id"
                + " WHERE d.m > 800 AND u.user_id < 1000000", "users", "user_id");
    }

    @Test
    void ignoreReplaceAndTheTargetReadByItsSelect() throws SQLException {
        // MySQL reads the whole SELECT before it inserts: the rows it inserts are not read again
        same("INSERT INTO users (user_id, name) SELECT u.user_id + 10000000, u.name FROM users u WHERE u.user_id IN"
                + " (SELECT user_id FROM orders WHERE amount > 850) AND u.user_id < 1000000", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT u.user_id + 11000000, 's' FROM users u WHERE u.user_id >"
                + " (SELECT AVG(user_id) FROM users WHERE user_id < 1000000) AND u.user_id < 1000000", "users", "user_id");
        assertEquals("error 1062", SAMPLE.sameWrite("INSERT INTO users (user_id, name) SELECT u.user_id, 'dup' FROM users u WHERE u.user_id IN"
                + " (SELECT user_id FROM orders WHERE amount > 850)", "users", "user_id"));
        same("INSERT IGNORE INTO users (user_id, name) SELECT u.user_id + IF(u.user_id % 2 = 0, 0, 12000000), 'ign' FROM users u"
                + " WHERE u.user_id IN (SELECT user_id FROM orders WHERE amount > 600) AND u.user_id < 1000000", "users", "user_id");
        assertTrue(affected(same("REPLACE INTO users (user_id, name) SELECT u.user_id, 'rep' FROM users u WHERE u.user_id IN"
                + " (SELECT user_id FROM orders WHERE amount > 600)", "users", "user_id")) > 0, "rows deleted and inserted again");
        // a user's id near the BIGINT maximum overflows (MariaDB's 1690, nothing written); INSERT IGNORE makes it a warning
        assertEquals("error 1690", SAMPLE.sameWrite("REPLACE INTO users (user_id, name) SELECT u.user_id + (u.user_id % 2) * 13000000,"
                + " 'rep' FROM users u WHERE u.user_id IN (SELECT user_id FROM orders WHERE amount > 600)", "users", "user_id"));
        same("INSERT INTO countries (code, name) SELECT CONCAT('Q', COUNT(*) % 10), 'q' FROM orders o WHERE o.order_id IN"
                + " (SELECT order_id FROM order_items WHERE quantity > 4)", "countries", "code");
    }

    @Test
    void theInfoCountsRecordsAndDuplicates() throws SQLException {
        String from = " FROM users WHERE user_id IN (SELECT user_id FROM orders WHERE amount > 900)";
        long records = Long.parseLong(SAMPLE.direct("SELECT COUNT(*)" + from).get(0).replace("|", ""));
        assertTrue(records > 2, "rows of both kinds below");
        String[] heads = {"INSERT INTO users (user_id, name) SELECT user_id + 14000000, 'i'",
            "INSERT IGNORE INTO users (user_id, name) SELECT user_id + IF(user_id % 3 = 0, 0, 15000000), 'i'",
            "REPLACE INTO users (user_id, name) SELECT user_id + IF(user_id % 3 = 0, 0, 16000000), 'r'"};
        for (String head : heads) {
            String write = head + from;
            long direct = affected(SAMPLE.directWrite(write));
            try (EngineSession s = engine().openSession()) {
                StatementResult.Update u = (StatementResult.Update) s.execute(write);
                assertEquals(direct, u.affectedRows(), write);
                long duplicates = head.startsWith("REPLACE") ? direct - records : head.startsWith("INSERT IGNORE") ? records - direct : 0;
                assertEquals("Records: " + records + "  Duplicates: " + duplicates + "  Warnings: " + u.warnings(), u.info(), write);
                assertEquals(SAMPLE.direct("SELECT * FROM users ORDER BY user_id"), SampleEngine.rows(s, "SELECT * FROM users ORDER BY user_id"));
            }
        }
    }

    private static Engine engine() {
        return SAMPLE.engine();
    }

    @Test
    void generatedKeysAndLastInsertId() {
        try (EngineSession s = engine().openSession()) {
            StatementResult.Update u = (StatementResult.Update) s.execute("INSERT INTO orders (user_id, status, amount, created_at)"
                    + " SELECT u.user_id, 'gen', 1.00, '2026-01-01 00:00:00' FROM users u WHERE u.user_id IN (SELECT user_id FROM orders"
                    + " WHERE amount > 950) ORDER BY u.user_id");
            assertTrue(u.affectedRows() > 1);
            assertEquals(u.affectedRows(), u.generatedKeys().size());
            assertEquals(u.generatedKeys().get(0), u.lastInsertId(), "the first generated id");
            assertEquals(u.lastInsertId(), s.lastInsertId());
            s.execute("DELETE FROM orders WHERE status = 'gen'");
        }
    }

    @Test
    void nothingTheRouteAnswersMoves() throws SQLException {
        long before = engine().federatedStatements();
        same("INSERT INTO users (user_id, name) SELECT user_id + 17000000, name FROM users WHERE user_id < 20", "users", "user_id");
        assertEquals(before, engine().federatedStatements(), "a SELECT the merger answers stays there");
    }
}
