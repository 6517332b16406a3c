package io.shardwise.core;

import static io.shardwise.core.SampleEngine.affected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * INSERT ... SELECT ... ON DUPLICATE KEY UPDATE naming sharded and broadcast tables, on real backends: every write runs
 * through the engine and on the unsharded copy; both report the same affected rows (or error) and leave the same table.
 */
class InsertSelectUpdateTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("odkusel");
    private static Engine engine;

    @BeforeAll
    static void load() {
        engine = SAMPLE.engine();
    }

    /** {@link SampleEngine#sameWrite}. */
    private static String same(String write, String table, String key) throws SQLException {
        return SAMPLE.sameWrite(write, table, key);
    }

    @Test
    void valuesOfTheInsertedRowAndTheTargetsColumns() throws SQLException {
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT user_id, CONCAT(name, '#') FROM users WHERE user_id < 10"
                + " ON DUPLICATE KEY UPDATE name = VALUES(name)", "users", "user_id")) > 0, "every row updated");
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT u.user_id + IF(u.user_id % 2 = 0, 0, 20000), 'odku' FROM users u"
                + " WHERE u.user_id < 14 ON DUPLICATE KEY UPDATE name = CONCAT(users.name, '+')", "users", "user_id")) > 0,
                "half inserted, half updated on several shards");
        same("INSERT INTO users (user_id, name, email) SELECT user_id, name, NULL FROM users WHERE user_id BETWEEN 20 AND 40"
                + " ON DUPLICATE KEY UPDATE email = VALUES(email), name = name", "users", "user_id");
    }

    @Test
    void columnsOfTheSelectsTablesAreTheCurrentSourceRows() throws SQLException {
        assertTrue(affected(same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.amount > 300"
                + " ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = CONCAT(o.status, '-', o.order_id)", "users", "user_id")) > 0);
        same("INSERT INTO users (user_id, email) SELECT u.user_id, u.email FROM users u WHERE u.user_id < 30"
                + " ON DUPLICATE KEY UPDATE email = IFNULL(u.email, 'none'), created_at = NULL", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT u.user_id, u.name FROM users u WHERE u.user_id < 6 ON DUPLICATE KEY UPDATE name = u.name",
                "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT user_id, status FROM orders WHERE amount > 450 ORDER BY order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(status, amount)", "users", "user_id");
    }

    @Test
    void broadcastAndSingleTargets() throws SQLException {
        same("INSERT INTO countries (code, name) SELECT country_code, 'from users' FROM users WHERE country_code IS NOT NULL ORDER BY user_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(countries.name, '.')", "countries", "code");
        same("INSERT INTO promotions (id, code, discount) SELECT user_id, CONCAT('P', user_id), 2.50 FROM users WHERE user_id < 8"
                + " ON DUPLICATE KEY UPDATE discount = discount + VALUES(discount)", "promotions", "id");
    }

    @Test
    void groupedSelectsAndMysqlsErrors() throws SQLException {
        same("INSERT INTO users (user_id, name) SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ON DUPLICATE KEY UPDATE name = VALUES(name)",
                "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT user_id, COUNT(*) FROM orders GROUP BY user_id ON DUPLICATE KEY UPDATE name = status",
                "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT u.user_id, u.name FROM users u WHERE u.user_id < 5 ON DUPLICATE KEY UPDATE name = email",
                "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT u.user_id, 'x' FROM users u WHERE u.user_id < 5 ON DUPLICATE KEY UPDATE name = nope",
                "users", "user_id");
        assertEquals("error 1052", same("INSERT INTO users (user_id, name) SELECT user_id, 'x' FROM users WHERE user_id < 5"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('q', users.name)", "users", "user_id"), "the target and the SELECT's users");
    }

    @Test
    void theShardingColumnKeepsItsValueOrIsRefused() throws SQLException {
        same("INSERT INTO users (user_id, name) SELECT user_id, 'k' FROM users WHERE user_id < 5 ON DUPLICATE KEY UPDATE user_id = VALUES(user_id),"
                + " name = 'kept'", "users", "user_id");
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("INSERT INTO users (user_id, name) SELECT user_id,"
                    + " name FROM users WHERE user_id < 5 ON DUPLICATE KEY UPDATE user_id = user_id + 100000"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
        }
    }

    @Test
    void theInfoCountsRecordsAndChangedRows() {
        try (EngineSession s = engine.openSession()) {
            StatementResult.Update u = (StatementResult.Update) s.execute("INSERT INTO users (user_id, name) SELECT user_id + 90000, 'i'"
                    + " FROM users WHERE user_id BETWEEN 1 AND 4 ON DUPLICATE KEY UPDATE name = 'j'");
            assertEquals(4, u.affectedRows());
            assertEquals("Records: 4  Duplicates: 0  Warnings: 0", u.info());
            u = (StatementResult.Update) s.execute("INSERT INTO users (user_id, name) SELECT u.user_id + 90000, u.name"
                    + " FROM users u WHERE u.user_id BETWEEN 1 AND 4 ON DUPLICATE KEY UPDATE name = CONCAT('j', u.user_id)");
            assertEquals(8, u.affectedRows(), "four changed rows count 2 each");
            assertEquals("Records: 4  Duplicates: 4  Warnings: 0", u.info());
            u = (StatementResult.Update) s.execute("INSERT INTO users (user_id, name) SELECT u.user_id + 90000, 'x'"
                    + " FROM users u WHERE u.user_id BETWEEN 1 AND 4 ON DUPLICATE KEY UPDATE name = CONCAT('j', u.user_id)");
            assertEquals("Records: 4  Duplicates: 0  Warnings: 0", u.info(), "rows left as they were are no duplicates");
            s.execute("DELETE FROM users WHERE user_id BETWEEN 90001 AND 90004"); // rows only the engine's side has
        }
    }

    /** The insert id and then LAST_INSERT_ID() of {@code write} on a new connection to the unsharded copy. */
    private static String directIds(String write) throws SQLException {
        try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement()) {
            st.executeUpdate(write, java.sql.Statement.RETURN_GENERATED_KEYS);
            long id;
            try (java.sql.ResultSet keys = st.getGeneratedKeys()) {
                id = keys.next() ? keys.getLong(1) : 0;
            }
            try (java.sql.ResultSet rs = st.executeQuery("SELECT LAST_INSERT_ID()")) {
                rs.next();
                return "insert id " + id + ", LAST_INSERT_ID() " + rs.getLong(1);
            }
        }
    }

    @Test
    void anExplicitIdNeverCountsAsTheInsertId() throws SQLException {
        // sbtest1's id is AUTO_INCREMENT: MySQL reports an INSERT ... SELECT ... ON DUPLICATE KEY UPDATE's first generated id,
        // else 0 (a row's own id, updated or inserted, does not count), and LAST_INSERT_ID() keeps its value
        for (String write : List.of("INSERT INTO sbtest1 (id, k, c, pad) SELECT id + IF(id % 2 = 0, 0, 20000000), k, c, pad FROM sbtest1 s"
                + " WHERE id = 2 AND id = 500 OR id = 500 ORDER BY id ON DUPLICATE KEY UPDATE k = sbtest1.k + VALUES(k), c = s.pad",
                "INSERT INTO sbtest1 (id, k, c, pad) SELECT id + IF(id % 2 = 0, 0, 20000000), k, c, pad FROM sbtest1 s"
                + " WHERE id BETWEEN 3 AND 8 ORDER BY id ON DUPLICATE KEY UPDATE k = sbtest1.k + 1, c = s.pad",
                "INSERT INTO sbtest1 (id, k, c, pad) SELECT id + 30000000, k, c, pad FROM sbtest1 s WHERE id BETWEEN 3 AND 5 ORDER BY id"
                + " ON DUPLICATE KEY UPDATE k = sbtest1.k + 1")) {
            String expected = directIds(write);
            assertEquals("insert id 0, LAST_INSERT_ID() 0", expected, write);
            try (EngineSession s = engine.openSession()) {
                StatementResult.Update u = (StatementResult.Update) s.execute(write);
                assertEquals(expected, "insert id " + u.lastInsertId() + ", LAST_INSERT_ID() " + s.lastInsertId(), write);
                String read = "SELECT * FROM sbtest1 ORDER BY id";
                assertEquals(SAMPLE.direct(read), SampleEngine.rows(s, read), "the table after " + write);
            }
        }
    }

    @Test
    void anUnknownColumnOfTheClauseIsInUpdate() throws SQLException {
        String write = "INSERT INTO users (user_id, name) SELECT u.user_id, 'x' FROM users u WHERE u.user_id < 5 ON DUPLICATE KEY UPDATE name = nope";
        SQLException direct;
        try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement()) {
            direct = assertThrows(SQLException.class, () -> st.executeUpdate(write));
        }
        assertEquals("Unknown column 'nope' in 'UPDATE'", direct.getMessage(), "MariaDB's words");
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(write));
            assertEquals(direct.getErrorCode(), e.errno());
            assertEquals(direct.getMessage(), e.getMessage());
        }
    }

    @Test
    void theClauseIsCheckedWhenTheSelectReturnsNoRow() throws SQLException {
        // MySQL resolves the clause before it reads a row: an unknown column or function fails an empty INSERT ... SELECT too
        for (String clause : List.of("name = nope", "nope = 1", "name = o.nope", "name = users.nope", "name = nofunc(1)",
                "name = CONCAT(o.status, nope)")) {
            String write = "INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.amount > 100000"
                    + " ON DUPLICATE KEY UPDATE " + clause;
            String outcome = same(write, "users", "user_id");
            assertTrue(outcome.startsWith("error 1054") || outcome.startsWith("error 1305"), write + ": " + outcome);
        }
        String write = "INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE 1 = 0 ON DUPLICATE KEY UPDATE name = nope";
        SQLException direct;
        try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement()) {
            direct = assertThrows(SQLException.class, () -> st.executeUpdate(write));
        }
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(write));
            assertEquals(direct.getErrorCode(), e.errno());
            assertEquals(direct.getMessage(), e.getMessage());
        }
        assertEquals("affected 0", same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE 1 = 0"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(o.status, users.name, VALUES(name))", "users", "user_id"), "a valid clause");
        assertEquals("affected 0", same("INSERT INTO countries (code, name) SELECT country_code, 'none' FROM users WHERE user_id < -5000"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(countries.name, users.name)", "countries", "code"), "a broadcast target");
        assertEquals("error 1054", same("INSERT INTO countries (code, name) SELECT country_code, 'none' FROM users WHERE user_id < -5000"
                + " ON DUPLICATE KEY UPDATE name = nope", "countries", "code"), "a broadcast target");
    }

    @Test
    void columnsOfSelectsWithSubqueriesOrParentheses() throws SQLException {
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.user_id IN (SELECT u.user_id FROM users u"
                + " WHERE u.country_code = 'CH') ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = CONCAT('Z', o.status, o.order_id)",
                "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT o.user_id, (SELECT MAX(name) FROM users) FROM orders o WHERE o.amount > 900"
                + " ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = CONCAT(status, '/', amount)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i"
                + " WHERE i.order_id = o.order_id AND i.user_id = o.user_id) AND o.user_id < 20 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT(o.order_id, '')", "users", "user_id");
        same("INSERT INTO users (user_id, name) (SELECT o.user_id, o.status FROM orders o WHERE o.user_id < 3 ORDER BY o.order_id)"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('P', o.status, o.order_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) (SELECT user_id, status FROM orders WHERE user_id BETWEEN 3 AND 5 ORDER BY order_id DESC)"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('Q', status, order_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.user_id IN (SELECT user_id FROM users)"
                + " AND o.user_id < 4 ORDER BY o.order_id ON DUPLICATE KEY UPDATE name = nope", "users", "user_id");
    }

    @Test
    void distinctAndSetOperationsNamingSelectColumnsAreRefused() throws SQLException {
        // MariaDB accepts both, reading the column from whichever row its plan read last: no other plan repeats it
        for (String write : List.of("INSERT INTO users (user_id, name) SELECT DISTINCT o.user_id, 'x' FROM orders o WHERE o.user_id < 6"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('Z', o.order_id)", "INSERT INTO users (user_id, name) SELECT o.user_id, o.status"
                + " FROM orders o WHERE o.user_id < 3 UNION SELECT user_id, 'u' FROM users WHERE user_id < 3 ON DUPLICATE KEY UPDATE"
                + " name = CONCAT('Z', o.status)")) {
            try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement()) {
                c.setAutoCommit(false);
                assertTrue(st.executeUpdate(write) > 0, write);
                c.rollback();
            }
            try (EngineSession s = engine.openSession()) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(write));
                assertEquals(ErrorCode.UNSUPPORTED, e.code(), write);
            }
        }
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o WHERE o.user_id < 3 UNION ALL SELECT user_id, 'u'"
                + " FROM users WHERE user_id < 3 ON DUPLICATE KEY UPDATE name = CONCAT('Z', VALUES(name))", "users", "user_id");
    }

    @Test
    void columnsOfDerivedTables() throws SQLException {
        same("INSERT INTO users (user_id, name) SELECT d.user_id, d.status FROM (SELECT user_id, status, order_id FROM orders WHERE user_id < 4) d"
                + " ORDER BY d.order_id ON DUPLICATE KEY UPDATE name = CONCAT('D', d.status, d.order_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT d.user_id, d.status FROM (SELECT user_id, status, order_id FROM orders WHERE user_id < 4) AS d"
                + " ORDER BY d.order_id DESC ON DUPLICATE KEY UPDATE name = CONCAT('E', status, order_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT d.user_id, d.s FROM (SELECT user_id, MAX(status) AS s FROM orders WHERE user_id < 9"
                + " GROUP BY user_id) d ON DUPLICATE KEY UPDATE name = CONCAT('F', s)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o JOIN (SELECT user_id, COUNT(*) AS n FROM order_items"
                + " GROUP BY user_id) i ON i.user_id = o.user_id WHERE o.amount > 800 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('G', o.order_id, '/', i.n, '/', n)", "users", "user_id");
        assertEquals("error 1054", same("INSERT INTO users (user_id, name) SELECT d.user_id, 'x' FROM (SELECT user_id FROM orders WHERE user_id < 4) d"
                + " ON DUPLICATE KEY UPDATE name = d.nope", "users", "user_id"));
        assertEquals("error 1052", same("INSERT INTO users (user_id, name) SELECT d.user_id, 'x' FROM (SELECT user_id FROM orders WHERE user_id < 4) d"
                + " ON DUPLICATE KEY UPDATE name = user_id", "users", "user_id"), "the target's and the derived table's");
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("INSERT INTO users (user_id, name) SELECT o.user_id,"
                    + " ROW_NUMBER() OVER (ORDER BY o.order_id) FROM orders o WHERE o.user_id < 4 ON DUPLICATE KEY UPDATE name = o.status"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code(), "a window's rows are sent after the last row was read");
        }
    }

    @Test
    void columnsOfCommonTableExpressions() throws SQLException {
        same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 4) SELECT c.user_id,"
                + " c.status FROM c ORDER BY c.order_id ON DUPLICATE KEY UPDATE name = CONCAT('W', c.status, c.order_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH c (uid, st, oid) AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 5)"
                + " SELECT uid, st FROM c AS x ORDER BY oid DESC ON DUPLICATE KEY UPDATE name = CONCAT('V', x.st, oid)", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, COUNT(*) AS n FROM order_items GROUP BY user_id) SELECT o.user_id,"
                + " o.status FROM orders o JOIN c ON c.user_id = o.user_id WHERE o.amount > 800 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('G', o.order_id, '/', c.n, '/', n)", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH RECURSIVE r (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM r WHERE k < 6) SELECT r.k, 'r'"
                + " FROM r ON DUPLICATE KEY UPDATE name = CONCAT('R', r.k * 10)", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status FROM orders WHERE user_id < 4) SELECT user_id, MAX(status)"
                + " FROM c GROUP BY user_id ON DUPLICATE KEY UPDATE name = VALUES(name)", "users", "user_id");
        same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status, order_id FROM orders WHERE user_id < 6) SELECT d.user_id,"
                + " 'x' FROM (SELECT user_id, status AS st, order_id FROM c WHERE order_id % 2 = 0) d ORDER BY d.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('K', d.st, st)", "users", "user_id");
        assertEquals("error 1054", same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id FROM orders WHERE user_id < 4)"
                + " SELECT c.user_id, 'x' FROM c ON DUPLICATE KEY UPDATE name = c.nope", "users", "user_id"));
        for (String write : List.of("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id, status FROM orders WHERE user_id < 4)"
                + " SELECT DISTINCT c.user_id, 'x' FROM c ON DUPLICATE KEY UPDATE name = c.status", "INSERT INTO users (user_id, name)"
                + " WITH c AS (SELECT user_id, status FROM orders WHERE user_id < 4) SELECT c.user_id, c.status FROM c UNION"
                + " SELECT user_id, 'u' FROM users WHERE user_id < 3 ON DUPLICATE KEY UPDATE name = c.status")) {
            try (EngineSession s = engine.openSession()) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(write));
                assertEquals(ErrorCode.UNSUPPORTED, e.code(), write); // as without the WITH: the row read last, which no plan repeats
            }
        }
        assertEquals("error 1052", same("INSERT INTO users (user_id, name) WITH c AS (SELECT user_id FROM orders WHERE user_id < 4)"
                + " SELECT c.user_id, 'x' FROM c ON DUPLICATE KEY UPDATE name = user_id", "users", "user_id"), "the target's and the CTE's");
    }

    @Test
    void columnsOfNestedJoinsAndTableFunctions() throws SQLException {
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM (orders o JOIN order_items i ON i.order_id = o.order_id"
                + " AND i.user_id = o.user_id) WHERE o.user_id < 6 ORDER BY o.order_id, i.item_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('N', o.order_id, '/', i.item_id)", "users", "user_id");
        same("INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM (orders o JOIN (SELECT user_id AS uid, COUNT(*) AS n"
                + " FROM order_items GROUP BY user_id) d ON d.uid = o.user_id) WHERE o.amount > 700 ORDER BY o.order_id"
                + " ON DUPLICATE KEY UPDATE name = CONCAT('M', n, '/', d.uid, '/', o.order_id)", "users", "user_id");
        // MariaDB reads a table function's columns per row too, but the SQL parser does not read JSON_TABLE: refused as a SELECT
        // naming it across shards is, with or without the clause
        for (String clause : List.of(" ON DUPLICATE KEY UPDATE name = CONCAT('J', jt.v)", "")) {
            String write = "INSERT INTO users (user_id, name) SELECT o.user_id, o.status FROM orders o, JSON_TABLE(CONCAT('[', o.order_id, ']'),"
                    + " '$[*]' COLUMNS (v VARCHAR(20) PATH '$')) jt WHERE o.user_id < 4" + clause;
            try (EngineSession s = engine.openSession()) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(write));
                assertEquals(ErrorCode.UNSUPPORTED, e.code(), write);
                assertTrue(e.getMessage().contains("this form of INSERT ... SELECT ("), e.getMessage());
            }
        }
    }
}
