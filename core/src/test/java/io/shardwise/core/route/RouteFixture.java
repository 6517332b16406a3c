package io.shardwise.core.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Fluent analyzer-and-router checks over the sample configuration (STYLE 22):
 * {@code sql("select ... where user_id = ?", 5).routes(POINT).rewritesTo("ds0: select ...")}.
 * Values are given as Java objects; their SQL text is what a literal would have been.
 */
final class RouteFixture {
    static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);
    private static final Router ROUTER = new Router(RULE);

    private final String sql;
    private final Object[] values;
    private final boolean prepared;

    private RouteFixture(String sql, boolean prepared, Object... values) {
        this.sql = sql;
        this.values = values;
        this.prepared = prepared;
    }

    /** A text statement whose literals are the values. */
    static RouteFixture sql(String sql, Object... values) {
        return new RouteFixture(sql, false, values);
    }

    /** A prepared statement whose parameters are the values. */
    static RouteFixture prepared(String sql, Object... values) {
        return new RouteFixture(sql, true, values);
    }

    Statement statement() {
        return ANALYZER.analyze(sql);
    }

    RoutePlan plan() {
        return ROUTER.route(statement(), bindings());
    }

    Bindings bindings() {
        return new Bindings() {
            @Override
            public int size() {
                return values.length;
            }

            @Override
            public Object value(int ordinal) {
                return values[ordinal];
            }

            @Override
            public String text(int ordinal) {
                if (prepared) {
                    return null;
                }
                Object v = values[ordinal];
                return v == null ? "NULL" : v instanceof String s ? "'" + s.replace("'", "''") + "'" : v.toString();
            }
        };
    }

    RouteFixture routes(RouteKind kind) {
        assertEquals(kind, plan().kind(), () -> plan().explain());
        return this;
    }

    /** Each unit as "backend: sql", in order. */
    RouteFixture rewritesTo(String... units) {
        List<String> actual = new ArrayList<>();
        for (ExecutionUnit u : plan().units()) {
            actual.add(u.backend() + ": " + u.sql());
        }
        assertEquals(Arrays.asList(units), actual, () -> plan().explain());
        return this;
    }

    RouteFixture merges(String explain) {
        assertEquals(explain, plan().merge().explain());
        return this;
    }

    RouteFixture binds(Object... params) {
        for (ExecutionUnit u : plan().units()) {
            assertEquals(Arrays.asList(params), u.params());
        }
        return this;
    }

    void fails(ErrorCode code, String fragment) {
        ShardwiseException e = assertThrows(ShardwiseException.class, this::plan);
        assertEquals(code, e.code(), e::getMessage);
        assertTrue(e.getMessage().contains(fragment), () -> "'" + fragment + "' missing from: " + e.getMessage());
    }
}
