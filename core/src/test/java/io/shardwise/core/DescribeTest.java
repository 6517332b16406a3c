package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link EngineSession#describe}: the columns announced before a statement runs are exactly the
 * columns its execution then reports (labels, types, flags, hidden merge columns never shown), for
 * every route shape, on real backends.
 */
class DescribeTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("describe");
    private static MysqlServer server;
    private static SampleTarget target;
    private static Engine engine;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        engine = SAMPLE.engine();
    }

    private static void describesAsItRuns(String sql, List<Object> params) {
        try (EngineSession s = engine.openSession()) {
            List<Column> described = s.describe(sql);
            try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql, params)).cursor()) {
                assertEquals(withoutFlags(c.columns()), withoutFlags(described), sql);
            }
        }
    }

    /**
     * Flags aside: they are what the backend's own prepare reports, and MariaDB's prepare leaves out
     * some that its execution sets (GROUP on a GROUP BY column, NO_DEFAULT_VALUE on MAX of a column).
     */
    private static List<Column> withoutFlags(List<Column> columns) {
        return columns.stream().map(c -> new Column(c.schema(), c.table(), c.orgTable(), c.name(), c.orgName(), c.collation(),
                c.length(), c.mysqlType(), 0, c.decimals())).toList();
    }

    @Test
    void queriesAreDescribedExactlyAsTheirResultsArrive() {
        describesAsItRuns("SELECT order_id, user_id AS who, Status, amount, created_at FROM orders WHERE user_id = ?", List.of(42L));
        describesAsItRuns("SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", List.of(1L, 50L));
        describesAsItRuns("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", List.of(1L, 50L));
        describesAsItRuns("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", List.of(1L, 50L));
        describesAsItRuns("SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR k BETWEEN ? AND ?", List.of(1L, 500L, 600L, 900L));
        describesAsItRuns("SELECT status, COUNT(*), AVG(amount), MAX(created_at) FROM orders GROUP BY status ORDER BY status LIMIT ?",
                List.of(3L));
        describesAsItRuns("SELECT * FROM orders ORDER BY created_at, order_id LIMIT 7", List.of());
        describesAsItRuns("SELECT u.name, c.name FROM users u JOIN countries c ON u.country_code = c.code WHERE u.user_id = ?", List.of(3L));
        describesAsItRuns("SELECT 1 AS one, 'x'", List.of());
        describesAsItRuns("PREVIEW SELECT * FROM orders WHERE user_id = ?", List.of(6L));
    }

    @Test
    void statementsWithoutRowsAnnounceNoColumns() {
        try (EngineSession s = engine.openSession()) {
            for (String sql : List.of("BEGIN", "COMMIT", "SET autocommit = 1", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (?, ?, ?, ?)",
                    "UPDATE sbtest1 SET k = k + 1 WHERE id = ?", "DELETE FROM sbtest1 WHERE id = ?",
                    "CREATE TABLE scratch_describe (id INT PRIMARY KEY)", "DROP TABLE IF EXISTS scratch_describe",
                    "UPDATE countries SET name = name WHERE code = ?")) {
                assertEquals(List.of(), s.describe(sql), sql);
            }
        }
    }

    @Test
    void repeatedDescriptionsComeFromTheCache() {
        String sql = "SELECT c FROM sbtest1 WHERE id = ?";
        try (EngineSession a = engine.openSession(); EngineSession b = engine.openSession()) {
            assertSame(a.describe(sql), b.describe(sql), "a second session's prepare asks no backend");
        }
    }

    @Test
    void ddlThroughTheEngineForgetsCachedDescriptions() {
        String sql = "SELECT * FROM describe_scratch WHERE id = ?";
        try (EngineSession s = engine.openSession()) {
            s.execute("CREATE TABLE describe_scratch (id INT PRIMARY KEY)");
            try {
                assertEquals(List.of("id"), s.describe(sql).stream().map(Column::name).toList());
                s.execute("ALTER TABLE describe_scratch ADD COLUMN v VARCHAR(10)");
                assertEquals(List.of("id", "v"), s.describe(sql).stream().map(Column::name).toList());
            } finally {
                s.execute("DROP TABLE describe_scratch");
            }
        }
    }

    @Test
    void errorsThatNeedNoValuesComeAtDescribe() {
        try (EngineSession s = engine.openSession()) {
            assertEquals(1064, assertThrows(ShardwiseException.class, () -> s.describe("SELEC c FROM sbtest1")).errno());
            assertEquals(1146, assertThrows(ShardwiseException.class, () -> s.describe("SELECT c FROM no_such_table WHERE id = ?")).errno());
            assertEquals(1054, assertThrows(ShardwiseException.class, () -> s.describe("SELECT nope FROM orders WHERE user_id = ?")).errno());
            // federated: the coordinator prepares it, and MariaDB has no FOR UPDATE OF (MySQL 8 would describe it)
            ShardwiseException refused = assertThrows(ShardwiseException.class,
                    () -> s.describe("SELECT * FROM orders o WHERE user_id IN (SELECT user_id FROM users WHERE user_id > ?) FOR UPDATE OF o"));
            assertEquals(1064, refused.errno());
            assertTrue(s.autocommit());
        }
    }
}
