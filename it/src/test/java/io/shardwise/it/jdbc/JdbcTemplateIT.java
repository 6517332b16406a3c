package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.jdbc.ShardwiseDataSource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Spring's JdbcTemplate over {@link ShardwiseDataSource} against the same calls over plain
 * Connector/J on the unsharded database: queryForList maps (keys and value classes), update counts,
 * batchUpdate counts, Spring's translation of a duplicate key, and a rolled-back
 * TransactionTemplate.
 */
class JdbcTemplateIT {
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    interface Scenario {
        List<String> run(JdbcTemplate jdbc, TransactionTemplate tx);
    }

    private static void same(Scenario scenario) {
        DriverManagerDataSource direct = new DriverManagerDataSource(f.server.jdbcUrl(f.whole), f.server.user(), f.server.password());
        ShardwiseDataSource shardwise = new ShardwiseDataSource();
        shardwise.setUrl(f.url);
        List<String> expected = run(scenario, direct);
        List<String> actual = run(scenario, shardwise);
        assertEquals(String.join("\n", expected), String.join("\n", actual));
        assertTrue(expected.size() > 1, "compared at least one result");
    }

    private static List<String> run(Scenario scenario, DataSource ds) {
        return scenario.run(new JdbcTemplate(ds), new TransactionTemplate(new DataSourceTransactionManager(ds)));
    }

    private static List<String> described(List<Map<String, Object>> rows) {
        List<String> out = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            StringBuilder sb = new StringBuilder();
            row.forEach((k, v) -> sb.append(k).append('=').append(Outcomes.value(v)).append("; "));
            out.add(sb.toString());
        }
        return out;
    }

    @Test
    void queryForListReturnsTheSameMaps() {
        same((jdbc, tx) -> {
            List<String> out = new ArrayList<>();
            out.addAll(described(jdbc.queryForList("SELECT * FROM orders WHERE user_id = ? ORDER BY order_id", 42)));
            out.addAll(described(jdbc.queryForList("SELECT status, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY status ORDER BY status")));
            out.addAll(described(jdbc.queryForList("SELECT * FROM types ORDER BY id")));
            out.add(Outcomes.value(jdbc.queryForObject("SELECT COUNT(*) FROM order_items", Long.class)));
            return out;
        });
    }

    @Test
    void updateAndBatchUpdateCountTheSameRows() {
        same((jdbc, tx) -> {
            List<String> out = new ArrayList<>();
            String insert = "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (?, ?, 'new', ?, '2025-02-01 00:00:00')";
            out.add("update " + jdbc.update(insert, 9950001L, 950001L, new BigDecimal("4.50")));
            List<Object[]> batch = List.of(new Object[] {9950002L, 950002L, new BigDecimal("1.25")},
                    new Object[] {9950003L, 950003L, new BigDecimal("2.25")}, new Object[] {9950004L, 950004L, new BigDecimal("3.25")});
            out.add("batch " + Arrays.toString(jdbc.batchUpdate(insert, batch)));
            out.add("batch sql " + Arrays.toString(jdbc.batchUpdate("UPDATE orders SET status = 'paid' WHERE user_id = 950001",
                    "UPDATE orders SET amount = amount + 1 WHERE user_id BETWEEN 950002 AND 950004")));
            DataAccessException e = assertThrows(DuplicateKeyException.class, () -> jdbc.update(insert, 9950001L, 950001L, BigDecimal.ONE));
            out.add("duplicate " + e.getClass().getSimpleName());
            out.addAll(described(jdbc.queryForList("SELECT * FROM orders WHERE user_id BETWEEN 950000 AND 950009 ORDER BY order_id")));
            out.add("deleted " + jdbc.update("DELETE FROM orders WHERE user_id BETWEEN 950000 AND 950009"));
            return out;
        });
    }

    @Test
    void aRolledBackTransactionTemplateLeavesNoRows() {
        same((jdbc, tx) -> {
            List<String> out = new ArrayList<>();
            tx.executeWithoutResult(status -> {
                jdbc.update("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9960001, 960001, 'new', 1, '2025-01-01')");
                jdbc.update("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (9960002, 960002, 'new', 1, '2025-01-01')");
                out.add("inside " + jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE user_id IN (960001, 960002)", Long.class));
                status.setRollbackOnly();
            });
            out.add("after " + jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE user_id IN (960001, 960002)", Long.class));
            return out;
        });
    }
}
