package io.shardwise.core.route;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs DDL on every physical table of the logical tables it names. Several tables in one statement
 * (DROP TABLE a, b; CREATE TABLE a LIKE b) must be laid out alike, node for node.
 */
final class DdlRouter {
    private DdlRouter() {}

    static RoutePlan route(Ddl ddl, Bindings bindings, ShardingRule rule, SourceText source) {
        List<TableRef> tables = ddl.tables();
        List<List<DataNode>> layouts = new ArrayList<>();
        List<TableRule> rules = new ArrayList<>();
        for (TableRef t : tables) {
            boolean foreign = t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema());
            TableRule r = foreign ? new TableRule.Single(t.name(), new DataNode(rule.config().defaultBackend(), t.name()), null)
                    : served(ddl, t.name(), rule);
            rules.add(r);
            layouts.add(r.nodes());
        }
        List<DataNode> first = layouts.get(0);
        for (int i = 1; i < layouts.size(); i++) {
            if (!DataNode.sameShape(first, layouts.get(i))) {
                throw MergePlanner.unsupported(ddl.verb().toUpperCase(Locale.ROOT) + " naming tables laid out differently ("
                        + tables.get(0).name() + ", " + tables.get(i).name() + "); run one statement per table");
            }
        }
        List<ExecutionUnit> units = new ArrayList<>();
        for (int n = 0; n < first.size(); n++) {
            Map<String, String> names = new HashMap<>();
            Map<String, String> logical = new HashMap<>();
            for (int t = 0; t < tables.size(); t++) {
                DataNode node = layouts.get(t).get(n);
                names.put(tables.get(t).name().toLowerCase(Locale.ROOT), node.table());
                logical.put(node.table(), tables.get(t).name());
            }
            Renderer.Rendered r = Renderer.render(ddl.template(), source, names, bindings, List.of());
            units.add(Router.unit(first.get(n).backend(), r, logical));
        }
        RouteKind kind = switch (rules.get(0)) {
            case TableRule.Sharded s -> units.size() == 1 ? RouteKind.POINT : RouteKind.SCATTER;
            case TableRule.Broadcast b -> RouteKind.BROADCAST_WRITE;
            case TableRule.Single s -> RouteKind.UNSHARDED;
        };
        return new RoutePlan(kind, units, units.size() == 1 ? new MergeSpec.PassThrough() : new MergeSpec.Concat(MergeSpec.Tail.NONE));
    }

    /**
     * The table's rule; a physical table of a configured table is unknown (1146, as TRUNCATE, ALTER,
     * CREATE INDEX ... answer on one MySQL), but CREATE TABLE and DROP TABLE of one are refused with
     * 1235: one MySQL would create it, or answer 1051 (a note with IF EXISTS), while here the name is taken.
     */
    private static TableRule served(Ddl ddl, String name, ShardingRule rule) {
        try {
            return rule.logicalTables().served(name);
        } catch (ShardwiseException e) {
            if (ddl.verb().equals("create table") || ddl.verb().equals("drop table")) {
                throw MergePlanner.unsupported(ddl.verb().toUpperCase(Locale.ROOT) + " naming '" + name
                        + "', a physical table of a configured table");
            }
            throw e;
        }
    }
}
