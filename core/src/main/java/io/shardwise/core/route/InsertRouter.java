package io.shardwise.core.route;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.ShardingAlgorithm;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.ValueRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Routes INSERT/REPLACE ... VALUES: each row to the node its key maps to (rows of one node stay in
 * one statement), the key generator's values added where the statement omits the column, every
 * copy of a broadcast table written alike.
 */
final class InsertRouter {
    private InsertRouter() {}

    static RoutePlan route(Insert insert, Bindings bindings, ShardingRule rule, SourceText userText) {
        // INSERT ... SET was read as its VALUES form: render that text, the user's literals spliced in by value slot
        SourceText source = insert.rewritten() ? SourceText.of(insert.template().text()) : userText;
        TableRef table = insert.table();
        boolean foreign = table.schema() != null && !table.schema().equalsIgnoreCase(rule.schema());
        TableRule target = foreign ? new TableRule.Single(table.name(), new DataNode(rule.config().defaultBackend(), table.name()), null)
                : rule.logicalTables().served(table.name());
        String lower = table.name().toLowerCase(Locale.ROOT);

        // key generation: the configured column, when the statement leaves it out
        TableRule.GeneratedKey generated = target.generatedKey();
        List<Object> keys = new ArrayList<>();
        boolean generate = generated != null && !insert.columns().isEmpty() && indexOf(insert.columns(), generated.column()) < 0;
        List<Renderer.Edit> generationEdits = new ArrayList<>();
        if (generate) {
            generationEdits.add(new Renderer.Edit(insert.columnsEnd() - 1, insert.columnsEnd() - 1, ", " + generated.column()));
            for (int[] span : insert.rowSpans()) {
                Object key = generated.generator().next();
                keys.add(key);
                generationEdits.add(new Renderer.Edit(span[1] - 1, span[1] - 1, ", " + literal(key)));
            }
        }

        switch (target) {
            case TableRule.Single s -> {
                Renderer.Rendered r = Renderer.render(insert.template(), source, Map.of(lower, s.node().table()), bindings, generationEdits);
                return new RoutePlan(RouteKind.UNSHARDED, List.of(Router.unit(s.node().backend(), r, Map.of(s.node().table(), table.name()))),
                        new MergeSpec.PassThrough(), -1, -1, keys);
            }
            case TableRule.Broadcast b -> {
                List<ExecutionUnit> units = new ArrayList<>();
                for (DataNode node : b.nodes()) {
                    Renderer.Rendered r = Renderer.render(insert.template(), source, Map.of(), bindings, generationEdits);
                    units.add(Router.unit(node.backend(), r, Map.of()));
                }
                return new RoutePlan(RouteKind.BROADCAST_WRITE, units,
                        units.size() == 1 ? new MergeSpec.PassThrough() : new MergeSpec.Concat(MergeSpec.Tail.NONE), -1, -1, keys);
            }
            case TableRule.Sharded s -> {
                return sharded(insert, bindings, s, keys, generate, generationEdits, source);
            }
        }
    }

    /** {@link Router#anyNode}: the statement for its table's first node, the rows kept as written (none is generated a key). */
    static ExecutionUnit anyNode(Insert insert, Bindings bindings, ShardingRule rule, SourceText userText) {
        TableRule target = rule.logicalTables().served(insert.table().name());
        if (!(target instanceof TableRule.Sharded s)) {
            return route(insert, bindings, rule, userText).units().get(0);
        }
        SourceText source = insert.rewritten() ? SourceText.of(insert.template().text()) : userText;
        DataNode dn = s.nodes().get(0);
        Renderer.Rendered r = Renderer.render(insert.template(), source, Map.of(s.name().toLowerCase(Locale.ROOT), dn.table()), bindings,
                List.of());
        return Router.unit(dn.backend(), r, Map.of(dn.table(), s.name()));
    }

    private static RoutePlan sharded(Insert insert, Bindings bindings, TableRule.Sharded s, List<Object> keys, boolean generated,
                                     List<Renderer.Edit> generationEdits, SourceText source) {
        String name = s.name();
        if (insert.columns().isEmpty()) {
            throw MergePlanner.unsupported("INSERT into sharded table '" + name + "' without a column list (name the columns,"
                    + " so the sharding column '" + s.keyColumn() + "' can be found)");
        }
        for (String c : insert.onDuplicateUpdate()) {
            if (c.equalsIgnoreCase(s.keyColumn())) {
                throw MergePlanner.unsupported("ON DUPLICATE KEY UPDATE of sharding column '" + c + "' of table '" + name + "'");
            }
        }
        int keyIndex = indexOf(insert.columns(), s.keyColumn());
        boolean keyGenerated = keyIndex < 0 && generated && s.generatedKey().column().equalsIgnoreCase(s.keyColumn());
        if (keyIndex < 0 && !keyGenerated) {
            throw MergePlanner.unsupported("INSERT into sharded table '" + name + "' without its sharding column '" + s.keyColumn() + "'");
        }
        Map<Integer, List<Integer>> rowsByNode = new LinkedHashMap<>();
        for (int row = 0; row < insert.rows().size(); row++) {
            Object key;
            if (keyGenerated) {
                key = keys.get(row);
            } else {
                List<ValueRef> values = insert.rows().get(row);
                if (keyIndex >= values.size()) {
                    throw new ShardwiseException(ErrorCode.BACKEND_ERROR, "Column count doesn't match value count at row " + (row + 1));
                }
                ValueRef ref = values.get(keyIndex);
                if (ref == null) {
                    throw MergePlanner.unsupported("a computed value for sharding column '" + s.keyColumn() + "' of table '" + name
                            + "' (give a literal or a parameter)");
                }
                key = ShardingKeys.of(NodeSelector.value(ref, bindings));
            }
            int node = node(s, key);
            rowsByNode.computeIfAbsent(node, k -> new ArrayList<>()).add(row);
        }
        List<ExecutionUnit> units = new ArrayList<>();
        List<Integer> nodes = new ArrayList<>(rowsByNode.keySet());
        nodes.sort(null);
        for (int node : nodes) {
            List<Renderer.Edit> edits = new ArrayList<>(generationEdits);
            edits.removeIf(e -> isRowEnd(e, insert) && !rowsByNode.get(node).contains(rowOfEnd(e, insert)));
            edits.addAll(dropOtherRows(insert, rowsByNode.get(node)));
            edits.sort((a, b) -> a.start() != b.start() ? Integer.compare(a.start(), b.start()) : Integer.compare(a.end(), b.end()));
            DataNode dn = s.nodes().get(node);
            Renderer.Rendered r = Renderer.render(insert.template(), source, Map.of(name.toLowerCase(Locale.ROOT), dn.table()), bindings, edits);
            units.add(Router.unit(dn.backend(), r, Map.of(dn.table(), name)));
        }
        return new RoutePlan(units.size() == 1 ? RouteKind.POINT : RouteKind.MULTI_POINT, units,
                units.size() == 1 ? new MergeSpec.PassThrough() : new MergeSpec.Concat(MergeSpec.Tail.NONE), -1, -1, keys);
    }

    private static int node(TableRule.Sharded s, Object key) {
        if (key == null) {
            throw new ShardwiseException(ErrorCode.NO_ROUTE, s.keyColumn(), "NULL", s.name());
        }
        int node;
        try {
            node = s.algorithm().nodeFor(key);
        } catch (IllegalArgumentException e) {
            throw new ShardwiseException(ErrorCode.NO_ROUTE, s.keyColumn(), display(key) + " (" + e.getMessage() + ")", s.name());
        }
        if (node == ShardingAlgorithm.NO_NODE) {
            throw new ShardwiseException(ErrorCode.NO_ROUTE, s.keyColumn(), display(key), s.name());
        }
        return node;
    }

    private static String display(Object key) {
        return key instanceof byte[] b ? "0x" + java.util.HexFormat.of().formatHex(b) : String.valueOf(key);
    }

    private static boolean isRowEnd(Renderer.Edit e, Insert insert) {
        return rowOfEnd(e, insert) >= 0;
    }

    private static int rowOfEnd(Renderer.Edit e, Insert insert) {
        for (int i = 0; i < insert.rowSpans().size(); i++) {
            if (e.start() == e.end() && e.start() == insert.rowSpans().get(i)[1] - 1) {
                return i;
            }
        }
        return -1;
    }

    /** Deletes the rows not kept, each with one separating comma. */
    private static List<Renderer.Edit> dropOtherRows(Insert insert, List<Integer> kept) {
        List<int[]> spans = insert.rowSpans();
        int n = spans.size();
        // a set, not kept.contains: a 10,000-row INSERT (sysbench's prepare, a dump's extended insert) over two nodes
        // asked the list 10,000 times per node, each a scan of thousands
        java.util.BitSet keep = new java.util.BitSet(n);
        kept.forEach(keep::set);
        List<Renderer.Edit> edits = new ArrayList<>();
        int i = 0;
        while (i < n) {
            if (keep.get(i)) {
                i++;
                continue;
            }
            int a = i;
            while (i < n && !keep.get(i)) {
                i++;
            }
            int b = i - 1; // run [a, b] removed
            if (b < n - 1) {
                edits.add(new Renderer.Edit(spans.get(a)[0], spans.get(b + 1)[0], ""));
            } else {
                edits.add(new Renderer.Edit(spans.get(a - 1)[1], spans.get(b)[1], ""));
            }
        }
        return edits;
    }

    private static int indexOf(List<String> columns, String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    /** A generated key as SQL: numbers as they are, strings quoted. */
    static String literal(Object key) {
        return key instanceof Number ? key.toString() : "'" + key.toString().replace("'", "''") + "'";
    }
}
