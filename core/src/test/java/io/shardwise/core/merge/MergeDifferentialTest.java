package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.AggregateSlot;
import io.shardwise.core.route.AggregateSlot.Kind;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.MergeSpec.Tail;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.RowExpr.ColumnRef;
import io.shardwise.core.route.RowExpr.CompareOp;
import io.shardwise.core.route.RowExpr.Constant;
import io.shardwise.core.route.SortKey;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The merger against MySQL itself: each query runs once on the unsharded oracle database and once
 * per physical shard of the sample (4 units: two databases, two tables each) with the per-shard SQL
 * a rewriter would send (hidden WEIGHT_STRING, SUM and COUNT columns, ORDER BY, LIMIT o+n); the
 * merged rows must equal the oracle's byte for byte, in order when ORDER BY fixes it, else as
 * multisets, and the visible columns must carry the oracle's labels, types and scales.
 *
 * <p>Where MySQL itself may return any member of a collation-equal set ('paid' or 'Paid' for a
 * group, 'DE' or 'de' for DISTINCT), those columns compare by their WEIGHT_STRING, asked of the
 * server; everything else compares raw.
 */
class MergeDifferentialTest {
    private static final Pattern TABLE = Pattern.compile("\\{(\\w+)}");
    private static MysqlServer server;
    private static ShardingRule rule;
    private static String prefix;
    private static String oracle;
    private static Connection weigher;
    private static final Map<String, String> WEIGHTS = new HashMap<>();

    @BeforeAll
    static void load() throws SQLException {
        server = TestBackends.shared();
        prefix = TestBackends.uniqueSchemaName("merge_diff");
        SampleTarget target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), prefix);
        rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        oracle = prefix + "_all";
        SampleData.loadUnsharded(target, oracle);
        weigher = server.connect(oracle);
    }

    @AfterAll
    static void drop() throws SQLException {
        if (weigher != null) {
            weigher.close();
        }
        if (prefix != null) {
            for (String db : List.of(prefix + "_0", prefix + "_1", prefix + "_all")) {
                server.dropSchema(db);
            }
        }
    }

    // ---- grouped aggregates ----

    @Test
    void groupByStatusWithEveryAggregateStreamsLikeMysql() {
        check(sql("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(amount) FROM orders"
                        + " GROUP BY status ORDER BY status")
                .shards("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(amount), SUM(amount), COUNT(amount),"
                        + " WEIGHT_STRING(status) FROM {orders} GROUP BY status ORDER BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 8)), statusSlots(), true, null, List.of(),
                        show(6)))
                .ordered().byWeight(0));
    }

    @Test
    void groupByStatusHashedGivesTheSameRows() {
        check(sql("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(amount) FROM orders"
                        + " GROUP BY status ORDER BY status")
                .shards("SELECT status, COUNT(*), SUM(amount), AVG(amount), MIN(created_at), MAX(amount), SUM(amount), COUNT(amount),"
                        + " WEIGHT_STRING(status) FROM {orders} GROUP BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 8)), statusSlots(), false, null, List.of(),
                        show(6)))
                .ordered().byWeight(0));
    }

    @Test
    void bitAggregatesCombineTheUnitsValuesWithMysqlsIdentitiesOverNoRows() {
        check(sql("SELECT user_id % 5, BIT_AND(order_id), BIT_OR(order_id), BIT_XOR(order_id), BIT_XOR(quantity * 3) FROM order_items"
                        + " GROUP BY 1 ORDER BY 1")
                .shards("SELECT user_id % 5, BIT_AND(order_id), BIT_OR(order_id), BIT_XOR(order_id), BIT_XOR(quantity * 3)"
                        + " FROM {order_items} GROUP BY 1 ORDER BY 1")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(AggregateSlot.of(Kind.BIT_AND, 1),
                        AggregateSlot.of(Kind.BIT_OR, 2), AggregateSlot.of(Kind.BIT_XOR, 3), AggregateSlot.of(Kind.BIT_XOR, 4)), true, null,
                        List.of(), show(5)))
                .ordered());
        check(sql("SELECT BIT_AND(order_id), BIT_OR(order_id), BIT_XOR(order_id) FROM order_items WHERE quantity < 0")
                .shards("SELECT BIT_AND(order_id), BIT_OR(order_id), BIT_XOR(order_id) FROM {order_items} WHERE quantity < 0")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.BIT_AND, 0), AggregateSlot.of(Kind.BIT_OR, 1),
                        AggregateSlot.of(Kind.BIT_XOR, 2)), false, null, List.of(), show(3)))
                .ordered());
    }

    /**
     * Why a merged VARIANCE or STDDEV is compared within the oracle's float tolerance: MySQL computes
     * them with Welford's recurrence in the order it reads the rows, so the same values read in another
     * order give another DOUBLE (the binary protocol sends all its bits); no merge of per-shard
     * partials can promise the backend's last bits, only its printed scale.
     */
    @Test
    void theBackendsOwnVarianceDependsOnTheOrderItReadsTheRows() throws SQLException {
        try (Connection c = server.connect(oracle); java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TEMPORARY TABLE var_a (id INT PRIMARY KEY, v DOUBLE)");
            s.execute("CREATE TEMPORARY TABLE var_b (id INT PRIMARY KEY, v DOUBLE)");
            // the values 1/1 .. 1/50, read in ascending order of id from one table and descending from the other
            s.execute("INSERT INTO var_a SELECT seq, 1e0 / seq FROM seq_1_to_50");
            s.execute("INSERT INTO var_b SELECT 51 - seq, 1e0 / seq FROM seq_1_to_50");
            double a = variance(s, "var_a");
            double b = variance(s, "var_b");
            assertTrue(a != b, "the same fifty values in two scan orders: " + a + " and " + b);
            assertEquals(a, b, Math.abs(a) * 1e-12, "and both are the variance, to the last bits");
        }
    }

    @Test
    void varianceFamilyIsMergedFromCountSumAndVarPopPerUnit() {
        check(sql("SELECT status, VAR_POP(amount), VAR_SAMP(amount), STDDEV_POP(amount), STDDEV_SAMP(quantity), COUNT(*)"
                        + " FROM orders JOIN order_items USING (order_id, user_id) GROUP BY status ORDER BY status")
                .shards("SELECT status, VAR_POP(amount), VAR_SAMP(amount), STDDEV_POP(amount), STDDEV_SAMP(quantity), COUNT(*),"
                        + " SUM(amount), COUNT(amount), CAST(VAR_POP(amount) AS DOUBLE), SUM(quantity), COUNT(quantity),"
                        + " CAST(VAR_POP(quantity) AS DOUBLE), WEIGHT_STRING(status)"
                        + " FROM {orders} JOIN {order_items} USING (order_id, user_id) GROUP BY status ORDER BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 12)), List.of(
                        new AggregateSlot(Kind.VAR_POP, 1, 6, 7, -1, null, 8), new AggregateSlot(Kind.VAR_SAMP, 2, 6, 7, -1, null, 8),
                        new AggregateSlot(Kind.STDDEV_POP, 3, 6, 7, -1, null, 8),
                        new AggregateSlot(Kind.STDDEV_SAMP, 4, 9, 10, -1, null, 11), AggregateSlot.of(Kind.COUNT, 5)),
                        true, null, List.of(), show(6)))
                .ordered().byWeight(0));
        // small groups: one value (VAR_SAMP is NULL there), none on most units; and no rows at all
        check(sql("SELECT user_id, VAR_POP(amount), VAR_SAMP(amount), STDDEV_POP(amount), STDDEV_SAMP(amount) FROM orders"
                        + " WHERE order_id < 100040 GROUP BY user_id ORDER BY user_id")
                .shards("SELECT user_id, VAR_POP(amount), VAR_SAMP(amount), STDDEV_POP(amount), STDDEV_SAMP(amount),"
                        + " SUM(amount), COUNT(amount), CAST(VAR_POP(amount) AS DOUBLE) FROM {orders} WHERE order_id < 100040"
                        + " GROUP BY user_id ORDER BY user_id")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, -1)), List.of(
                        new AggregateSlot(Kind.VAR_POP, 1, 5, 6, -1, null, 7), new AggregateSlot(Kind.VAR_SAMP, 2, 5, 6, -1, null, 7),
                        new AggregateSlot(Kind.STDDEV_POP, 3, 5, 6, -1, null, 7),
                        new AggregateSlot(Kind.STDDEV_SAMP, 4, 5, 6, -1, null, 7)), true, null, List.of(), show(5)))
                .ordered());
        check(sql("SELECT VAR_SAMP(amount), STDDEV_POP(amount) FROM orders WHERE user_id < 0")
                .shards("SELECT VAR_SAMP(amount), STDDEV_POP(amount), SUM(amount), COUNT(amount), CAST(VAR_POP(amount) AS DOUBLE)"
                        + " FROM {orders} WHERE user_id < 0")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.VAR_SAMP, 0, 2, 3, -1, null, 4),
                        new AggregateSlot(Kind.STDDEV_POP, 1, 2, 3, -1, null, 4)), false, null, List.of(), show(2)))
                .ordered());
    }

    @Test
    void varianceOfAFloatingArgumentIsRefusedItsLastDigitsDependOnRowOrder() {
        List<JdbcCursor> units = new ArrayList<>();
        for (DataNode node : rule.table("orders").nodes()) {
            units.add(JdbcCursor.open(server, database(node.backend()), "SELECT VAR_POP(CAST(amount AS DOUBLE)),"
                    + " SUM(CAST(amount AS DOUBLE)), COUNT(amount), CAST(VAR_POP(CAST(amount AS DOUBLE)) AS DOUBLE) FROM " + node.table()));
        }
        MergeSpec spec = new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.VAR_POP, 0, 1, 2, -1, null, 3)), false,
                null, List.of(), show(1));
        io.shardwise.core.error.ShardwiseException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.shardwise.core.error.ShardwiseException.class, () -> Merger.merge(List.copyOf(units), spec));
        assertEquals(1235, e.code().errno());
        for (JdbcCursor u : units) {
            assertTrue(u.closed, "every unit is closed after the refusal");
        }
    }

    private static double variance(java.sql.Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT CAST(VAR_POP(v) AS DOUBLE) FROM " + table)) {
            rs.next();
            return rs.getDouble(1);
        }
    }

    private static List<AggregateSlot> statusSlots() {
        return List.of(AggregateSlot.of(Kind.COUNT, 1), AggregateSlot.of(Kind.SUM, 2), new AggregateSlot(Kind.AVG, 3, 6, 7, -1),
                AggregateSlot.of(Kind.MIN, 4), AggregateSlot.of(Kind.MAX, 5));
    }

    @Test
    void minAndMaxOfStringsFollowTheCollation() {
        check(sql("SELECT country_code, COUNT(*), MAX(name), MIN(email) FROM users GROUP BY country_code ORDER BY country_code")
                .shards("SELECT country_code, COUNT(*), MAX(name), MIN(email), WEIGHT_STRING(country_code),"
                        + " WEIGHT_STRING(MAX(name) AS CHAR(64)), WEIGHT_STRING(MIN(email) AS CHAR(128)) FROM {users} GROUP BY country_code ORDER BY country_code")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 4)), List.of(AggregateSlot.of(Kind.COUNT, 1),
                        new AggregateSlot(Kind.MAX, 2, -1, -1, 5), new AggregateSlot(Kind.MIN, 3, -1, -1, 6)), true, null, List.of(),
                        show(4)))
                .ordered().byWeight(0, 2, 3));
    }

    @Test
    void globalMinAndMaxOfStringsFollowTheCollation() {
        check(sql("SELECT MIN(name), MAX(name), COUNT(name), COUNT(*) FROM users")
                .shards("SELECT MIN(name), MAX(name), COUNT(name), COUNT(*), WEIGHT_STRING(MIN(name) AS CHAR(64)),"
                        + " WEIGHT_STRING(MAX(name) AS CHAR(64))"
                        + " FROM {users}")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.MIN, 0, -1, -1, 4),
                        new AggregateSlot(Kind.MAX, 1, -1, -1, 5), AggregateSlot.of(Kind.COUNT, 2), AggregateSlot.of(Kind.COUNT, 3)),
                        false, null, List.of(), show(4)))
                .ordered().byWeight(0, 1));
    }

    @Test
    void integerSumsAndAveragesAreDecimalsWithMysqlScales() {
        check(sql("SELECT sku, COUNT(*), SUM(quantity), AVG(quantity), AVG(price), MAX(price) FROM order_items"
                        + " GROUP BY sku ORDER BY sku LIMIT 20")
                .shards("SELECT sku, COUNT(*), SUM(quantity), AVG(quantity), AVG(price), MAX(price), SUM(quantity), COUNT(quantity),"
                        + " SUM(price), COUNT(price), WEIGHT_STRING(sku) FROM {order_items} GROUP BY sku ORDER BY sku")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 10)), List.of(AggregateSlot.of(Kind.COUNT, 1),
                        AggregateSlot.of(Kind.SUM, 2), new AggregateSlot(Kind.AVG, 3, 6, 7, -1), new AggregateSlot(Kind.AVG, 4, 8, 9, -1),
                        AggregateSlot.of(Kind.MAX, 5)), true, null, List.of(), new Tail(false, 0, 20, 6)))
                .ordered().byWeight(0));
    }

    @Test
    void globalAggregatesAddUpAcrossShards() {
        check(sql("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(created_at), COUNT(amount) FROM orders")
                .shards("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount), MAX(created_at), COUNT(amount), SUM(amount),"
                        + " COUNT(amount) FROM {orders}")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.COUNT, 0), AggregateSlot.of(Kind.SUM, 1),
                        new AggregateSlot(Kind.AVG, 2, 6, 7, -1), AggregateSlot.of(Kind.MIN, 3), AggregateSlot.of(Kind.MAX, 4),
                        AggregateSlot.of(Kind.COUNT, 5)), false, null, List.of(), show(6)))
                .ordered());
    }

    @Test
    void globalAggregateOverNoRowsIsCountZeroAndNulls() {
        check(sql("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount) FROM orders WHERE amount > 1000000")
                .shards("SELECT COUNT(*), SUM(amount), AVG(amount), MIN(amount), SUM(amount), COUNT(amount) FROM {orders}"
                        + " WHERE amount > 1000000")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.COUNT, 0), AggregateSlot.of(Kind.SUM, 1),
                        new AggregateSlot(Kind.AVG, 2, 4, 5, -1), AggregateSlot.of(Kind.MIN, 3)), true, null, List.of(), show(4)))
                .ordered());
    }

    @Test
    void countDistinctOverUnitsThatReturnNoRowsIsZero() {
        check(sql("SELECT COUNT(DISTINCT user_id) FROM orders WHERE amount > 1000000")
                .shards("SELECT user_id AS `COUNT(DISTINCT user_id)` FROM {orders} WHERE amount > 1000000 GROUP BY user_id")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.COUNT_DISTINCT, 0)), false, null,
                        List.of(), Tail.NONE))
                .ordered());
    }

    @Test
    void countDistinctDeduplicatesAcrossShards() {
        // every shard has every status ('paid' and 'Paid' being one): only a cross-shard de-duplication gives 5
        check(sql("SELECT COUNT(DISTINCT status), COUNT(DISTINCT user_id) FROM orders")
                .shards("SELECT status AS `COUNT(DISTINCT status)`, WEIGHT_STRING(status) FROM {orders} GROUP BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(new AggregateSlot(Kind.COUNT_DISTINCT, 0, -1, -1, 1)), false,
                        null, List.of(), show(1)))
                .oracleColumns(1)
                .ordered());
        check(sql("SELECT COUNT(DISTINCT user_id) FROM orders")
                .shards("SELECT user_id AS `COUNT(DISTINCT user_id)` FROM {orders} GROUP BY user_id")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.COUNT_DISTINCT, 0)), false, null,
                        List.of(), Tail.NONE))
                .ordered());
    }

    @Test
    void groupedCountDistinctAndCountStarCombine() {
        check(sql("SELECT status, COUNT(DISTINCT user_id), COUNT(*) FROM orders GROUP BY status ORDER BY status")
                .shards("SELECT status, user_id AS `COUNT(DISTINCT user_id)`, COUNT(*), WEIGHT_STRING(status) FROM {orders}"
                        + " GROUP BY status, user_id ORDER BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 3)), List.of(AggregateSlot.of(Kind.COUNT_DISTINCT, 1),
                        AggregateSlot.of(Kind.COUNT, 2)), true, null, List.of(), show(3)))
                .ordered().byWeight(0));
    }

    @Test
    void sumAndAvgDistinctAddEachAmountOnce() {
        check(sql("SELECT SUM(DISTINCT amount), AVG(DISTINCT amount) FROM orders")
                .shards("SELECT amount AS `SUM(DISTINCT amount)`, amount AS `AVG(DISTINCT amount)` FROM {orders} GROUP BY amount")
                .spec(new MergeSpec.GroupedAggregate(List.of(), List.of(AggregateSlot.of(Kind.SUM_DISTINCT, 0),
                        AggregateSlot.of(Kind.AVG_DISTINCT, 1)), false, null, List.of(), Tail.NONE))
                .ordered());
    }

    @Test
    void havingFiltersOnMergedAggregates() {
        RowExpr having = new RowExpr.And(List.of(
                new RowExpr.Compare(CompareOp.GT, new ColumnRef(3, -1), new Constant(500L)),
                new RowExpr.Compare(CompareOp.GE, new ColumnRef(1, -1), new Constant(20L))));
        check(sql("SELECT DATE_FORMAT(created_at, '%Y-%m') AS m, COUNT(*) AS n, SUM(amount) AS s, AVG(amount) AS a FROM orders"
                        + " GROUP BY m HAVING a > 500 AND n >= 20 ORDER BY m")
                .shards("SELECT DATE_FORMAT(created_at, '%Y-%m') AS m, COUNT(*) AS n, SUM(amount) AS s, AVG(amount) AS a,"
                        + " SUM(amount), COUNT(amount) FROM {orders} GROUP BY m ORDER BY m")
                .spec(new MergeSpec.GroupedAggregate(List.of(SortKey.ascending(0)), List.of(AggregateSlot.of(Kind.COUNT, 1),
                        AggregateSlot.of(Kind.SUM, 2), new AggregateSlot(Kind.AVG, 3, 4, 5, -1)), true, having, List.of(), show(4)))
                .ordered().minRows(2));
    }

    @Test
    void havingWithDivisionAndNullTestsFollowsMysql() {
        RowExpr having = new RowExpr.Or(List.of(
                new RowExpr.Compare(CompareOp.GT, new RowExpr.Arithmetic(RowExpr.ArithmeticOp.DIVIDE, new ColumnRef(2, -1),
                        new ColumnRef(1, -1)), new Constant(new java.math.BigDecimal("495.5"))),
                new RowExpr.IsNull(new ColumnRef(0, -1), false)));
        check(sql("SELECT status, COUNT(*), SUM(amount) FROM orders GROUP BY status"
                        + " HAVING SUM(amount) / COUNT(*) > 495.5 OR status IS NULL ORDER BY status")
                .shards("SELECT status, COUNT(*), SUM(amount), WEIGHT_STRING(status) FROM {orders} GROUP BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 3)), List.of(AggregateSlot.of(Kind.COUNT, 1),
                        AggregateSlot.of(Kind.SUM, 2)), false, having, List.of(), show(3)))
                .ordered().byWeight(0).minRows(1));
    }

    @Test
    void groupsSortByAnAggregateThenLimit() {
        check(sql("SELECT status, COUNT(*) FROM orders GROUP BY status ORDER BY COUNT(*) DESC, status LIMIT 3")
                .shards("SELECT status, COUNT(*), WEIGHT_STRING(status) FROM {orders} GROUP BY status ORDER BY status")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 2)), List.of(AggregateSlot.of(Kind.COUNT, 1)), true,
                        null, List.of(new SortKey(1, true, -1), new SortKey(0, false, 2)), new Tail(false, 0, 3, 2)))
                .ordered().byWeight(0).minRows(3));
    }

    @Test
    void unsignedSumsBeyondBigintStayExact() {
        check(sql("SELECT country_code, SUM(CAST(user_id AS UNSIGNED)), MAX(CAST(user_id AS UNSIGNED)) FROM users"
                        + " GROUP BY country_code ORDER BY country_code")
                .shards("SELECT country_code, SUM(CAST(user_id AS UNSIGNED)), MAX(CAST(user_id AS UNSIGNED)),"
                        + " WEIGHT_STRING(country_code) FROM {users} GROUP BY country_code")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 3)), List.of(AggregateSlot.of(Kind.SUM, 1),
                        AggregateSlot.of(Kind.MAX, 2)), false, null, List.of(), show(3)))
                .ordered().byWeight(0));
    }

    // ---- sorted merges, distinct, concat ----

    @Test
    void orderByWithOffsetAndLimitMergesTheShardsTopRows() {
        check(sql("SELECT order_id, user_id, amount FROM orders ORDER BY amount DESC, order_id LIMIT 5, 10")
                .shards("SELECT order_id, user_id, amount FROM {orders} ORDER BY amount DESC, order_id LIMIT 15")
                .spec(new MergeSpec.SortedMerge(List.of(new SortKey(2, true, -1), SortKey.ascending(0)), new Tail(false, 5, 10, -1)))
                .ordered().minRows(10));
    }

    @Test
    void nullsSortFirstAscendingAcrossShards() {
        check(sql("SELECT order_id, amount FROM orders ORDER BY amount, order_id LIMIT 60")
                .shards("SELECT order_id, amount FROM {orders} ORDER BY amount, order_id LIMIT 60")
                .spec(new MergeSpec.SortedMerge(List.of(SortKey.ascending(1), SortKey.ascending(0)), new Tail(false, 0, 60, -1)))
                .ordered().minRows(60));
    }

    @Test
    void datetimeTiesAreBrokenByTheNextKey() {
        check(sql("SELECT order_id, created_at FROM orders ORDER BY created_at DESC, order_id LIMIT 80")
                .shards("SELECT order_id, created_at FROM {orders} ORDER BY created_at DESC, order_id LIMIT 80")
                .spec(new MergeSpec.SortedMerge(List.of(new SortKey(1, true, -1), SortKey.ascending(0)), new Tail(false, 0, 80, -1)))
                .ordered().minRows(80));
    }

    @Test
    void negativeAndLongTimesMergeInTimeOrder() {
        check(sql("SELECT order_id, TIMEDIFF('2025-01-01 00:00:00', created_at) AS d FROM orders ORDER BY d, order_id")
                .shards("SELECT order_id, TIMEDIFF('2025-01-01 00:00:00', created_at) AS d FROM {orders} ORDER BY d, order_id")
                .spec(new MergeSpec.SortedMerge(List.of(SortKey.ascending(1), SortKey.ascending(0)), Tail.NONE))
                .ordered().minRows(1000));
    }

    @Test
    void unsignedBigintsAboveLongMaxMergeNumerically() {
        check(sql("SELECT CAST(user_id AS UNSIGNED) AS u, name FROM users ORDER BY u")
                .shards("SELECT CAST(user_id AS UNSIGNED) AS u, name FROM {users} ORDER BY u")
                .spec(new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), Tail.NONE))
                .ordered().minRows(200));
    }

    @Test
    void stringOrderFollowsTheCollationThroughWeightStrings() {
        check(sql("SELECT name, user_id FROM users ORDER BY name, user_id")
                // AS CHAR(64): MariaDB keeps the weights of trailing spaces unless the weight is padded to the
                // column's length, and under a PAD SPACE collation 'aaron ' = 'Aaron'
                .shards("SELECT name, user_id, WEIGHT_STRING(name AS CHAR(64)) FROM {users} ORDER BY name, user_id")
                .spec(new MergeSpec.SortedMerge(List.of(new SortKey(0, false, 2), SortKey.ascending(1)), show(2)))
                .ordered().minRows(200));
    }

    @Test
    void distinctCountryCodesAreDistinctUnderTheCollation() {
        check(sql("SELECT DISTINCT country_code FROM users")
                .shards("SELECT DISTINCT country_code, WEIGHT_STRING(country_code) FROM {users} ORDER BY country_code")
                .spec(new MergeSpec.SortedMerge(List.of(new SortKey(0, false, 1)), new Tail(true, 0, -1, 1)))
                .byWeight(0).minRows(10));
    }

    @Test
    void distinctAsAGroupingWithoutAggregatesGivesTheSameRows() {
        check(sql("SELECT DISTINCT status, amount FROM orders WHERE amount = 19.99 OR amount IS NULL OR amount < 0")
                .shards("SELECT status, amount, WEIGHT_STRING(status) FROM {orders} WHERE amount = 19.99 OR amount IS NULL"
                        + " OR amount < 0 GROUP BY status, amount")
                .spec(new MergeSpec.GroupedAggregate(List.of(new SortKey(0, false, 2), SortKey.ascending(1)), List.of(), false, null,
                        List.of(), show(2)))
                .byWeight(0).minRows(5));
    }

    @Test
    void concatenationReturnsEveryShardsRows() {
        check(sql("SELECT order_id, user_id, status, amount, created_at FROM orders WHERE amount < 0 OR amount IS NULL")
                .shards("SELECT order_id, user_id, status, amount, created_at FROM {orders} WHERE amount < 0 OR amount IS NULL")
                .spec(new MergeSpec.Concat(Tail.NONE))
                .minRows(20));
    }

    @Test
    void concatenationWithDistinctAndLimitCountsDistinctRowsFirst() {
        check(sql("SELECT DISTINCT quantity FROM order_items ORDER BY quantity LIMIT 2, 3")
                .shards("SELECT DISTINCT quantity FROM {order_items} ORDER BY quantity")
                .spec(new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), new Tail(true, 2, 3, -1)))
                .ordered().minRows(3));
    }

    /** The double formatter against the server's own text for thousands of doubles. */
    @Test
    void doublesFormatExactlyAsTheServerPrintsThem() throws SQLException {
        String q = "SELECT amount / 7e0, amount * 1e13 / 3e0, amount / 1e19, amount * 1e0, 1e0 / amount, amount * amount * 1e11"
                + " FROM orders WHERE amount IS NOT NULL";
        int checked = 0;
        try (ResultCursor c = JdbcCursor.open(server, oracle, q)) {
            while (c.next()) {
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    if (v != null) {
                        String text = new String(v, StandardCharsets.US_ASCII);
                        assertEquals(text, NumberText.formatDouble(Double.parseDouble(text), c.columns().get(i).decimals(), false));
                        checked++;
                    }
                }
            }
        }
        assertTrue(checked > 5000, "checked " + checked);
    }

    // ---- fixture ----

    private static Tail show(int visible) {
        return new Tail(false, 0, -1, visible);
    }

    private static Check sql(String oracleSql) {
        return new Check(oracleSql);
    }

    private static final class Check {
        final String oracleSql;
        String shardSql;
        MergeSpec spec;
        boolean ordered;
        int oracleColumns = -1;
        int minRows = 1;
        Set<Integer> byWeight = new HashSet<>();

        Check(String oracleSql) {
            this.oracleSql = oracleSql;
        }

        Check shards(String sql) {
            this.shardSql = sql;
            return this;
        }

        Check spec(MergeSpec s) {
            this.spec = s;
            return this;
        }

        Check ordered() {
            this.ordered = true;
            return this;
        }

        /** Compare only the oracle's first n columns (it computes more than this merge does). */
        Check oracleColumns(int n) {
            this.oracleColumns = n;
            return this;
        }

        Check minRows(int n) {
            this.minRows = n;
            return this;
        }

        Check byWeight(int... columns) {
            for (int c : columns) {
                byWeight.add(c);
            }
            return this;
        }
    }

    private static void check(Check check) {
        Result expected = read(JdbcCursor.open(server, oracle, check.oracleSql), check.byWeight, check.oracleColumns);
        List<JdbcCursor> units = new ArrayList<>();
        List<DataNode> orders = rule.table("orders").nodes();
        for (int i = 0; i < orders.size(); i++) {
            int node = i;
            Matcher m = TABLE.matcher(check.shardSql);
            String sql = m.replaceAll(r -> rule.table(r.group(1)).nodes().get(node).table());
            units.add(JdbcCursor.open(server, database(orders.get(i).backend()), sql));
        }
        Result actual = read(Merger.merge(List.copyOf(units), check.spec), check.byWeight, -1);
        for (JdbcCursor u : units) {
            assertTrue(u.closed, "every unit is closed after the merge");
        }
        String what = check.oracleSql;
        assertEquals(expected.columns, actual.columns, "columns of " + what);
        assertTrue(expected.rows.size() >= check.minRows, "the oracle returns at least " + check.minRows + " rows for " + what);
        if (check.ordered) {
            assertEquals(expected.rows, actual.rows, what);
        } else {
            Comparator<List<String>> byText = Comparator.comparing(Object::toString);
            assertEquals(sorted(expected.rows, byText), sorted(actual.rows, byText), what);
        }
        assertFalse(actual.rows.isEmpty() && !expected.rows.isEmpty());
    }

    private static List<List<String>> sorted(List<List<String>> rows, Comparator<List<String>> order) {
        List<List<String>> copy = new ArrayList<>(rows);
        copy.sort(order);
        return copy;
    }

    private record Result(List<String> columns, List<List<String>> rows) {}

    /** Rows as byte-exact strings (ISO-8859-1), collation-ambiguous columns replaced by their weight. */
    private static Result read(ResultCursor cursor, Set<Integer> byWeight, int width) {
        try (cursor) {
            int n = width < 0 ? cursor.columns().size() : width;
            List<String> columns = new ArrayList<>();
            for (Column c : cursor.columns().subList(0, n)) {
                columns.add(c.name() + " type " + c.mysqlType() + " decimals " + c.decimals());
            }
            List<List<String>> rows = new ArrayList<>();
            while (cursor.next()) {
                String[] row = new String[n];
                for (int i = 0; i < n; i++) {
                    byte[] v = cursor.get(i);
                    row[i] = v == null ? null : byWeight.contains(i) ? weight(new String(v, StandardCharsets.UTF_8))
                            : new String(v, StandardCharsets.ISO_8859_1);
                }
                rows.add(Arrays.asList(row));
            }
            return new Result(columns, rows);
        }
    }

    private static String weight(String value) {
        return WEIGHTS.computeIfAbsent(value, v -> {
            try (PreparedStatement ps = weigher.prepareStatement(
                    "SELECT HEX(WEIGHT_STRING(CONVERT(? USING utf8mb4) COLLATE utf8mb4_general_ci))")) {
                ps.setString(1, v);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return "weight " + rs.getString(1);
                }
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
    }

    private static String database(String backend) {
        String url = rule.config().backends().get(backend).url();
        int slash = url.indexOf('/', "jdbc:mysql://".length());
        int query = url.indexOf('?', slash);
        return url.substring(slash + 1, query < 0 ? url.length() : query);
    }
}
