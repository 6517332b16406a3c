package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * INSERT ... VALUES giving a sharded table's key as an expression, on real backends: the key evaluated once per row, the
 * row routed by its value; the same affected rows and table as one database, or a 1235 naming why it cannot be exact.
 */
class ComputedKeyInsertTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("computedkey");

    @Test
    void expressionsOfLiteralsAreEvaluatedThenRouted() throws SQLException {
        assertEquals("affected 3", SAMPLE.sameWrite("INSERT INTO users (user_id, name) VALUES (40000 + 1, 'sum'), (2 * 20001, NULL),"
                + " (CAST('40003' AS UNSIGNED), 'cast')", "users", "user_id"));
        assertEquals("affected 2", SAMPLE.sameWrite("INSERT INTO orders (order_id, user_id, status, created_at) VALUES (400001, 3 * 7, 'c', '2025-01-01'),"
                + " (400002, LENGTH('abcd'), NULL, DATE_ADD('2025-01-01', INTERVAL 1 DAY))", "orders", "order_id"), "the other values stay as written");
        SAMPLE.sameWrite("INSERT INTO users (user_id, name) VALUES (40000 + 1, 'dup'), (40100 + 1, 'new') ON DUPLICATE KEY UPDATE name = CONCAT(users.name, '+')",
                "users", "user_id");
        assertEquals("error 1062", SAMPLE.sameWrite("INSERT INTO users (user_id, name) VALUES (40200, 'half'), (40000 + 1, 'duplicate')", "users", "user_id"));
    }

    @Test
    void insertSetIsReadAsItsValuesForm() throws SQLException {
        assertEquals("affected 1", SAMPLE.sameWrite("INSERT INTO users SET user_id = 41000 + 1, name = 'set-sum'", "users", "user_id"));
        assertEquals("affected 1", SAMPLE.sameWrite("INSERT INTO orders SET order_id = 410001, user_id = LENGTH('abc') * 7, status = CONCAT('s', 'et'),"
                + " created_at = '2025-02-03'", "orders", "order_id"));
        assertEquals("affected 2", SAMPLE.sameWrite("INSERT INTO users SET user_id = 41000 + 1, name = 'again' ON DUPLICATE KEY UPDATE"
                + " name = CONCAT(users.name, '+', VALUES(name))", "users", "user_id"), "updated");
        try (EngineSession s = SAMPLE.engine().openSession()) {
            StatementResult.Update u = (StatementResult.Update) s.execute("INSERT INTO users SET name = ?, user_id = ? + 2",
                    java.util.Arrays.asList("set-param", 41010L));
            assertEquals(1, u.affectedRows());
            assertEquals(List.of("41012|set-param|"), SampleEngine.rows(s, "SELECT user_id, name FROM users WHERE user_id = 41012"));
            s.execute("DELETE FROM users WHERE user_id = 41012"); // a row only the engine's side has
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("INSERT INTO users SET name = 'n', user_id = LENGTH(name)"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code(), "a key naming a column of its row: " + e.getMessage());
        }
    }

    @Test
    void aNonDeterministicKeyIsEvaluatedOnceAndItsRowFoundByIt() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("INSERT INTO users (user_id, name) VALUES (50000 + CAST(RAND() * 100000 AS UNSIGNED), 'rand-once')");
            List<String> id = SampleEngine.rows(s, "SELECT user_id FROM users WHERE name = 'rand-once'");
            assertEquals(1, id.size(), "one row: " + id);
            assertEquals(List.of("rand-once|"), SampleEngine.rows(s, "SELECT name FROM users WHERE user_id = " + id.get(0).replace("|", "")),
                    "on the node its key routes to");
            s.execute("DELETE FROM users WHERE name = 'rand-once'"); // a row only the engine's side has
        }
    }

    @Test
    void keysThatCannotBeEvaluatedApartAreRefusedWithTheirReason() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String sql : List.of("INSERT INTO users (user_id, name) VALUES (LENGTH(name) + 1, 'x')",
                    "INSERT INTO users (user_id, name) VALUES (@@server_id, 'x')",
                    "INSERT INTO users (user_id, name) VALUES (CONNECTION_ID(), 'x')",
                    "INSERT INTO users (user_id, name) VALUES (RAND() * 1000, 'x')",
                    "INSERT INTO users (user_id, name) VALUES ((SELECT MAX(user_id) FROM users) + 1, 'x')",
                    "INSERT INTO users (user_id, name) VALUES ('40005x' + 0, 'x')")) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(sql), sql);
                assertEquals(ErrorCode.UNSUPPORTED, e.code(), sql + ": " + e.getMessage());
                assertTrue(e.getMessage().contains("sharding column 'user_id'"), e.getMessage());
            }
        }
    }

    @Test
    void lastInsertIdIsTheSessionsValue() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            long before = s.lastInsertId();
            s.execute("INSERT INTO users (user_id, name) VALUES (LAST_INSERT_ID() + 60000, 'lid')");
            assertEquals(List.of("lid|"), SampleEngine.rows(s, "SELECT name FROM users WHERE user_id = " + (before + 60000)));
            s.execute("DELETE FROM users WHERE name = 'lid'"); // a row only the engine's side has
        }
    }

    @Test
    void lastInsertIdKeepsItsValueAfterRowsGivingTheirOwnIds() {
        // sbtest1's id is AUTO_INCREMENT: rows giving their own ids report the last one as the insert id, and
        // MySQL's LAST_INSERT_ID() stays as it was (0 on a new connection)
        try (EngineSession s = SAMPLE.engine().openSession()) {
            StatementResult.Update u = (StatementResult.Update) s.execute(
                    "INSERT INTO sbtest1 (id, k, c, pad) SELECT id + 5000, k, c, pad FROM sbtest1 WHERE id BETWEEN 1 AND 3 ORDER BY id");
            assertEquals(5003, u.lastInsertId(), "the last row's id");
            u = (StatementResult.Update) s.execute("INSERT INTO sbtest1 (id, k, c, pad) VALUES (5010, 1, 'c', 'p'), (5011, 1, 'c', 'p')");
            assertEquals(5011, u.lastInsertId(), "the last row's id");
            assertEquals(0, s.lastInsertId());
            s.execute("INSERT INTO users (user_id, name) VALUES (LAST_INSERT_ID() + 61000, 'lid0')");
            assertEquals(List.of("lid0|"), SampleEngine.rows(s, "SELECT name FROM users WHERE user_id = 61000"));
            s.execute("DELETE FROM users WHERE name = 'lid0'"); // rows only the engine's side has
            s.execute("DELETE FROM sbtest1 WHERE id BETWEEN 5001 AND 5011");
        }
    }

    @Test
    void lastInsertIdThatCannotBeKnownIsRefusedInAKey() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            // a relayed write's insert id without its row's own value (the relay knew no AUTO_INCREMENT column): generated or given?
            s.relayedWrite(777, null);
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("INSERT INTO users (user_id, name) VALUES (LAST_INSERT_ID() + 61000, 'lid1')"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            assertTrue(e.getMessage().contains("LAST_INSERT_ID()"), e.getMessage());
            s.relayedWrite(778, "5"); // a generated id: known again
            s.execute("INSERT INTO users (user_id, name) VALUES (LAST_INSERT_ID() + 61000, 'lid1')");
            assertEquals(List.of("lid1|"), SampleEngine.rows(s, "SELECT name FROM users WHERE user_id = 61778"));
            s.execute("DELETE FROM users WHERE name = 'lid1'"); // a row only the engine's side has
        }
    }
}
