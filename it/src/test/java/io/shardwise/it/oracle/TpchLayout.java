package io.shardwise.it.oracle;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.testkit.tpch.Tpch;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts TPC-H where a rule says, over plain JDBC (not through Shardwise, so the data is an independent
 * reference): each sharded table's rows on the node its leading key maps to, as the router maps it;
 * broadcast tables on every node; single tables on theirs; and every table whole into one database,
 * the oracle.
 */
final class TpchLayout {
    private TpchLayout() {}

    /** Rows written (sharded and unsharded copies together) and the time generation and loading took. */
    record Loaded(long rows, long millis) {}

    static Loaded load(ShardingRule rule, String wholeUrl, String user, String password, double scale) throws Exception {
        long start = System.nanoTime();
        List<Tpch.Placement> placements = new ArrayList<>();
        for (String table : Tpch.TABLES) {
            placements.add(new Tpch.Placement(wholeUrl, user, password, table, table, key -> true));
            switch (rule.table(table)) {
                case TableRule.Sharded sharded -> {
                    for (DataNode node : sharded.nodes()) {
                        placements.add(placement(rule, node, table, key -> node.equals(sharded.nodeFor(key))));
                    }
                }
                case TableRule.Broadcast broadcast -> {
                    for (DataNode node : broadcast.nodes()) {
                        placements.add(placement(rule, node, table, key -> true));
                    }
                }
                case TableRule.Single single -> placements.add(placement(rule, single.node(), table, key -> true));
            }
        }
        long rows = Tpch.loadAll(placements, scale);
        return new Loaded(rows, (System.nanoTime() - start) / 1_000_000);
    }

    private static Tpch.Placement placement(ShardingRule rule, DataNode node, String table, java.util.function.LongPredicate keep) {
        BackendConfig backend = rule.config().backends().get(node.backend());
        return new Tpch.Placement(backend.url(), backend.user(), backend.password(), table, node.table(), keep);
    }
}
