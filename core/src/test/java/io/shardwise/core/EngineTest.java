package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The engine end to end on real backends, each result compared with the unsharded copy of the data. */
class EngineTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("engine");
    private static MysqlServer server;
    private static SampleTarget target;
    private static String whole;
    private static Engine engine;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        whole = SAMPLE.whole();
        engine = SAMPLE.engine();
    }

    static Engine engineForDebug() {
        return engine;
    }

    /** Label row then data rows, as text. */
    private static List<String> viaEngine(String sql) {
        try (EngineSession s = engine.openSession()) {
            return viaEngine(s, sql);
        }
    }

    private static List<String> viaEngine(EngineSession s, String sql) {
        return viaEngine(s, sql, List.of());
    }

    private static List<String> viaEngine(EngineSession s, String sql, List<Object> params) {
        StatementResult r = params.isEmpty() ? s.execute(sql) : s.execute(sql, params);
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, r).cursor()) {
            return SampleEngine.labelledRows(c);
        }
    }

    private static List<String> direct(String sql) throws Exception {
        try (Connection c = server.connect(whole); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return SampleEngine.labelledRows(rs);
        }
    }

    private static List<String> direct(String sql, List<Object> params) throws Exception {
        try (Connection c = server.connect(whole); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                ps.setObject(i + 1, params.get(i));
            }
            try (ResultSet rs = ps.executeQuery()) {
                return SampleEngine.labelledRows(rs);
            }
        }
    }

    /** A prepared statement: described (as a server-side prepare does), then run, against the unsharded copy. */
    private static void samePrepared(String sql, List<Object> params) throws Exception {
        List<String> expected = sortedRows(direct(sql, params));
        try (EngineSession s = engine.openSession()) {
            assertEquals(expected.get(0), String.join("|", s.describe(sql).stream().map(col -> col.name()).toList()) + "|", sql);
            assertEquals(expected, sortedRows(viaEngine(s, sql, params)), sql);
        }
    }

    private static void same(String sql, boolean ordered) throws Exception {
        List<String> expected = direct(sql);
        List<String> actual = viaEngine(sql);
        if (!ordered) {
            expected = sortedRows(expected);
            actual = sortedRows(actual);
        }
        assertEquals(expected, actual, sql);
    }

    /**
     * For results whose string keys group collation-equal spellings ('paid'/'Paid'): MySQL names the
     * group by whichever row it meets first, so the spelling may differ, never the values.
     */
    private static void sameIgnoringCase(String sql) throws Exception {
        assertEquals(direct(sql).stream().map(String::toLowerCase).toList(), viaEngine(sql).stream().map(String::toLowerCase).toList(), sql);
    }

    private static List<String> sortedRows(List<String> rows) {
        List<String> out = new ArrayList<>(rows.subList(1, rows.size()));
        out.sort(null);
        out.add(0, rows.get(0));
        return out;
    }

    /**
     * A statement routed to one node by its outer WHERE may still have subqueries that read other nodes'
     * rows: those must reach the third tier (they were answered from one node's rows, a wrong answer);
     * subqueries pinned to the same node by their own key condition, or correlated on the key, stay on it.
     */
    @Test
    void subqueriesOfAPointRoutedStatementReadEveryNodeTheyNeed() throws Exception {
        List<String> elsewhere = List.of(
                "SELECT order_id FROM orders WHERE user_id = 3 AND amount > (SELECT AVG(amount) FROM orders) ORDER BY order_id",
                "SELECT order_id, (SELECT COUNT(*) FROM order_items) AS n FROM orders WHERE user_id = 3 ORDER BY order_id",
                "SELECT order_id FROM orders WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items WHERE user_id = 4)"
                        + " ORDER BY order_id",
                "SELECT COUNT(*) FROM orders WHERE user_id = 3 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.user_id = 5)",
                "SELECT order_id FROM orders o WHERE o.user_id = 3 AND EXISTS"
                        + " (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id + 1) ORDER BY order_id",
                "SELECT order_id FROM orders o WHERE o.user_id = 3 AND EXISTS (SELECT 1 FROM users u LEFT JOIN order_items i"
                        + " ON i.user_id = u.user_id WHERE u.user_id = o.user_id AND i.item_id IS NULL) ORDER BY order_id");
        List<String> sameNode = List.of(
                "SELECT order_id FROM orders WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items WHERE user_id = 3)"
                        + " ORDER BY order_id",
                "SELECT order_id FROM orders WHERE user_id = 3 AND order_id IN (SELECT order_id FROM order_items WHERE user_id = 7)"
                        + " ORDER BY order_id", // 7 mod 4 = 3 mod 4: the same node
                "SELECT order_id FROM orders o WHERE o.user_id = 3 AND EXISTS"
                        + " (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.quantity > 2) ORDER BY order_id",
                "SELECT u.name, (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) AS n FROM users u WHERE u.user_id = 3");
        long before = engine.federatedStatements();
        for (String sql : elsewhere) {
            same(sql, true);
        }
        assertEquals(before + elsewhere.size(), engine.federatedStatements(), "each read other nodes: the third tier");
        for (String sql : sameNode) {
            same(sql, true);
        }
        assertEquals(before + elsewhere.size(), engine.federatedStatements(), "pinned or key-correlated: one node");
    }

    /**
     * A statement over several nodes whose subqueries read, for each outer row, only rows on that row's node
     * (bound tables correlated on the sharding key, broadcast tables) runs on each node and is merged (tier 2):
     * the same answer as one database, no copies. Subqueries that read other rows, or that the merger would
     * have to evaluate across nodes, still take the third tier.
     */
    @Test
    void keyCorrelatedSubqueriesOverSeveralNodesRunOnEachNodeAndMerge() throws Exception {
        List<String> merged = List.of(
                "SELECT order_id FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.quantity > 2)"
                        + " ORDER BY order_id",
                "SELECT order_id, amount FROM orders o WHERE o.amount > (SELECT AVG(amount) FROM orders o2 WHERE o2.user_id = o.user_id)"
                        + " ORDER BY order_id",
                "SELECT o.order_id, (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) AS n FROM orders o"
                        + " ORDER BY o.order_id DESC LIMIT 20",
                "SELECT COUNT(*), SUM(amount), AVG(amount) FROM orders o WHERE NOT EXISTS"
                        + " (SELECT 1 FROM order_items i WHERE i.user_id = o.user_id AND i.order_id = o.order_id)",
                "SELECT COUNT(*) FROM orders o WHERE o.amount NOT IN"
                        + " (SELECT o2.amount FROM orders o2 WHERE o2.user_id = o.user_id AND o2.order_id <> o.order_id)",
                "SELECT u.user_id, (SELECT c.name FROM countries c WHERE c.code = u.country_code) AS country FROM users u"
                        + " WHERE u.country_code IN (SELECT code FROM countries) ORDER BY u.user_id LIMIT 15",
                "SELECT order_id FROM orders o WHERE o.user_id IN (1, 2, 3, 6) AND EXISTS"
                        + " (SELECT 1 FROM users u WHERE u.user_id = o.user_id AND u.email IS NOT NULL) ORDER BY order_id",
                "SELECT u.name, (SELECT MAX(o.amount) FROM orders o WHERE o.user_id = u.user_id) FROM users u WHERE u.user_id < 40",
                "SELECT u.name, (SELECT MAX(o.amount) FROM orders o WHERE o.user_id = u.user_id) AS top FROM users u"
                        + " ORDER BY u.user_id LIMIT 10",
                "SELECT o.order_id FROM orders o JOIN order_items i ON i.user_id = o.user_id AND i.order_id = o.order_id"
                        + " WHERE i.price > (SELECT AVG(i2.price) FROM order_items i2 WHERE i2.user_id = o.user_id) ORDER BY o.order_id, i.item_id");
        List<String> federated = List.of(
                "SELECT order_id FROM orders WHERE amount > (SELECT AVG(amount) FROM orders) ORDER BY order_id",
                "SELECT order_id FROM orders o WHERE EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id AND i.quantity > 4)"
                        + " ORDER BY order_id",
                "SELECT SUM((SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id)) FROM orders o",
                // the merger would sort and de-duplicate by the item's text, which names no node's table
                "SELECT DISTINCT (SELECT COUNT(*) FROM order_items i WHERE i.user_id = u.user_id) AS n FROM users u ORDER BY n",
                "SELECT o.order_id, (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) AS n FROM orders o"
                        + " ORDER BY n DESC, o.order_id LIMIT 20",
                "SELECT u.name, (SELECT MAX(o.amount) FROM orders o WHERE o.user_id = u.user_id) FROM users u ORDER BY u.user_id LIMIT 10",
                "SELECT user_id, COUNT(*) FROM orders o GROUP BY user_id"
                        + " HAVING COUNT(*) > (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) ORDER BY user_id",
                "SELECT o.order_id FROM orders o WHERE o.user_id IN (SELECT i.user_id FROM order_items i WHERE i.quantity > 4)"
                        + " ORDER BY o.order_id LIMIT 30",
                "SELECT o.order_id FROM orders o ORDER BY (SELECT COUNT(*) FROM order_items i WHERE i.user_id = o.user_id) DESC,"
                        + " o.order_id LIMIT 12");
        long before = engine.federatedStatements();
        for (String sql : merged) {
            same(sql, sql.contains("ORDER BY"));
        }
        assertEquals(before, engine.federatedStatements(), "each node answers its own rows' subqueries: the merger");
        for (String sql : federated) {
            same(sql, sql.contains("ORDER BY"));
        }
        assertEquals(before + federated.size(), engine.federatedStatements(), "other nodes' rows, or a merge over subqueries");
        // a subquery in ORDER BY names its tables too (they were sent to the node under their logical names)
        same("SELECT o.order_id FROM orders o WHERE o.user_id = 3 ORDER BY (SELECT COUNT(*) FROM order_items i"
                + " WHERE i.user_id = o.user_id AND i.order_id = o.order_id) DESC, o.order_id", true);
        assertEquals(before + federated.size(), engine.federatedStatements(), "one node: the fast path");
        List<String> preview = viaEngine("PREVIEW " + merged.get(0));
        assertEquals(5, preview.size(), "one unit per node, no copies: " + preview);
        for (String row : preview.subList(1, preview.size())) {
            assertTrue(row.contains("|SCATTER|"), row);
        }
        List<String> explain = viaEngine("EXPLAIN " + merged.get(1));
        assertEquals(6, explain.size(), "four reads and the merge: " + explain);
        for (String row : explain.subList(1, explain.size())) {
            assertTrue(row.contains("|merger|SCATTER|"), row);
        }
    }

    /** An unaliased item is labelled by its own text, as the user wrote it: never with a node's physical name. */
    @Test
    void itemsNamingARenamedTableKeepTheUsersText() throws Exception {
        same("SELECT COUNT(orders.order_id), orders.amount + 1 FROM orders WHERE user_id = 3 GROUP BY orders.amount ORDER BY 2", true);
        same("SELECT u.name, (SELECT COUNT(*) FROM orders o WHERE o.user_id = u.user_id) FROM users u WHERE u.user_id = 3", true);
        same("SELECT (SELECT MAX(amount) FROM orders WHERE orders.user_id = 3) FROM users WHERE user_id = 3", true);
    }

    /**
     * Across shards every helper a node computes for the merge (hidden sort keys, group keys and their
     * WEIGHT_STRINGs, DISTINCT arguments, aggregates' partials) names the node's physical table where the
     * user qualified a column with the logical one (was 1054, unknown column 'orders.order_id'), and
     * every unaliased item keeps the label the user's text gives it (was COUNT(orders_0.order_id)).
     */
    @Test
    void qualifiedNamesInCrossShardMergesNameEachNodesTableAndKeepTheUsersLabels() throws Exception {
        same("SELECT orders.amount * 2 FROM orders WHERE user_id IN (1, 2, 3) ORDER BY orders.order_id LIMIT 5", true);
        same("SELECT COUNT(orders.order_id) FROM orders", true);
        same("SELECT COUNT(orders.order_id), AVG(amount), orders.amount - 1 FROM orders WHERE user_id IN (1, 2, 3) GROUP BY amount"
                + " ORDER BY amount LIMIT 3", true);
        same("SELECT COUNT(orders.order_id), orders.user_id FROM orders GROUP BY orders.user_id ORDER BY orders.user_id LIMIT 7", true);
        same("SELECT orders.amount + 1, orders.order_id FROM orders ORDER BY orders.amount DESC, orders.order_id LIMIT 4", true);
        same("SELECT o.amount FROM orders o ORDER BY o.order_id LIMIT 5", true);
        sameIgnoringCase("SELECT orders.status, COUNT(*) FROM orders GROUP BY orders.status ORDER BY orders.status");
        sameIgnoringCase("SELECT status, COUNT(*) FROM orders GROUP BY status HAVING orders.status <> 'x' ORDER BY status");
        same("SELECT COUNT(DISTINCT orders.user_id), SUM(DISTINCT orders.quantity) FROM order_items orders", true);
        same("SELECT COUNT(DISTINCT orders.user_id), AVG(DISTINCT orders.amount) FROM orders", true);
        same("SELECT AVG(orders.amount), MIN(orders.created_at), MAX(orders.amount), VAR_POP(orders.amount), BIT_OR(orders.user_id) FROM orders", true);
        same("SELECT user_id, SUM(amount) FROM orders GROUP BY user_id HAVING MAX(orders.amount) > 900 ORDER BY user_id", true);
        same("SELECT user_id FROM orders GROUP BY user_id ORDER BY SUM(orders.amount) DESC, user_id LIMIT 5", true);
        same("SELECT user_id, SUM(orders.amount) / COUNT(orders.order_id) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 5", true);
        same("SELECT GROUP_CONCAT(orders.order_id ORDER BY orders.order_id) FROM orders WHERE user_id IN (1, 2)", true);
        same("SELECT DISTINCT orders.user_id FROM orders WHERE user_id < 20 ORDER BY orders.user_id", true);
    }

    /**
     * ENUM members in an order other than their text's ('software' < 'hardware' < 'books'): MySQL sorts
     * them by index in ORDER BY and in a grouped or DISTINCT result's order, MIN and MAX by text. The
     * cross-shard merge compared the text (books, hardware, software: the reverse).
     */
    @Test
    void enumColumnsMergeAcrossShardsInMemberOrder() throws Exception {
        String alter = "ALTER TABLE small MODIFY category ENUM('software', 'hardware', 'books') NOT NULL";
        try (EngineSession s = engine.openSession()) {
            s.execute(alter);
        }
        try (Connection c = server.connect(whole); Statement st = c.createStatement()) {
            st.execute(alter);
        }
        same("SELECT * FROM small ORDER BY category, id", true);
        same("SELECT id, category FROM small ORDER BY category DESC, id", true);
        same("SELECT id FROM small ORDER BY small.category LIMIT 2", true);
        same("SELECT category, COUNT(*) FROM small GROUP BY category ORDER BY category", true);
        same("SELECT DISTINCT category FROM small ORDER BY category DESC", true);
        same("SELECT MIN(category), MAX(category) FROM small", true);
        samePrepared("SELECT id, category FROM small WHERE id > ? ORDER BY category", List.of(0L));
    }

    @Test
    void pointSelectsKeepTheUsersLabelsAndValues() throws Exception {
        same("SELECT order_id, user_id, Status, amount, created_at FROM orders WHERE user_id = 42 ORDER BY order_id", true);
        same("SELECT COUNT(*), Max(amount) AS top FROM orders WHERE user_id = '42'", true);
    }

    @Test
    void scatterReadsMergeLikeOneDatabase() throws Exception {
        same("SELECT order_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 5, 10", true);
        same("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(order_id) FROM orders GROUP BY status ORDER BY status", true);
        same("SELECT COUNT(*), SUM(quantity), AVG(price) FROM order_items", true);
        same("SELECT status, COUNT(*) AS n, AVG(amount) FROM orders GROUP BY status HAVING n > 100 AND MAX(amount) > 10 ORDER BY status", true);
        same("SELECT user_id, SUM(amount) FROM orders GROUP BY user_id HAVING SUM(amount) > 2000 OR COUNT(*) = 1 ORDER BY user_id", true);
        same("SELECT COUNT(DISTINCT user_id), COUNT(*) FROM orders", true);
        // the group of 'paid' and 'Paid' (equal under the collation) may be named by either spelling
        assertEquals(direct("SELECT status, COUNT(DISTINCT user_id) AS buyers, SUM(amount) FROM orders GROUP BY status ORDER BY status")
                        .stream().map(String::toLowerCase).toList(),
                viaEngine("SELECT status, COUNT(DISTINCT user_id) AS buyers, SUM(amount) FROM orders GROUP BY status ORDER BY status")
                        .stream().map(String::toLowerCase).toList());
        sameIgnoringCase("SELECT sku, AVG(DISTINCT quantity), COUNT(DISTINCT quantity) FROM order_items GROUP BY sku ORDER BY sku LIMIT 10");
        // collation-equal spellings ('it'/'IT') are one DISTINCT value; MySQL returns either
        assertEquals(sortedRows(direct("SELECT DISTINCT country_code FROM users")).stream().map(String::toLowerCase).sorted().toList(),
                sortedRows(viaEngine("SELECT DISTINCT country_code FROM users")).stream().map(String::toLowerCase).sorted().toList());
        same("SELECT * FROM orders WHERE amount > 100", false);
        same("SELECT * FROM orders ORDER BY created_at, order_id LIMIT 7", true);
    }

    @Test
    void joinsOfBoundTablesAndBroadcastTablesMatchOneDatabase() throws Exception {
        same("SELECT o.order_id, i.sku, i.quantity FROM orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " WHERE o.user_id IN (3, 4, 5)", false);
        same("SELECT u.name, c.name FROM users u JOIN countries c ON u.country_code = c.code ORDER BY u.user_id LIMIT 20", true);
    }

    @Test
    void preparedStatementsRouteByTheirParameters() {
        try (EngineSession s = engine.openSession()) {
            StatementResult r = s.execute("SELECT COUNT(*) FROM orders WHERE user_id = ?", List.of(42L));
            try (ResultCursor c = ((StatementResult.Rows) r).cursor()) {
                assertTrue(c.next());
                assertTrue(Long.parseLong(new String(c.get(0), StandardCharsets.UTF_8)) >= 0);
            }
        }
    }

    /**
     * A marker in parentheses: Calcite positions the parameter node at its opening parenthesis, not
     * at the {@code ?}; describe and execute must still find the parameter (they failed with 1105).
     */
    @Test
    void parenthesisedParameterMarkersArePreparedAndRun() throws Exception {
        samePrepared("SELECT * FROM orders WHERE user_id = (?) AND order_id IN (SELECT order_id FROM order_items WHERE user_id = ?)",
                List.of(3L, 3L));
        samePrepared("SELECT * FROM orders WHERE user_id = ((?)) AND status <> ?", List.of(5L, "x"));
        samePrepared("SELECT order_id, amount FROM orders WHERE user_id IN ((?), ?) AND amount > (?)", List.of(3L, 6L, 10L));
        samePrepared("SELECT order_id FROM orders WHERE user_id = (? + 1)", List.of(4L));
        samePrepared("SELECT user_id, COUNT(*) FROM orders WHERE amount > ((?)) GROUP BY user_id HAVING COUNT(*) > (?)", List.of(5L, 1L));
        samePrepared("SELECT order_id FROM orders WHERE order_id IN (SELECT order_id FROM order_items WHERE user_id = ((?)))"
                + " AND user_id = (?)", List.of(7L, 7L));
        try (EngineSession s = engine.openSession()) {
            List<String> rows = viaEngine(s, "PREVIEW SELECT * FROM orders WHERE user_id = ((?))", List.of(6L));
            assertEquals(2, rows.size(), "the parenthesised key still routes to one node: " + rows);
            assertTrue(rows.get(1).contains("|POINT|"), rows.get(1));
        }
    }

    @Test
    void writesLandOnTheRightShardAndTransactionsRollBack() throws Exception {
        try (EngineSession s = engine.openSession()) {
            StatementResult.Update u = (StatementResult.Update) s.execute(
                    "INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES (900001, 1, 'new', 1.00, NOW()), (900002, 2, 'new', 2.00, NOW())");
            assertEquals(2, u.affectedRows());
            s.execute("BEGIN");
            s.execute("UPDATE orders SET status = 'gone' WHERE user_id IN (1, 2)");
            s.execute("ROLLBACK");
            List<String> rows = viaEngine("SELECT order_id, status FROM orders WHERE order_id IN (900001, 900002) ORDER BY order_id");
            assertEquals(List.of("order_id|status|", "900001|new|", "900002|new|"), rows);
            StatementResult.Update d = (StatementResult.Update) s.execute("DELETE FROM orders WHERE order_id >= 900001");
            assertEquals(2, d.affectedRows());
            StatementResult.Update g = (StatementResult.Update) s.execute("INSERT INTO orders (user_id, status, created_at) VALUES (8, 'gen', NOW())");
            long key = (Long) g.generatedKeys().get(0);
            assertEquals(key, g.lastInsertId());
            assertEquals(List.of("order_id|", key + "|"), viaEngine("SELECT order_id FROM orders WHERE user_id = 8 AND status = 'gen'"));
            s.execute("DELETE FROM orders WHERE user_id = 8 AND status = 'gen'");
        }
    }

    @Test
    void ddlRunsTheUsersOwnText() {
        List<String> rows = viaEngine("PREVIEW CREATE TABLE scratch (id INT PRIMARY KEY, v VARCHAR(10) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4");
        assertEquals("ds0|CREATE TABLE scratch (id INT PRIMARY KEY, v VARCHAR(10) NULL) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4|NULL|UNSHARDED|pass-through|",
                rows.get(1));
        rows = viaEngine("PREVIEW CREATE TABLE orders (id INT PRIMARY KEY, v VARCHAR(10) NULL) ENGINE=InnoDB");
        assertEquals("ds1|CREATE TABLE orders_1 (id INT PRIMARY KEY, v VARCHAR(10) NULL) ENGINE=InnoDB|NULL|SCATTER|concat|", rows.get(4));
    }

    @Test
    void previewShowsWhereAStatementRuns() {
        List<String> rows = viaEngine("PREVIEW SELECT * FROM orders WHERE user_id = 6");
        assertEquals(List.of("backend|actual_sql|params|route|merge|", "ds1|SELECT * FROM orders_0 WHERE user_id = 6|NULL|POINT|pass-through|"), rows);
    }

    @Test
    void unsupportedStatementsGet1235AndBackendErrorsKeepTheirCode() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE IGNORE orders SET user_id = 5 WHERE order_id = 1"));
            assertEquals(1235, e.errno());
            ShardwiseException missing = assertThrows(ShardwiseException.class, () -> s.execute("SELECT nope FROM orders WHERE user_id = 1"));
            assertEquals(1054, missing.errno());
            assertEquals("42S22", missing.sqlState());
            s.execute("SET NAMES utf8mb4");
            s.execute("SET autocommit = 0");
            s.execute("SET SESSION sql_mode = 'STRICT_TRANS_TABLES'");
            s.execute("USE shop");
            assertEquals(1049, assertThrows(ShardwiseException.class, () -> s.execute("USE other")).errno());
        }
    }

    /** MariaDB Connector/J connects with SET ..., sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES'): evaluated against the session's mode. */
    @Test
    void sqlModeSetFromAnExpressionOverTheCurrentModeIsEvaluatedOnceWithoutDuplicates() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET SESSION sql_mode = 'NO_ENGINE_SUBSTITUTION'");
            s.execute("SET autocommit=1, sql_mode = concat(@@sql_mode, ',STRICT_TRANS_TABLES')");
            s.execute("SET sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES')");
            StatementResult r = s.execute("SELECT @@sql_mode");
            try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, r).cursor()) {
                assertTrue(c.next());
                assertEquals("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION", new String(c.get(0), StandardCharsets.UTF_8));
            }
        }
    }

    /** SHOW, information_schema and variable selects are read as MySQL reads them under the session's sql_mode. */
    @Test
    void sessionStatementsAreReadInTheSessionsLexicalMode() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET sql_mode = 'ANSI_QUOTES'");
            assertTrue(viaEngine(s, "SHOW COLUMNS FROM \"orders\"").stream().anyMatch(row -> row.startsWith("user_id|")));
            assertEquals(List.of("TABLE_NAME|", "orders|"), viaEngine(s,
                    "SELECT TABLE_NAME FROM \"information_schema\".\"TABLES\" WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'orders'"));
            // a double-quoted name is no LIKE pattern: MySQL refuses the statement rather than list tables
            assertThrows(ShardwiseException.class, () -> s.execute("SHOW TABLES LIKE \"o%\""));
            s.execute("SET sql_mode = 'NO_BACKSLASH_ESCAPES'");
            // answered by the session (a backend would name its physical schema)
            assertEquals(List.of("a\\|", "shop|"), viaEngine(s, "SELECT DATABASE() AS 'a\\'"));
        }
    }
}
