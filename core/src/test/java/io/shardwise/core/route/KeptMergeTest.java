package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.StatementBindings;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The merge a cached plan keeps for a SELECT spanning nodes ({@code Router.Prepared#keptMerge}): planned once when its
 * planning reads no value, then every execution gets exactly what a fresh plan would give it; a merge that reads values
 * (LIMIT ?, HAVING ... ?, a literal's text) is planned at every execution. Each case compares with a plan of its own.
 */
class KeptMergeTest {
    private static final Analyzer ANALYZER = new Analyzer(RouteFixture.RULE);
    private static final Router ROUTER = new Router(RouteFixture.RULE);

    private static final class Plan {
        final Router.Prepared prepared;
        final int[] digestOffsets;

        Plan(String sql) {
            NormalizedSql n = Normalizer.normalize(sql);
            prepared = ROUTER.prepare(ANALYZER.analyze(n.digest()));
            digestOffsets = n.digestTokenOffsets();
        }

        RoutePlan route(String sql, Object... params) {
            NormalizedSql n = Normalizer.normalize(sql);
            return ROUTER.route(prepared, new StatementBindings(n, Arrays.asList(params)), SourceText.original(n, digestOffsets));
        }
    }

    /** Everything a route says: kind, units (SQL and values), merge, star item and width. */
    private static String explain(RoutePlan plan) {
        return plan.explain() + " star=" + plan.starItem() + " width=" + plan.assumedWidth();
    }

    private static void sameAsFresh(Plan plan, String sql, Object... params) {
        assertEquals(explain(new Plan(sql).route(sql, params)), explain(plan.route(sql, params)), sql + " " + List.of(params));
    }

    @Test
    void aMergeThatReadsNoValueIsPlannedOnceAndServesEveryExecution() {
        String sql = "select user_id, amount from orders where user_id between ? and ? order by amount desc, user_id";
        Plan plan = new Plan(sql);
        sameAsFresh(plan, sql, 1L, 10L);
        MergePlanner.Plan kept = plan.prepared.keptMerge();
        assertNotNull(kept);
        assertNotSame(Router.MERGE_VARIES, kept);
        for (long from = 2; from < 8; from++) {
            sameAsFresh(plan, sql, from, from + 9);
        }
        assertSame(kept, plan.prepared.keptMerge());
    }

    @Test
    void hiddenColumnsAndAggregatesAreKeptWithTheirEdits() {
        String sql = "select status, sum(amount), avg(amount) from orders where user_id > ? group by status order by max(order_id)";
        Plan plan = new Plan(sql);
        for (long user = 0; user < 4; user++) {
            sameAsFresh(plan, sql, user);
        }
        assertNotSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void executionsRoutedToOneNodeThenToSeveralGetTheirOwnRoutes() {
        String sql = "select order_id, amount from orders where user_id in (?, ?) order by amount";
        Plan plan = new Plan(sql);
        RoutePlan one = plan.route(sql, 2L, 2L);
        assertEquals(1, one.units().size());
        assertNull(plan.prepared.keptMerge(), "one node: nothing merged, nothing planned");
        sameAsFresh(plan, sql, 2L, 2L);
        RoutePlan both = plan.route(sql, 1L, 2L);
        assertEquals(2, both.units().size());
        sameAsFresh(plan, sql, 1L, 2L);
        sameAsFresh(plan, sql, 2L, 2L);
        sameAsFresh(plan, sql, 3L, 6L);
        assertNotSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void aLimitParameterIsPlannedAtEveryExecution() {
        String sql = "select order_id, amount from orders order by amount limit ?";
        Plan plan = new Plan(sql);
        String two = explain(plan.route(sql, 2L));
        String five = explain(plan.route(sql, 5L));
        assertNotEquals(two, five);
        sameAsFresh(plan, sql, 2L);
        sameAsFresh(plan, sql, 5L);
        assertSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void anOffsetAndLimitPairIsPlannedAtEveryExecution() {
        String sql = "select order_id from orders order by order_id limit ?, ?";
        Plan plan = new Plan(sql);
        for (long offset = 0; offset < 3; offset++) {
            sameAsFresh(plan, sql, offset, 4L);
        }
        assertSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void aHavingParameterIsPlannedAtEveryExecution() {
        String sql = "select user_id, count(*) from orders group by user_id having count(*) > ?";
        Plan plan = new Plan(sql);
        String one = explain(plan.route(sql, 1L));
        String three = explain(plan.route(sql, 3L));
        assertNotEquals(one, three);
        sameAsFresh(plan, sql, 1L);
        sameAsFresh(plan, sql, 3L);
        assertSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void textStatementsSharingTheDigestKeepTheirOwnLimits() {
        Plan plan = new Plan("select order_id from orders order by order_id limit 3");
        List<String> routes = new ArrayList<>();
        for (int limit = 3; limit < 6; limit++) {
            String sql = "select order_id from orders order by order_id limit " + limit;
            sameAsFresh(plan, sql);
            routes.add(explain(plan.route(sql)));
        }
        assertEquals(3, routes.stream().distinct().count());
        assertSame(Router.MERGE_VARIES, plan.prepared.keptMerge());
    }

    @Test
    void aTextAndAPreparedStatementOfOneDigestShareTheKeptMerge() {
        String prepared = "select user_id, amount from orders where amount > ? order by amount";
        Plan plan = new Plan(prepared);
        sameAsFresh(plan, prepared, 5L);
        MergePlanner.Plan kept = plan.prepared.keptMerge();
        String text = "select user_id, amount from orders where amount > 7 order by amount";
        sameAsFresh(plan, text);
        sameAsFresh(plan, prepared, 9L);
        assertSame(kept, plan.prepared.keptMerge());
    }

    @Test
    void unitsWithTheKeptMergesEditsAreRenderedOncePerNode() {
        String sql = "select user_id, amount from orders where user_id between ? and ? order by amount desc, user_id";
        Plan plan = new Plan(sql);
        RoutePlan first = plan.route(sql, 1L, 10L);
        assertEquals(1, plan.prepared.merged().sources());
        RoutePlan second = plan.route(sql, 3L, 30L);
        assertSame(first.units().get(0).sql(), second.units().get(0).sql(), "the second execution renders nothing");
        assertEquals(List.of(3L, 30L), second.units().get(0).params());
        sameAsFresh(plan, sql, 4L, 40L);
    }

    @Test
    void aCopiedParameterIsBoundAgainInItsHiddenColumn() {
        // the ORDER BY expression is a hidden column copied from the user's text, its ? bound once more
        String sql = "select order_id from orders where user_id > ? order by amount * ?";
        Plan plan = new Plan(sql);
        for (long user = 0; user < 3; user++) {
            sameAsFresh(plan, sql, user, user + 2);
        }
        RoutePlan routed = plan.route(sql, 1L, 7L);
        assertEquals(explain(new Plan(sql).route(sql, 1L, 7L)), explain(routed));
    }

    @Test
    void aLabelSpellingAParameterIsRenderedAtEveryExecution() {
        // MySQL labels the item by its text with the value spelled in; the node's SQL carries that label
        String sql = "select orders.amount + ? from orders where user_id = ?";
        Plan plan = new Plan(sql);
        String one = explain(plan.route(sql, 1L, 5L));
        String two = explain(plan.route(sql, 2L, 5L));
        assertNotEquals(one, two);
        sameAsFresh(plan, sql, 1L, 5L);
        sameAsFresh(plan, sql, 2L, 5L);
        sameAsFresh(plan, sql, 3L, 6L);
    }

    @Test
    void aLabelOfTheStatementsOwnTextIsKeptPerNode() {
        String sql = "select orders.amount + 1 from orders where user_id = ?";
        Plan plan = new Plan(sql);
        for (long user = 1; user <= 6; user++) {
            sameAsFresh(plan, sql, user);
        }
        RoutePlan a = plan.route(sql, 2L);
        assertSame(a.units().get(0).sql(), plan.route(sql, 2L).units().get(0).sql(), "the second execution renders nothing");
    }

    @Test
    void anInsertsSelectOfOneDigestKeepsEachTextsLiterals() {
        // the SELECT is rendered from the digest, its literals' text from each execution: never kept by that text
        String paid = "insert into countries (code, name) select country_code, max(name) from users where user_id = ? and name <> 'paid'"
                + " group by country_code";
        String sent = paid.replace("'paid'", "'sent'");
        Plan plan = new Plan(paid);
        for (long user = 7; user < 9; user++) {
            sameAsFresh(plan, paid, user);
            sameAsFresh(plan, sent, user);
        }
        assertNotEquals(explain(plan.route(paid, 7L)), explain(plan.route(sent, 7L)));
    }
}
