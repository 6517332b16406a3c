package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * The rendered-unit cache of a plan: hits give the same text a fresh rendering would, with this
 * execution's values, and executions whose text depends on values never enter it.
 */
class RenderedTextsTest {
    private static final Analyzer ANALYZER = new Analyzer(RouteFixture.RULE);
    private static final Router ROUTER = new Router(RouteFixture.RULE);

    /** One cached plan, prepared from the first text's digest, as the engine's plan cache holds it. */
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

        /** The same execution routed on a plan of its own, which has rendered nothing yet. */
        RoutePlan fresh(String sql, Object... params) {
            return new Plan(sql).route(sql, params);
        }

        int sources() {
            return prepared.texts().sources();
        }
    }

    private static List<String> units(RoutePlan plan) {
        List<String> out = new ArrayList<>();
        for (ExecutionUnit u : plan.units()) {
            out.add(u.explain());
        }
        return out;
    }

    @Test
    void aPreparedStatementRunAgainReusesItsTextWithEachExecutionsValues() {
        String sql = "SELECT c FROM sbtest1 WHERE id = ?";
        Plan plan = new Plan(sql);
        for (long id = 1; id <= 20; id++) { // ids on both nodes, each node's text rendered once and then reused
            RoutePlan routed = plan.route(sql, id);
            assertEquals(units(plan.fresh(sql, id)), units(routed));
            assertEquals(List.of(id), routed.units().get(0).params());
        }
        assertEquals(1, plan.sources());
        RoutePlan first = plan.route(sql, 3L);
        assertSame(first.units().get(0).sql(), plan.route(sql, 3L).units().get(0).sql(), "the second run renders nothing");
    }

    @Test
    void eachNodeKeepsItsOwnPhysicalNames() {
        String sql = "update orders set status = ? where user_id = ?";
        Plan plan = new Plan(sql);
        assertEquals(List.of("ds0: update orders_1 set status = ? where user_id = ? [paid, 5]"), units(plan.route(sql, "paid", 5L)));
        assertEquals(List.of("ds1: update orders_0 set status = ? where user_id = ? [new, 6]"), units(plan.route(sql, "new", 6L)));
        assertEquals(List.of("ds0: update orders_1 set status = ? where user_id = ? [sent, 9]"), units(plan.route(sql, "sent", 9L)));
    }

    @Test
    void textsSharingADigestKeepTheirOwnSpelling() {
        String lower = "select c from sbtest1 where id = ?";
        String upper = "SELECT c /* hint */ FROM `sbtest1`   WHERE id=?";
        Plan plan = new Plan(lower);
        for (int round = 0; round < 2; round++) {
            assertEquals(units(plan.fresh(lower, 4L)), units(plan.route(lower, 4L)));
            assertEquals(units(plan.fresh(upper, 4L)), units(plan.route(upper, 4L)));
        }
        assertNotEquals(plan.route(lower, 4L).units().get(0).sql(), plan.route(upper, 4L).units().get(0).sql());
        assertEquals(2, plan.sources());
    }

    @Test
    void textStatementsWithoutParametersAreNeverCached() {
        Plan plan = new Plan("SELECT c FROM sbtest1 WHERE id = 1");
        for (int id = 1; id <= 4; id++) {
            String sql = "SELECT c FROM sbtest1 WHERE id = " + id;
            assertEquals(units(plan.fresh(sql)), units(plan.route(sql)));
            assertEquals(sql, plan.route(sql).units().get(0).sql());
        }
        assertEquals(0, plan.sources());
    }

    @Test
    void aPreparedTextKeepsItsInlineLiteralsAndBindsOnlyItsParameters() {
        String sql = "update orders set status = 'paid', note = ? where user_id = ? and amount > 10";
        Plan plan = new Plan(sql);
        for (long user = 5; user <= 8; user++) {
            RoutePlan routed = plan.route(sql, "n" + user, user);
            assertEquals(units(plan.fresh(sql, "n" + user, user)), units(routed));
            assertEquals(List.of("n" + user, user), routed.units().get(0).params());
        }
        assertEquals(List.of("ds0: update orders_1 set status = 'paid', note = ? where user_id = ? and amount > 10 [x, 5]"),
                units(plan.route(sql, "x", 5L)));
        assertEquals(1, plan.sources());
    }

    @Test
    void scatterEditsThatDependOnValuesAreNeverCached() {
        String sql = "select user_id from orders order by user_id limit ?, ?";
        Plan plan = new Plan(sql);
        String first = plan.route(sql, 2L, 3L).units().get(0).explain();
        String second = plan.route(sql, 4L, 3L).units().get(0).explain();
        assertEquals(units(plan.fresh(sql, 4L, 3L)), units(plan.route(sql, 4L, 3L)));
        assertNotEquals(first, second);
        assertEquals(0, plan.sources());
    }

    @Test
    void unshardedAndBroadcastTextsAreCachedToo() {
        String sql = "select name from countries where code = ?";
        Plan plan = new Plan(sql);
        assertEquals(units(plan.fresh(sql, "FR")), units(plan.route(sql, "FR")));
        assertEquals(units(plan.fresh(sql, "DE")), units(plan.route(sql, "DE")));
        assertEquals(1, plan.sources());
    }

    @Test
    void atMostABoundedNumberOfTextsPerPlan() {
        Plan plan = new Plan("select c from sbtest1 where id = ?");
        for (int i = 0; i < RenderedTexts.MAX_SOURCES + 5; i++) {
            String sql = "select c from sbtest1 where id = ? /* request " + i + " */";
            assertEquals(units(plan.fresh(sql, 7L)), units(plan.route(sql, 7L)));
        }
        assertEquals(RenderedTexts.MAX_SOURCES, plan.sources());
    }
}
