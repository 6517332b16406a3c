package io.shardwise.core;

import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.StatementTokens;
import io.shardwise.core.sql.normalize.Token;
import java.util.List;
import java.util.function.Function;

/**
 * DROP TRIGGER names no table, yet a trigger lives with its table, on that table's backend (CREATE TRIGGER runs
 * there; a trigger on a sharded or broadcast table is refused at CREATE): the trigger is looked up in each backend's
 * {@code information_schema.TRIGGERS} of its database, and the statement runs where it is found. When no backend
 * has it, on the default backend as before, which answers 1360 (or a note with IF EXISTS) as one MariaDB does.
 * A cold path: one small query per backend per DROP TRIGGER.
 */
final class TriggerHome {
    private static final String LOOKUP = "SELECT 1 FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = DATABASE() AND TRIGGER_NAME = ?";

    private TriggerHome() {}

    /**
     * {@code route} (one unit on the default backend) moved to the backend holding the trigger {@code sql} drops, or
     * {@code route} itself when {@code sql} is no DROP TRIGGER of the logical schema or the trigger is nowhere else.
     */
    static RoutePlan of(RoutePlan route, String sql, LexicalMode mode, ShardingRule rule, Function<RoutePlan, StatementResult> run) {
        String trigger = dropped(sql, mode, rule.schema());
        if (trigger == null || route.units().size() != 1) {
            return route;
        }
        ExecutionUnit unit = route.units().get(0);
        for (String backend : rule.config().backends().keySet()) {
            if (backend.equals(unit.backend())) {
                continue;
            }
            RoutePlan lookup = new RoutePlan(RouteKind.UNSHARDED, List.of(new ExecutionUnit(backend, LOOKUP, List.of(trigger),
                    java.util.Map.of())), new MergeSpec.PassThrough());
            if (run.apply(lookup) instanceof StatementResult.Rows rows) {
                try (ResultCursor c = rows.cursor()) {
                    if (c.next()) {
                        return new RoutePlan(route.kind(), List.of(new ExecutionUnit(backend, unit.sql(), unit.params(),
                                unit.logicalTables())), route.merge());
                    }
                }
            }
        }
        return route;
    }

    /** The trigger {@code DROP TRIGGER [IF EXISTS] [schema.]name} drops, when unqualified or of the logical schema; else null. */
    static String dropped(String sql, LexicalMode mode, String schema) {
        List<Token> t = StatementTokens.of(sql, mode);
        if (t.size() < 3 || !StatementTokens.word(sql, t.get(0)).equals("drop") || !StatementTokens.word(sql, t.get(1)).equals("trigger")) {
            return null;
        }
        int i = 2;
        if (i + 1 < t.size() && StatementTokens.word(sql, t.get(i)).equals("if") && StatementTokens.word(sql, t.get(i + 1)).equals("exists")) {
            i += 2;
        }
        if (i >= t.size()) {
            return null;
        }
        String name = StatementTokens.unquote(t.get(i).text(sql));
        if (i + 2 < t.size() && t.get(i + 1).text(sql).equals(".")) {
            if (!name.equalsIgnoreCase(schema)) {
                return null;
            }
            name = StatementTokens.unquote(t.get(i + 2).text(sql));
        }
        return name;
    }
}
