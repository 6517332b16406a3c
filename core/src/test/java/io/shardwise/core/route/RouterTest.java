package io.shardwise.core.route;

import static io.shardwise.core.route.RouteFixture.prepared;
import static io.shardwise.core.route.RouteFixture.sql;
import static io.shardwise.core.route.RouteKind.BROADCAST_READ;
import static io.shardwise.core.route.RouteKind.BROADCAST_WRITE;
import static io.shardwise.core.route.RouteKind.INSERT_SELECT;
import static io.shardwise.core.route.RouteKind.KEYED_WRITE;
import static io.shardwise.core.route.RouteKind.MULTI_POINT;
import static io.shardwise.core.route.RouteKind.POINT;
import static io.shardwise.core.route.RouteKind.RANGE;
import static io.shardwise.core.route.RouteKind.SCATTER;
import static io.shardwise.core.route.RouteKind.UNSHARDED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.rule.SnowflakeKeyGenerator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** orders: ds${0..1}.orders_${0..1} by user_id mod 4 (0 → ds0.orders_0, 1 → ds0.orders_1, 2 → ds1.orders_0, 3 → ds1.orders_1). */
class RouterTest {
    @Test
    void pointSelectGoesToTheOneNodeOfItsKeyUnchangedButForTheTableName() {
        sql("select * from orders where user_id = ?", 5L).routes(POINT)
                .rewritesTo("ds0: select * from orders_1 where user_id = 5").merges("pass-through");
        sql("select * from orders where ? = user_id", 6L).routes(POINT).rewritesTo("ds1: select * from orders_0 where 6 = user_id");
    }

    @Test
    void preparedParametersStayMarkersAndAreBoundPerUnit() {
        prepared("select c from orders where user_id = ? and status = ?", 7L, "paid").routes(POINT)
                .rewritesTo("ds1: select c from orders_1 where user_id = ? and status = ?").binds(7L, "paid");
    }

    @Test
    void inListsAndOrsOfEqualitiesVisitOnlyTheirNodes() {
        sql("select order_id from orders where user_id in (?, ?)", 1L, 2L).routes(MULTI_POINT)
                .rewritesTo("ds0: select order_id from orders_1 where user_id in (1, 2)",
                        "ds1: select order_id from orders_0 where user_id in (1, 2)")
                .merges("concat");
        sql("select order_id from orders where user_id = ? or user_id = ?", 4L, 8L).routes(POINT)
                .rewritesTo("ds0: select order_id from orders_0 where user_id = 4 or user_id = 8");
        sql("select order_id from orders where user_id = ? or status = ?", 4L, "x").routes(SCATTER);
    }

    @Test
    void keyEqualToNullMatchesNothingButStillAnswersFromOneNode() {
        sql("select count(*) from orders where user_id = ?", (Object) null).routes(POINT)
                .rewritesTo("ds0: select count(*) from orders_0 where user_id = NULL");
        sql("select * from orders where user_id is null").routes(POINT);
    }

    @Test
    void qualifiedAndBacktickedNamesAreRenamedEverywhere() {
        sql("select orders.status, `orders`.amount from shop.orders where orders.user_id = ?", 3L).routes(POINT)
                .rewritesTo("ds1: select orders_1.status, orders_1.amount from orders_1 where orders_1.user_id = 3");
        sql("select o.status from `orders` o where o.`user_id` = ?", 3L)
                .rewritesTo("ds1: select o.status from orders_1 o where o.`user_id` = 3");
    }

    @Test
    void scatterOrderByLimitFetchesOffsetPlusCountFromEachShardAndMergesSorted() {
        sql("select order_id, amount from orders order by amount desc limit ?, ?", 5L, 10L).routes(SCATTER)
                .rewritesTo("ds0: select order_id, amount, weight_string(rtrim(amount)) from orders_0 order by amount desc limit 15",
                        "ds0: select order_id, amount, weight_string(rtrim(amount)) from orders_1 order by amount desc limit 15",
                        "ds1: select order_id, amount, weight_string(rtrim(amount)) from orders_0 order by amount desc limit 15",
                        "ds1: select order_id, amount, weight_string(rtrim(amount)) from orders_1 order by amount desc limit 15")
                .merges("sorted-merge by [#1~w#2 desc] offset 5 limit 10 show 2");
    }

    @Test
    void orderByAColumnNotSelectedAddsItHiddenAfterTheStar() {
        RoutePlan plan = sql("select * from orders order by created_at limit ?", 3L).routes(SCATTER).plan();
        assertEquals("ds0: select *, created_at, weight_string(rtrim(created_at)) from orders_0 order by created_at limit 3",
                plan.units().get(0).backend() + ": " + plan.units().get(0).sql());
        assertEquals(0, plan.starItem());
        assertEquals("sorted-merge by [#1~w#2] limit 3 show 1", plan.merge().explain());
        // with 5 real columns behind the star, every later index moves by 4
        assertEquals("sorted-merge by [#5~w#6] limit 3 show 5", plan.mergeFor(plan.assumedWidth() + 4).explain());
    }

    @Test
    void groupByMergesAggregatesWithHiddenSumAndCountBehindAvgAndDropsTheShardLimit() {
        sql("select status, count(*), sum(amount), avg(amount), min(name) from orders group by status order by status limit ?", 2L)
                .routes(SCATTER)
                .rewritesTo("ds0: select status, count(*), sum(amount), avg(amount), min(name), weight_string(rtrim(status)),"
                        + " sum(amount), count(amount), weight_string(rtrim(min(name))) from orders_0 group by status order by status ",
                        "ds0: select status, count(*), sum(amount), avg(amount), min(name), weight_string(rtrim(status)),"
                        + " sum(amount), count(amount), weight_string(rtrim(min(name))) from orders_1 group by status order by status ",
                        "ds1: select status, count(*), sum(amount), avg(amount), min(name), weight_string(rtrim(status)),"
                        + " sum(amount), count(amount), weight_string(rtrim(min(name))) from orders_0 group by status order by status ",
                        "ds1: select status, count(*), sum(amount), avg(amount), min(name), weight_string(rtrim(status)),"
                        + " sum(amount), count(amount), weight_string(rtrim(min(name))) from orders_1 group by status order by status ")
                .merges("group by [#0~w#5] aggregate [count(#1), sum(#2), avg(#3 sum#6 count#7), min(#4 ~w#8)] (hashed)"
                        + " order by [#0~w#5] limit 2 show 5");
    }

    @Test
    void globalAggregatesAndDistinctBecomeGroupedMerges() {
        sql("select count(*) from orders").merges("group by [] aggregate [count(#0)] (hashed)");
        sql("select distinct status from orders").merges("group by [#0~w#1] aggregate [] (hashed) show 1");
    }

    @Test
    void havingMovesFromTheShardsToTheMergeWithHiddenAggregates() {
        sql("select status, count(*) from orders group by status having count(*) > ? and sum(amount) < ?", 3L, 100L)
                .routes(SCATTER)
                .rewritesTo("ds0: select status, count(*), weight_string(rtrim(status)), sum(amount) from orders_0 group by status ",
                        "ds0: select status, count(*), weight_string(rtrim(status)), sum(amount) from orders_1 group by status ",
                        "ds1: select status, count(*), weight_string(rtrim(status)), sum(amount) from orders_0 group by status ",
                        "ds1: select status, count(*), weight_string(rtrim(status)), sum(amount) from orders_1 group by status ")
                .merges("group by [#0~w#2] aggregate [count(#1), sum(#3)] (hashed) having And[operands=[(#1 GT 3), (#3 LT 100)]] show 2");
    }

    @Test
    void distinctAggregatesGroupTheShardsByTheirArgumentAndDeduplicateInTheMerge() {
        sql("select status, count(*), count(distinct user_id) from orders group by status").routes(SCATTER).plan();
        RoutePlan plan = sql("select count(distinct user_id) as users, sum(distinct user_id) from orders").plan();
        assertEquals("ds0: select user_id as users, user_id AS `sum(distinct user_id)`, weight_string(rtrim(user_id)) from orders_0 group by user_id ",
                "ds0: " + plan.units().get(0).sql());
    }

    @Test
    void orderByAnAggregateTakesNoWeightOfTheUnitsTextExceptMinAndMax() {
        // issue 12: a weight of COUNT(DISTINCT status)'s unit column is the weight of status itself
        sql("select user_id, count(distinct status), max(status) from orders group by user_id order by count(distinct status) desc, ?", 3L)
                .merges("group by [#0~w#3] aggregate [count_distinct(#1 ~w#4), max(#2 ~w#5)] (hashed) order by [#1 desc, #2~w#5] show 3");
    }

    @Test
    void orderByAnAggregateNotSelectedMergesItInAHiddenColumn() {
        sql("select user_id from orders group by user_id having sum(amount) > ? order by sum(amount) desc, max(status)", 5L)
                .merges("group by [#0~w#1] aggregate [sum(#2), max(#3 ~w#4)] (hashed) having (#2 GT 5)"
                        + " order by [#2 desc, #3~w#4] show 1");
        // issue 12: one over DISTINCT values too, its argument in a hidden column the units group by
        RoutePlan distinct = sql("select user_id from orders group by user_id having count(distinct status) > ?"
                + " order by sum(distinct amount) desc, count(distinct status)", 1L).plan();
        assertEquals("select user_id, weight_string(rtrim(user_id)), (status), weight_string(rtrim(status)), ((amount)),"
                + " weight_string(rtrim(amount)) from orders_0 group by user_id, status, amount "
                + " order by sum(distinct amount) desc, count(distinct status)", distinct.units().get(0).sql());
        assertEquals("group by [#0~w#1] aggregate [count_distinct(#2 ~w#3), sum_distinct(#4 ~w#5)] (hashed) having (#2 GT 1)"
                + " order by [#4 desc, #2] show 1", distinct.merge().explain());
    }

    @Test
    void expressionsWithLiteralsBecomeHiddenColumnsCopiedFromTheStatement() {
        RoutePlan plan = sql("select order_id, amount * ? as dbl from orders order by amount * ? desc, dbl, order_id", 3L, -1L).plan();
        assertEquals("select order_id, amount * 3 as dbl, amount * -1, weight_string(rtrim(amount * -1)),"
                + " weight_string(rtrim(amount * 3)), weight_string(rtrim(order_id)) from orders_0"
                + " order by amount * -1 desc, dbl, order_id", plan.units().get(0).sql());
        // the same expression with the same values is the item itself
        sql("select amount * ? from orders order by amount * ?", 2L, 2L).merges("sorted-merge by [#0~w#1] show 1");
    }

    @Test
    void parametersInHiddenColumnsAreBoundInTheOrderTheyAppear() {
        RoutePlan plan = prepared("select user_id, sum(case when status = ? then amount else ? end) from orders where amount > ?"
                + " group by user_id having avg(amount + ?) > ?", "paid", 0, 1, 2, 3).plan();
        ExecutionUnit unit = plan.units().get(0);
        // AVG in HAVING is its merged SUM / COUNT (unrounded, as MySQL compares it)
        assertEquals("select user_id, sum(case when status = ? then amount else ? end), weight_string(rtrim(user_id)),"
                + " sum(amount + ?), count(amount + ?) from orders_0 where amount > ? group by user_id ", unit.sql());
        assertEquals(List.of("paid", 0, 2, 2, 1), unit.params());
        RoutePlan ordered = prepared("select order_id from orders where user_id > ? order by coalesce(amount, ?), order_id", 5, 0).plan();
        assertEquals("select order_id, coalesce(amount, ?), weight_string(rtrim(coalesce(amount, ?))), weight_string(rtrim(order_id))"
                + " from orders_0 where user_id > ? order by coalesce(amount, ?), order_id", ordered.units().get(0).sql());
        assertEquals(List.of(0, 0, 5, 0), ordered.units().get(0).params());
    }

    @Test
    void aDistinctAggregateOverAnExpressionWithLiteralsGroupsTheShardsByACopyOfIt() {
        RoutePlan plan = sql("select count(distinct if(amount > ?, user_id, null)), sum(distinct if(amount > ?, user_id, null))"
                + " from orders", 100L, 100L).plan();
        // labels are the user's text with the values, as the backend labels the items it receives spliced
        assertEquals("select if(amount > 100, user_id, null) AS `count(distinct if(amount > 100, user_id, null))`,"
                + " if(amount > 100, user_id, null) AS `sum(distinct if(amount > 100, user_id, null))`,"
                + " weight_string(rtrim(if(amount > 100, user_id, null))) from orders_0 group by if(amount > 100, user_id, null) ",
                plan.units().get(0).sql());
        // a prepared statement's values are bound, and spliced into the label as a client-side prepare would
        assertEquals("select if(status = ?, user_id, null) AS `count(distinct if(status = 'it\\'s', user_id, null))`,"
                + " weight_string(rtrim(if(status = ?, user_id, null))) from orders_0 group by if(status = ?, user_id, null) ",
                prepared("select count(distinct if(status = ?, user_id, null)) from orders", "it's").plan().units().get(0).sql());
        // issue 12: different values make different expressions; the units group by both
        assertEquals("select if(amount > 1, user_id, null) AS `count(distinct if(amount > 1, user_id, null))`,"
                + " if(amount > 2, user_id, null) AS `count(distinct if(amount > 2, user_id, null))`,"
                + " weight_string(rtrim(if(amount > 1, user_id, null))), weight_string(rtrim(if(amount > 2, user_id, null)))"
                + " from orders_0 group by if(amount > 1, user_id, null), if(amount > 2, user_id, null) ",
                sql("select count(distinct if(amount > ?, user_id, null)), count(distinct if(amount > ?, user_id, null)) from orders",
                        1L, 2L).plan().units().get(0).sql());
    }

    @Test
    void bitAggregatesAreMergedFromEachShardsOwnValueInItemsHavingAndOrderBy() {
        RoutePlan plan = sql("select status, bit_xor(user_id) from orders group by status"
                + " having bit_or(user_id) > ? order by bit_and(order_id), status", 2L).plan();
        assertEquals("select status, bit_xor(user_id), weight_string(rtrim(status)), bit_or(user_id), bit_and(order_id)"
                + " from orders_0 group by status  order by bit_and(order_id), status", plan.units().get(0).sql());
        assertEquals("group by [#0~w#2] aggregate [bit_xor(#1), bit_or(#3), bit_and(#4)] (hashed)", plan.merge().explain()
                .replaceAll(" having .*", ""));
    }

    @Test
    void expressionsOverAggregatesAreComputedAfterTheMergeAndTheUnitsDivideByNullIfZero() {
        RoutePlan plan = sql("select user_id, sum(amount) / count(*) as r, avg(amount) * ? from orders group by user_id"
                + " having r > ? order by max(amount) - min(amount) desc, user_id", 2L, 10L).plan();
        // the units compute each expression too (for its column definition), divisors wrapped so no shard warns of x / 0
        assertEquals("select user_id, sum(amount) / nullif(count(*), 0) as r, avg(amount) * 2, weight_string(rtrim(user_id)),"
                + " sum(amount), count(*), count(amount), max(amount) - min(amount), max(amount), weight_string(rtrim(max(amount))),"
                + " min(amount), weight_string(rtrim(min(amount))) from orders_0 group by user_id "
                + " order by max(amount) - min(amount) desc, user_id", plan.units().get(0).sql());
        // AVG inside an expression is the unrounded SUM / COUNT, as MySQL multiplies it; HAVING r is the expression itself
        assertEquals("group by [#0~w#3] aggregate [sum(#4), count(#5), count(#6), max(#8 ~w#9), min(#10 ~w#11)]"
                + " compute [#1=(#4 / #5), #2=(avg(#4 / #6) * 2), #7=(#8 - #10)] (hashed) having ((#4 / #5) GT 10) order by [#7 desc, #0~w#3]"
                + " show 3", plan.merge().explain());
        assertEquals("select ((max(amount))) / nullif((min(amount) + 1), 0) AS `((max(amount))) / (min(amount) + 1)`, max(amount),"
                + " weight_string(rtrim(max(amount))), min(amount), weight_string(rtrim(min(amount))) from orders_0",
                sql("select ((max(amount))) / (min(amount) + 1) from orders").plan().units().get(0).sql());
    }

    @Test
    void countOfDistinctTuplesGroupsTheShardsByEveryArgumentAndCountsOneIdentityColumn() {
        RoutePlan plan = sql("select status, count(distinct user_id, amount) from orders group by status"
                + " having count(distinct order_id, amount) > 1").plan();
        assertEquals("select status, concat(length(weight_string(rtrim(user_id))), ':', weight_string(rtrim(user_id)),"
                + " weight_string(rtrim(amount))) AS `count(distinct user_id, amount)`, weight_string(rtrim(status)),"
                + " concat(length(weight_string(rtrim(order_id))), ':', weight_string(rtrim(order_id)), weight_string(rtrim(amount)))"
                + " from orders_0 group by status, user_id, amount, order_id, amount ", plan.units().get(0).sql());
        assertEquals("group by [#0~w#2] aggregate [count_distinct(#1), count_distinct(#3)] (hashed) having (#3 GT 1) show 2",
                plan.merge().explain());
    }

    @Test
    void selectDistinctOverGroupsDeDuplicatesTheMergedGroups() {
        assertTrue(sql("select distinct count(*) from orders group by user_id").plan().merge().tail().distinct());
    }

    @Test
    void functionsOverAggregatesStayRefused() {
        sql("select concat(count(*), 'x') from orders").fails(ErrorCode.UNSUPPORTED, "this expression over aggregates across shards: "
                + "concat(count(*), 'x')");
        sql("select status from orders group by status order by round(sum(amount), 0)").fails(ErrorCode.UNSUPPORTED,
                "ORDER BY this expression over aggregates across shards: round(sum(amount), 0)");
        // COALESCE, IFNULL and IF are evaluated after the merge
        assertEquals("group by [] aggregate [sum(#3), count(#4), max(#5 ~w#6)] compute [#0=coalesce[#3, 0], #1=if((#4 GT 1), 'a', 'b'),"
                + " #2=coalesce[#5, -1]] (hashed) show 3", sql("select ifnull(sum(amount), 0), if(count(*) > 1, 'a', 'b'),"
                + " coalesce(max(amount), -1) from orders").plan().merge().explain());
    }

    @Test
    void groupConcatUnitsGroupByItsArgumentsAndKeysAndReturnTheKeysWeightsAndSeparator() {
        RoutePlan plan = sql("select user_id, group_concat(distinct status order by status desc separator ?), count(*) from orders"
                + " group by user_id", "-").plan();
        assertEquals("select user_id, group_concat(distinct status order by status desc separator '-'), count(*),"
                + " weight_string(rtrim(user_id)), status, weight_string(rtrim(status)), '-', @@group_concat_max_len from orders_0"
                + " group by user_id, status",
                plan.units().get(0).sql().strip());
        assertEquals("group by [#0~w#3] aggregate [group_concat(#1 distinct [#4~w#5] order [#4~w#5 desc] sep#6 max#7), count(#2)] (hashed) show 3",
                plan.merge().explain());
        // no GROUP BY: the units group by the arguments and keys alone
        assertEquals("select group_concat(status, note order by order_id), order_id, weight_string(rtrim(order_id)),"
                + " @@group_concat_max_len from orders_0 group by status, note, order_id", sql("select group_concat(status, note order by order_id) from orders").plan()
                .units().get(0).sql().strip());
        // a literal argument alone is no GROUP BY key (a number there would be a position)
        assertEquals("select group_concat(note, 2 order by note), note, weight_string(rtrim(note)), @@group_concat_max_len from orders_0"
                + " group by note",
                sql("select group_concat(note, 2 order by note) from orders").plan().units().get(0).sql().strip());
    }

    @Test
    void varianceAsksEachShardForCountSumAndAnUnroundedVarPop() {
        RoutePlan plan = sql("select status, stddev_samp(amount) from orders group by status"
                + " having variance(amount) > ? order by var_samp(amount)", 1L).plan();
        // one COUNT, SUM and unrounded VAR_POP per argument, shared by the three aggregates over it
        assertEquals("select status, stddev_samp(amount), weight_string(rtrim(status)), sum(amount), count(amount),"
                + " cast(var_pop(amount) as double), var_pop(amount), var_samp(amount) from orders_0 group by status "
                + " order by var_samp(amount)", plan.units().get(0).sql());
        assertEquals("group by [#0~w#2] aggregate [stddev_samp(#1 sum#3 count#4 var#5), var_pop(#6 sum#3 count#4 var#5),"
                + " var_samp(#7 sum#3 count#4 var#5)] (hashed) having (#6 GT 1) order by [#7] show 2", plan.merge().explain());
    }

    /** Calcite names these JSON_ARRAYAGG_ABSENT_ON_NULL etc.: once taken for plain columns, each shard's array came back as a row. */
    @Test
    void jsonAggregatesAreJoinedFromPiecesAsGroupConcatIs() {
        RoutePlan plan = sql("select status, json_arrayagg(amount order by amount desc, order_id), json_objectagg(user_id, amount)"
                + " from orders group by status").plan();
        // each unit row's arrays hold rows equal in status and in every argument and key: the merge joins them
        assertEquals("select status, json_arrayagg(amount order by amount desc, order_id), json_objectagg(user_id, amount),"
                + " weight_string(rtrim(status)), amount, weight_string(rtrim(amount)), order_id, weight_string(rtrim(order_id)),"
                + " @@group_concat_max_len from orders_0 group by status, amount, order_id, user_id", plan.units().get(0).sql());
        assertEquals("group by [#0~w#3] aggregate [json_arrayagg(#1 order [#4~w#5 desc, #6~w#7] max#8), json_objectagg(#2)] (hashed)"
                + " show 3", plan.merge().explain());
    }

    @Test
    void withRollupGroupsPlainlyOnTheShardsAndTheMergeAddsTheSuperAggregates() {
        RoutePlan plan = sql("select status, user_id % 2, count(*), avg(amount) from orders group by status, user_id % 2 with rollup"
                + " having count(*) > ? limit 5", 1L).plan();
        assertEquals("select status, user_id % 2, count(*), avg(amount), weight_string(rtrim(status)), weight_string(rtrim(user_id % 2)),"
                + " sum(amount), count(amount) from orders_0 group by status, user_id % 2   ", plan.units().get(0).sql());
        assertEquals("group by [#0~w#4, #1~w#5] aggregate [count(#2), avg(#3 sum#6 count#7)] with rollup (hashed) having (#2 GT 1) limit 5"
                + " show 4", plan.merge().explain());
        // with an ORDER BY the shards keep it, and refuse the statement as MySQL does (1221)
        assertTrue(sql("select status, count(*) from orders group by status with rollup order by status").plan().units().get(0).sql()
                .contains("group by status with rollup order by status"));
    }

    @Test
    void absOverAggregatesIsEvaluatedAfterTheMergeAsMysqlsAbs() {
        // ABS(x) is IF(x < 0, -x, x + 0): the argument's type and scale, a string read as a number
        assertEquals("group by [#0~w#2] aggregate [sum(#3)] compute [#1=if(((#3 - 10) LT 0), -(#3 - 10), ((#3 - 10) + 0))] (hashed)"
                + " show 2", sql("select status, abs(sum(amount) - ?) from orders group by status", 10L).plan().merge().explain());
    }

    @Test
    void whatCannotBeMergedExactlyIsRefusedWith1235() {
        sql("select status from orders group by status having json_arrayagg(amount) = ?", "[1]").fails(ErrorCode.UNSUPPORTED,
                "json_arrayagg(amount) in HAVING or ORDER BY");
        sql("select status, json_objectagg(user_id, amount) j from orders group by status order by j").fails(ErrorCode.UNSUPPORTED,
                "ORDER BY a GROUP_CONCAT item");
        sql("select json_arrayagg(distinct amount) from orders").fails(ErrorCode.UNSUPPORTED, "this form of SELECT");
        sql("select status from orders group by status having group_concat(note) = ?", "x").fails(ErrorCode.UNSUPPORTED, "group_concat(note) in HAVING");
        sql("select status, group_concat(note) g from orders group by status order by g").fails(ErrorCode.UNSUPPORTED,
                "ORDER BY a GROUP_CONCAT item");
        sql("select group_concat(note order by 1) from orders").fails(ErrorCode.UNSUPPORTED, "group_concat(note order by");
        sql("select status, count(*) from orders group by status having count(*) > ? and group_concat(user_id) = ?", 3L, "1")
                .fails(ErrorCode.UNSUPPORTED, "group_concat(user_id) in HAVING");
        sql("select * from orders where user_id in (select user_id from users)").fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select o.order_id from orders o join order_items i on o.order_id = i.order_id")
                .fails(ErrorCode.UNSUPPORTED, "not joined on their sharding columns");
        sql("select * from orders o join sbtest1 s on o.user_id = s.id").fails(ErrorCode.UNSUPPORTED, "not bound");
    }

    @Test
    void subqueriesAreFineWhenTheWholeStatementStaysOnOneNode() {
        sql("select * from orders where user_id = ? and order_id in (select order_id from order_items where user_id = ?)", 5L, 5L)
                .routes(POINT)
                .rewritesTo("ds0: select * from orders_1 where user_id = 5 and order_id in (select order_id from order_items_1 where user_id = 5)");
    }

    @Test
    void subqueriesCorrelatedOnTheKeyOfBoundTablesRunOnEveryNodeTheOuterRowsRouteTo() {
        sql("select o.order_id from orders o where exists (select 1 from order_items i where i.user_id = o.user_id and i.sku = ?)", "x")
                .routes(SCATTER).merges("concat");
        sql("select u.name, (select count(*) from orders o where o.user_id = u.user_id) as n,"
                + " (select c.name from countries c where c.code = u.country_code) as country from users u where u.user_id in (?, ?)", 1L, 2L)
                .routes(MULTI_POINT);
        // a subquery over other rows, or one the merger would evaluate across nodes: the third tier
        sql("select * from orders o where amount > (select avg(amount) from orders)").fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select * from orders o where exists (select 1 from order_items i where i.order_id = o.order_id)")
                .fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select sum((select count(*) from order_items i where i.user_id = o.user_id)) from orders o").fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select user_id from orders o group by user_id having count(*) > (select count(*) from users u where u.user_id = o.user_id)")
                .fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select o.order_id from orders o order by (select count(*) from order_items i where i.user_id = o.user_id)")
                .fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select t.n from (select user_id, count(*) n from orders group by user_id) t").fails(ErrorCode.UNSUPPORTED, "derived table");
        sql("select o.order_id, (select count(*) from order_items i where i.user_id = o.user_id) as n from orders o order by n + 1, o.order_id")
                .fails(ErrorCode.UNSUPPORTED, "subquery");
        sql("select o.order_id, (select count(*) from order_items i where i.user_id = o.user_id) as n from orders o order by o.order_id")
                .routes(SCATTER);
        // ORDER BY a subquery over broadcast tables only: the same value on every node, merged as before
        sql("select order_id from orders o order by (select count(*) from countries c where c.code = o.status), order_id").routes(SCATTER);
        sql("select order_id from orders o where o.user_id = ? order by (select count(*) from order_items i where i.user_id = o.user_id)", 5L)
                .routes(POINT)
                .rewritesTo("ds0: select order_id from orders_1 o where o.user_id = 5 order by (select count(*) from order_items_1 i"
                        + " where i.user_id = o.user_id)");
    }

    @Test
    void boundTablesJoinedOnTheirKeysMeetOnOneNode() {
        sql("select o.order_id, i.sku from orders o join order_items i on o.user_id = i.user_id where o.user_id = ?", 6L)
                .routes(POINT)
                .rewritesTo("ds1: select o.order_id, i.sku from orders_0 o join order_items_0 i on o.user_id = i.user_id where o.user_id = 6");
        sql("select o.order_id, i.sku from orders o join order_items i on o.user_id = i.user_id").routes(SCATTER);
    }

    @Test
    void broadcastTablesAreReadFromOneCopyAndJoinWithShards() {
        sql("select * from countries where code = ?", "DE").routes(BROADCAST_READ).rewritesTo("ds0: select * from countries where code = 'DE'");
        sql("select u.name, c.name from users u join countries c on u.country_code = c.code where u.user_id = ?", 2L)
                .routes(POINT).rewritesTo("ds1: select u.name, c.name from users_0 u join countries c on u.country_code = c.code where u.user_id = 2");
    }

    @Test
    void singleTablesAndUnknownTablesGoToTheirBackendUnchanged() {
        sql("select * from promotions").routes(UNSHARDED).rewritesTo("ds1: select * from promotions");
        sql("select * from legacy where id = ?", 1L).routes(UNSHARDED).rewritesTo("ds0: select * from legacy where id = 1");
        sql("select ? + ?", 1L, 2L).routes(UNSHARDED).rewritesTo("ds0: select 1 + 2");
    }

    @Test
    void intervalTablesNarrowRanges() {
        sql("select * from events where created_at >= ? and created_at < ?", "2025-03-01", "2025-06-01").routes(RANGE)
                .rewritesTo("ds0: select * from events_2025 where created_at >= '2025-03-01' and created_at < '2025-06-01'");
        sql("select * from events where created_at between ? and ?", "2025-12-01", "2026-01-31").routes(RANGE).plan();
    }

    @Test
    void multiRowInsertsSplitByTheNodeOfEachRow() {
        sql("insert into orders (order_id, user_id, status) values (?, ?, ?), (?, ?, ?), (?, ?, ?)",
                10L, 1L, "a", 11L, 2L, "b", 12L, 5L, "c")
                .routes(MULTI_POINT)
                .rewritesTo("ds0: insert into orders_1 (order_id, user_id, status) values (10, 1, 'a'), (12, 5, 'c')",
                        "ds1: insert into orders_0 (order_id, user_id, status) values (11, 2, 'b')");
        sql("insert into orders (order_id, user_id) values (?, ?), (?, ?)", 1L, 2L, 3L, 1L)
                .rewritesTo("ds0: insert into orders_1 (order_id, user_id) values (3, 1)",
                        "ds1: insert into orders_0 (order_id, user_id) values (1, 2)");
    }

    @Test
    void aLongMultiRowInsertKeepsEachNodesRowsInOrder() {
        // 2,000 rows whose nodes alternate in runs of 1 to 4 (the first and last rows dropped for one node or the other):
        // each node's statement holds exactly its rows, in the statement's order (the rows dropped by runs of edits)
        StringBuilder sql = new StringBuilder("insert into orders (order_id, user_id) values ");
        List<Object> values = new ArrayList<>();
        java.util.Map<String, List<String>> expected = new java.util.TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            long user = (i / (1 + i % 4)) % 2 == 0 ? 2L : 1L; // user 2 on ds1 (orders_0), user 1 on ds0 (orders_1)
            sql.append(i == 0 ? "" : ", ").append("(?, ?)");
            values.add((long) i);
            values.add(user);
            expected.computeIfAbsent(user == 2L ? "ds1: insert into orders_0" : "ds0: insert into orders_1", k -> new ArrayList<>())
                    .add("(" + i + ", " + user + ")");
        }
        List<String> units = new ArrayList<>();
        expected.forEach((head, rows) -> units.add(head + " (order_id, user_id) values " + String.join(", ", rows)));
        sql(sql.toString(), values.toArray()).routes(MULTI_POINT).rewritesTo(units.toArray(String[]::new));
    }

    @Test
    void insertsWithoutTheGeneratedColumnGetSnowflakeKeys() {
        RoutePlan plan = sql("insert into orders (user_id, status) values (?, ?)", 4L, "new").routes(POINT).plan();
        long key = (Long) plan.generatedKeys().get(0);
        assertEquals("insert into orders_0 (user_id, status, order_id) values (4, 'new', " + key + ")", plan.units().get(0).sql());
        assertEquals(0, SnowflakeKeyGenerator.workerOf(key));
    }

    @Test
    void insertsThatCannotBePlacedAreRefused() {
        sql("insert into orders values (?, ?)", 1L, 2L).fails(ErrorCode.UNSUPPORTED, "without a column list");
        sql("insert into order_items (item_id, sku) values (?, ?)", 1L, "x").fails(ErrorCode.UNSUPPORTED, "without its sharding column 'user_id'");
        sql("insert into orders (order_id, user_id) values (?, ? + 1)", 1L, 2L).fails(ErrorCode.UNSUPPORTED, "computed value");
        sql("insert into orders (order_id, user_id) values (?, ?)", 1L, null).fails(ErrorCode.NO_ROUTE, "user_id = NULL");
        sql("insert into events (id, created_at) values (?, ?)", 1L, "2030-01-01").fails(ErrorCode.NO_ROUTE, "created_at = 2030-01-01");
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update user_id = ?", 1L, 2L, 3L)
                .fails(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE of sharding column");
    }

    @Test
    void onDuplicateKeyUpdateAndReplaceKeepTheirTail() {
        sql("insert ignore into orders (order_id, user_id, status) values (?, ?, ?) on duplicate key update status = values(status)",
                1L, 3L, "x")
                .rewritesTo("ds1: insert ignore into orders_1 (order_id, user_id, status) values (1, 3, 'x') on duplicate key update status = values(status)");
        sql("replace into orders (order_id, user_id) values (?, ?)", 1L, 3L).rewritesTo("ds1: replace into orders_1 (order_id, user_id) values (1, 3)");
    }

    @Test
    void onDuplicateKeyUpdateMayAssignTheShardingColumnItsOwnOrItsInsertedValue() {
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update user_id = values(user_id), status = ?",
                1L, 3L, "dup")
                .rewritesTo("ds1: insert into orders_1 (order_id, user_id) values (1, 3) on duplicate key update user_id = values(user_id),"
                        + " status = 'dup'");
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update status = ?, `user_id` = orders.user_id",
                1L, 3L, "dup")
                .rewritesTo("ds1: insert into orders_1 (order_id, user_id) values (1, 3) on duplicate key update status = 'dup',"
                        + " `user_id` = orders_1.user_id");
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update user_id = user_id", 1L, 3L).routes(POINT);
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update user_id = values(order_id)", 1L, 3L)
                .fails(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE of sharding column 'user_id'");
        sql("insert into orders (order_id, user_id) values (?, ?) on duplicate key update status = ?, user_id = user_id + ?", 1L, 3L, "x", 1L)
                .fails(ErrorCode.UNSUPPORTED, "ON DUPLICATE KEY UPDATE of sharding column 'user_id'");
    }

    @Test
    void insertSetRoutesAsItsValuesForm() {
        sql("insert into orders set order_id = ?, user_id = ?, status = concat(?, 'x')", 10L, 2L, "a")
                .routes(POINT)
                .rewritesTo("ds1: insert into orders_0 (order_id, user_id, status) values (10, 2, concat('a', 'x'))");
        prepared("insert ignore into orders set user_id = ?, status = ? on duplicate key update status = values(status)", 5L, "b")
                .routes(POINT)
                .binds(5L, "b");
        RoutePlan plan = sql("insert into orders set user_id = ?, status = ?", 4L, "new").routes(POINT).plan();
        long key = (Long) plan.generatedKeys().get(0);
        assertEquals("insert into orders_0 (user_id, status, order_id) values (4, 'new', " + key + ")", plan.units().get(0).sql());
        sql("insert into countries set code = ?, name = ?", "FR", "France").routes(BROADCAST_WRITE)
                .rewritesTo("ds0: insert into countries (code, name) values ('FR', 'France')",
                        "ds1: insert into countries (code, name) values ('FR', 'France')");
        sql("insert into orders set status = ?", "x").fails(ErrorCode.UNSUPPORTED, "without its sharding column 'user_id'");
    }

    @Test
    void broadcastWritesGoToEveryCopy() {
        sql("insert into countries (code, name) values (?, ?)", "FR", "France").routes(BROADCAST_WRITE)
                .rewritesTo("ds0: insert into countries (code, name) values ('FR', 'France')",
                        "ds1: insert into countries (code, name) values ('FR', 'France')");
        sql("update countries set name = ? where code = ?", "X", "FR").routes(BROADCAST_WRITE);
    }

    @Test
    void updatesAndDeletesRouteByTheirWhereAndRefuseWhatCannotBeDoneAcrossShards() {
        sql("update orders set status = ? where user_id = ?", "paid", 7L).routes(POINT)
                .rewritesTo("ds1: update orders_1 set status = 'paid' where user_id = 7");
        sql("delete from orders where status = ?", "void").routes(SCATTER);
        // an UPDATE of the sharding key first chooses its rows, every node, locked (its rows may move: KeyMoveTest)
        sql("update orders set user_id = ? where order_id = ?", 1L, 2L).routes(RouteKind.KEY_MOVE)
                .rewritesTo("ds0: select *, (1) from orders_0 where order_id = 2 for update",
                        "ds0: select *, (1) from orders_1 where order_id = 2 for update",
                        "ds1: select *, (1) from orders_0 where order_id = 2 for update",
                        "ds1: select *, (1) from orders_1 where order_id = 2 for update");
        sql("update ignore orders set user_id = ? where order_id = ?", 1L, 2L)
                .fails(ErrorCode.UNSUPPORTED, "UPDATE IGNORE of sharding column 'user_id'");
        sql("update orders set status = ? where user_id = ? order by order_id limit ?", "x", 1L, 1L).routes(POINT)
                .rewritesTo("ds0: update orders_1 set status = 'x' where user_id = 1 order by order_id limit 1");
    }

    @Test
    void limitedWritesAcrossShardsFirstChooseTheirRowsWithALockingSelectInTheGlobalOrder() {
        sql("update orders set status = ?, amount = amount + ? where status = ? order by amount desc, order_id limit ?", "x", 1, "paid", 5L)
                .routes(KEYED_WRITE)
                .merges("sorted-merge by [#1~w#2 desc, #3~w#4] limit 5 show 1")
                .rewritesTo(chooser("ds0", "orders_0"), chooser("ds0", "orders_1"), chooser("ds1", "orders_0"), chooser("ds1", "orders_1"));
        prepared("delete from orders o where o.user_id > ? order by o.created_at limit ?", 3L, 2L).routes(KEYED_WRITE)
                .binds(3L); // the LIMIT is written into each unit
        sql("delete from orders limit ?", 2L).routes(KEYED_WRITE)
                .rewritesTo("ds0: select * from orders_0 limit 2 for update", "ds0: select * from orders_1 limit 2 for update",
                        "ds1: select * from orders_0 limit 2 for update", "ds1: select * from orders_1 limit 2 for update");
        // on one node the statement runs as written
        sql("delete from orders where user_id = ? order by order_id limit ?", 3L, 2L).routes(POINT)
                .rewritesTo("ds1: delete from orders_1 where user_id = 3 order by order_id limit 2");
    }

    @Test
    void insertSelectRoutesItsSelectAndLeavesTheRowsToTheTargetsRule() {
        sql("insert into orders (order_id, user_id, status) select order_id + ?, user_id, status from orders where amount > ?", 1000L, 5L)
                .routes(INSERT_SELECT)
                .rewritesTo("ds0: select order_id + 1000, user_id, status from orders_0 where amount > 5",
                        "ds0: select order_id + 1000, user_id, status from orders_1 where amount > 5",
                        "ds1: select order_id + 1000, user_id, status from orders_0 where amount > 5",
                        "ds1: select order_id + 1000, user_id, status from orders_1 where amount > 5");
        sql("insert into countries (code, name) select country_code, max(name) from users where user_id = ? group by country_code", 7L)
                .routes(INSERT_SELECT)
                .rewritesTo("ds1: select country_code, max(name) from users_1 where user_id = 7 group by country_code");
        // a SELECT the merger cannot answer is refused as that SELECT would be
        sql("insert into promotions (id, code, discount) select order_id, status, max(amount) from orders group by order_id, status"
                + " order by json_arrayagg(amount)").fails(ErrorCode.UNSUPPORTED, "json_arrayagg(amount) in HAVING or ORDER BY");
    }

    @Test
    void distinctStarAcrossShardsIsEachShardsDistinctMergedSinceEveryRowCarriesItsShardingKey() {
        sql("select distinct * from orders where status = ? order by order_id limit ?", "paid", 5L).routes(SCATTER)
                .merges("sorted-merge by [#1~w#2] limit 5 show 1");
        sql("select distinct * from orders").routes(SCATTER).merges("concat");
        sql("select distinct * from orders o join order_items i on o.user_id = i.user_id")
                .fails(ErrorCode.UNSUPPORTED, "SELECT DISTINCT * over a join across shards");
        sql("select distinct o.* from orders o").fails(ErrorCode.UNSUPPORTED, "SELECT DISTINCT o.*");
    }

    @Test
    void binaryAndCollateOrderAcrossShardsByTheExpressionsOwnWeight() {
        sql("select user_id, name from users order by name collate utf8mb4_bin, user_id limit ?", 5L).routes(SCATTER)
                .merges("sorted-merge by [#2~w#3, #0~w#4] limit 5 show 2");
        sql("select binary name as b, user_id from users order by b desc, user_id").routes(SCATTER)
                .merges("sorted-merge by [#0~w#2 desc, #1~w#3] show 2")
                .rewritesTo(binaryOrder("ds0", "users_0"), binaryOrder("ds0", "users_1"), binaryOrder("ds1", "users_0"),
                        binaryOrder("ds1", "users_1"));
        sql("select user_id from users where binary name = ? order by user_id", "Ann").routes(SCATTER);
        sql("select user_id from users where binary user_id = ?", 7L).routes(SCATTER); // not a condition on the key itself
        sql("select cast(name as binary) from users where user_id = ?", 7L).routes(POINT);
    }

    private static String binaryOrder(String backend, String table) {
        return backend + ": select binary name as b, user_id, weight_string(rtrim(binary name)), weight_string(rtrim(user_id)) from "
                + table + " order by b desc, user_id";
    }

    private static String chooser(String backend, String table) {
        return backend + ": select *, amount, weight_string(rtrim(amount)), order_id, weight_string(rtrim(order_id)) from " + table
                + " where status = 'paid' order by amount desc, order_id limit 5 for update";
    }

    @Test
    void deleteNamingItsOneTableByAliasRoutesLikeAPlainDelete() {
        sql("delete o from orders o where o.user_id = ?", 7L).routes(POINT)
                .rewritesTo("ds1: delete o from orders_1 o where o.user_id = 7");
        sql("delete orders from orders where user_id = ?", 7L).routes(POINT)
                .rewritesTo("ds1: delete orders_1 from orders_1 where user_id = 7");
        sql("delete o from orders o join users u on o.user_id = u.user_id where u.user_id = ?", 7L).routes(POINT)
                .rewritesTo("ds1: delete o from orders_1 o join users_1 u on o.user_id = u.user_id where u.user_id = 7");
    }

    @Test
    void multiTableWritesOfCoLocatedTablesRunOnEachNodeTheirJoinReaches() {
        sql("update orders o join order_items i on o.user_id = i.user_id set o.amount = i.price, i.quantity = ? where i.sku = ?", 1L, "a")
                .routes(SCATTER)
                .rewritesTo("ds0: update orders_0 o join order_items_0 i on o.user_id = i.user_id set o.amount = i.price, i.quantity = 1 where i.sku = 'a'",
                        "ds0: update orders_1 o join order_items_1 i on o.user_id = i.user_id set o.amount = i.price, i.quantity = 1 where i.sku = 'a'",
                        "ds1: update orders_0 o join order_items_0 i on o.user_id = i.user_id set o.amount = i.price, i.quantity = 1 where i.sku = 'a'",
                        "ds1: update orders_1 o join order_items_1 i on o.user_id = i.user_id set o.amount = i.price, i.quantity = 1 where i.sku = 'a'");
        sql("delete orders, order_items from orders, order_items, countries where orders.user_id = order_items.user_id"
                + " and countries.code = ? and orders.user_id in (?, ?)", "DE", 4L, 5L).routes(MULTI_POINT)
                .rewritesTo("ds0: delete orders_0, order_items_0 from orders_0, order_items_0, countries where orders_0.user_id ="
                                + " order_items_0.user_id and countries.code = 'DE' and orders_0.user_id in (4, 5)",
                        "ds0: delete orders_1, order_items_1 from orders_1, order_items_1, countries where orders_1.user_id ="
                                + " order_items_1.user_id and countries.code = 'DE' and orders_1.user_id in (4, 5)");
        sql("update promotions p join promotions q on p.id = q.id + 1 set p.discount = q.discount").routes(UNSHARDED)
                .rewritesTo("ds1: update promotions p join promotions q on p.id = q.id + 1 set p.discount = q.discount");
    }

    @Test
    void multiTableWritesThatDoNotMeetOnOneNodeAreRefusedHereNamingWhy() {
        sql("update orders o join sbtest1 s on s.id = o.order_id set o.amount = s.k").fails(ErrorCode.UNSUPPORTED, "a multi-table write");
        sql("delete o, s from orders o join sbtest1 s on s.id = o.order_id").fails(ErrorCode.UNSUPPORTED, "several tables o, s");
        sql("update orders o join order_items i on o.user_id = i.user_id set o.amount = 1 limit 3").fails(ErrorCode.UNSUPPORTED, "LIMIT");
        sql("update countries c join orders o on o.status = c.code set c.name = ?", "x").fails(ErrorCode.UNSUPPORTED, "broadcast table 'countries'");
        sql("update orders o join users u using (user_id) set u.user_id = 3").fails(ErrorCode.UNSUPPORTED, "sharding column 'user_id'");
    }

    @Test
    void ddlReachesEveryPhysicalTable() {
        sql("create table if not exists orders (order_id bigint primary key, user_id bigint)").routes(SCATTER)
                .rewritesTo("ds0: create table if not exists orders_0 (order_id bigint primary key, user_id bigint)",
                        "ds0: create table if not exists orders_1 (order_id bigint primary key, user_id bigint)",
                        "ds1: create table if not exists orders_0 (order_id bigint primary key, user_id bigint)",
                        "ds1: create table if not exists orders_1 (order_id bigint primary key, user_id bigint)");
        sql("drop table if exists countries").routes(BROADCAST_WRITE)
                .rewritesTo("ds0: drop table if exists countries", "ds1: drop table if exists countries");
        sql("truncate table `sbtest1`").rewritesTo("ds0: truncate table sbtest1", "ds1: truncate table sbtest1");
        sql("create index idx_status on orders (status)").routes(SCATTER).plan();
        sql("drop table orders, countries").fails(ErrorCode.UNSUPPORTED, "laid out differently");
    }

    @Test
    void lockingReadsKeepTheirClause() {
        sql("select * from orders where user_id = ? for update", 1L)
                .rewritesTo("ds0: select * from orders_1 where user_id = 1 for update");
        sql("select * from orders where user_id = ? lock in share mode", 1L)
                .rewritesTo("ds0: select * from orders_1 where user_id = 1 lock in share mode");
    }

    @Test
    void mysqlOnlySyntaxIsReadThroughMasking() {
        sql("select k from sbtest1 where id = ? and c regexp ? and pad <=> ? and k div ? > ?", 5L, "a", null, 2L, 1L).routes(POINT);
        sql("select @@version, @x from orders where user_id = ?", 1L).routes(POINT);
        sql("select sql_no_cache straight_join * from orders force index (primary) where user_id = ?", 1L)
                .rewritesTo("ds0: select sql_no_cache straight_join * from orders_1 force index (primary) where user_id = 1");
        sql("select cast(amount as signed), date_add(created_at, interval 1 day) from orders where user_id = ?", 1L).routes(POINT);
    }

    @Test
    void unreadableStatementsPassThroughOnlyWhenNoShardIsInvolved() {
        sql("select * from promotions where match(code) against (?)", "x").routes(UNSHARDED);
        sql("select * from orders where match(status) against (?)", "x").fails(ErrorCode.UNSUPPORTED, "orders");
        sql("handler orders open").fails(ErrorCode.UNSUPPORTED, "orders");
        sql("call refresh_stats()").routes(UNSHARDED);
    }

    @Test
    void sessionCommandsAreClassifiedNotRouted() {
        var s = assertInstanceOf(io.shardwise.core.sql.analyze.SessionCommand.class, sql("set names utf8mb4").statement());
        assertEquals(io.shardwise.core.sql.analyze.SessionCommand.Kind.SET, s.kind());
        assertEquals("names utf8mb4", s.argument());
        assertEquals(io.shardwise.core.sql.analyze.SessionCommand.Kind.BEGIN,
                ((io.shardwise.core.sql.analyze.SessionCommand) sql("start transaction read only").statement()).kind());
        assertEquals(io.shardwise.core.sql.analyze.SessionCommand.Kind.ROLLBACK_TO_SAVEPOINT,
                ((io.shardwise.core.sql.analyze.SessionCommand) sql("rollback to savepoint s1").statement()).kind());
        assertEquals("select * from orders where user_id = ?",
                ((io.shardwise.core.sql.analyze.SessionCommand) sql("preview select * from orders where user_id = ?").statement()).argument());
    }

    @Test
    void statementsTheSessionAnswersItselfAreClassifiedByTheAnalyzer() {
        for (String[] c : new String[][] {
                {"show warnings limit ?", "DIAGNOSTICS"}, {"show count(*) errors", "DIAGNOSTICS"}, {"show tables", "SHOW"},
                {"select @@version_comment limit ?", "VARIABLES"}, {"select database(), user() as u, @@session.tx_isolation", "VARIABLES"},
                {"select @@version as ?", "VARIABLES"}, {"select * from information_schema.tables where table_name = ?", "INFORMATION_SCHEMA"},
                {"insert into t select table_name from `information_schema`.tables", "INFORMATION_SCHEMA"},
                {"kill query ?", "KILL"}, {"describe orders", "DESCRIBE"}, {"explain select * from orders", "EXPLAIN"}}) {
            var s = assertInstanceOf(io.shardwise.core.sql.analyze.SessionCommand.class, sql(c[0]).statement(), c[0]);
            assertEquals(c[1], s.kind().name(), c[0]);
        }
        // anything more than variables and argument-free calls is a query the backends answer
        sql("select @@version, count(*) from orders").routes(SCATTER);
        sql("select now(), ?", 1L).routes(UNSHARDED);
        sql("select 'information_schema.tables'").routes(UNSHARDED);
    }
    @Test
    void databaseStatementsAnswerAsAServerHoldingOnlyTheLogicalSchemaAndNeverReachABackend() {
        sql("create database shop").fails(ErrorCode.DATABASE_EXISTS, "Can't create database 'shop'; database exists");
        sql("CREATE SCHEMA `SHOP`").fails(ErrorCode.DATABASE_EXISTS, "'SHOP'");
        assertEquals(io.shardwise.core.sql.analyze.SessionCommand.Kind.NO_OP,
                ((io.shardwise.core.sql.analyze.SessionCommand) sql("create database if not exists shop").statement()).kind());
        sql("drop database shop").fails(ErrorCode.UNSUPPORTED, "DROP DATABASE shop (Shardwise serves the one logical schema 'shop'; it would drop");
        sql("drop schema if exists `shop`").fails(ErrorCode.UNSUPPORTED, "'DROP SCHEMA IF EXISTS `shop` (Shardwise serves");
        sql("create database other character set utf8mb4").fails(ErrorCode.UNSUPPORTED, "CREATE DATABASE other");
        sql("create schema if not exists other").fails(ErrorCode.UNSUPPORTED, "CREATE SCHEMA IF NOT EXISTS other");
        sql("drop database other").fails(ErrorCode.UNSUPPORTED, "DROP DATABASE other");
        sql("alter database shop character set utf8mb4").fails(ErrorCode.UNSUPPORTED, "ALTER DATABASE shop");
        sql("alter schema default collate utf8mb4_bin").fails(ErrorCode.UNSUPPORTED, "ALTER SCHEMA shop");
    }

    @Test
    void withNamesAreNotTablesButTheTablesOfTheirDefinitionsAre() {
        assertEquals(java.util.List.of(), sql("with x as (select 1 as a) select * from x").statement().tables());
        assertEquals("orders", sql("with x as (select * from orders) select * from x").statement().tables().get(0).name());
        sql("with x as (select * from orders) select * from x").fails(ErrorCode.UNSUPPORTED, "over sharded table 'orders'");
        sql("with x as (select code from countries) select * from x join promotions p on p.code = x.code").routes(UNSHARDED);
    }

    @Test
    void passthroughTablesKeepTheirSchemaQualifier() {
        var p = assertInstanceOf(io.shardwise.core.sql.analyze.Passthrough.class,
                sql("select * from shop.promotions where match(code) against (?)", "x").statement());
        assertEquals("shop", p.tables().get(0).schema());
    }

    /** A physical table of a sharded or broadcast table is no table of the logical schema, in any statement kind. */
    @Test
    void physicalNamesOfConfiguredTablesAreUnknownTables() {
        for (String text : List.of("select * from orders_0", "select * from `ORDERS_1` where user_id = 1",
                "select o.status from orders o join orders_0 p on o.order_id = p.order_id where o.user_id = 4",
                "select * from users where user_id in (select user_id from shop.orders_1)",
                "insert into orders_0 (order_id, user_id) values (1, 4)", "update orders_1 set status = 'x'",
                "delete from orders_0 where user_id = 4", "truncate table orders_0", "alter table orders_1 add column z int",
                "create index i on orders_0 (status)")) {
            io.shardwise.core.error.ShardwiseException e = assertThrows(io.shardwise.core.error.ShardwiseException.class,
                    () -> sql(text).plan(), text);
            assertEquals(1146, e.errno(), text + ": " + e.getMessage());
            assertTrue(e.getMessage().matches("Table 'shop\\.(orders_0|ORDERS_1|orders_1)' doesn't exist"), e.getMessage());
        }
        for (String text : List.of("create table orders_0 (a int)", "drop table if exists orders_1")) {
            assertEquals(1235, assertThrows(io.shardwise.core.error.ShardwiseException.class, () -> sql(text).plan(), text).errno(), text);
        }
        // a name no configured node claims on the default backend stays a single table there
        sql("select * from audit_log").rewritesTo("ds0: select * from audit_log");
    }
}
