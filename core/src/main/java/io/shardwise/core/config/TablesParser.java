package io.shardwise.core.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code tables} section. A table is sharded ({@code nodes} + {@code key} +
 * {@code algorithm}), bound ({@code bindTo}), broadcast ({@code broadcast: true}) or single
 * ({@code backend}, or one node, or nothing: the default backend).
 */
final class TablesParser {
    static final Set<String> TABLE_KEYS = Set.of("nodes", "key", "algorithm", "generate", "bindTo", "broadcast", "backend");

    private final Map<String, BackendConfig> backends;
    private final String defaultBackend;

    TablesParser(Map<String, BackendConfig> backends, String defaultBackend) {
        this.backends = backends;
        this.defaultBackend = defaultBackend;
    }

    /** A bound table before its target is known. */
    private record PendingBinding(String name, String bindTo, ConfigNode bindToNode, ConfigNode nodesNode,
                                  String key, KeyGeneratorConfig generate) {}

    Map<String, TableConfig> parse(ConfigNode section) {
        Map<String, TableConfig> tables = new LinkedHashMap<>();
        List<PendingBinding> bindings = new ArrayList<>();
        section.entries().forEach((name, node) -> {
            if (node.isNull()) {
                if (defaultBackend != null) {
                    tables.put(name, new TableConfig.Single(name, new DataNode(defaultBackend, name), null));
                }
                return;
            }
            Map<String, ConfigNode> keys = node.entries(TABLE_KEYS);
            if (!node.isMapping()) {
                return;
            }
            TableConfig table = table(name, node, keys, bindings);
            if (table != null) {
                tables.put(name, table);
            }
        });
        for (PendingBinding b : bindings) {
            TableConfig bound = bind(b, tables);
            if (bound != null) {
                tables.put(b.name(), bound);
            }
        }
        // keep the file's order: bound tables were appended after their first pass
        Map<String, TableConfig> ordered = new LinkedHashMap<>();
        for (String name : section.entries().keySet()) {
            if (tables.containsKey(name)) {
                ordered.put(name, tables.get(name));
            }
        }
        return ordered;
    }

    private TableConfig table(String name, ConfigNode node, Map<String, ConfigNode> keys, List<PendingBinding> bindings) {
        boolean broadcast = keys.containsKey("broadcast") && Boolean.TRUE.equals(keys.get("broadcast").bool());
        List<String> kinds = new ArrayList<>();
        if (broadcast) {
            kinds.add("broadcast");
        }
        if (keys.containsKey("bindTo")) {
            kinds.add("bindTo");
        }
        if (keys.containsKey("backend")) {
            kinds.add("backend");
        }
        if (keys.containsKey("nodes") && !keys.containsKey("bindTo")) {
            kinds.add("nodes");
        }
        if (kinds.size() > 1) {
            node.problem("table '" + name + "' sets " + String.join(" and ", kinds) + "; a table is either sharded (nodes,"
                    + " key, algorithm), bound (bindTo, key), broadcast (broadcast: true) or single (backend)");
            return null;
        }
        KeyGeneratorConfig generate = keys.containsKey("generate") ? generate(keys.get("generate")) : null;
        String kind = kinds.isEmpty() ? "single" : kinds.get(0);
        if (!kind.equals("nodes") && !kind.equals("bindTo")) {
            rejectShardingKeys(name, kind, keys);
        }
        return switch (kind) {
            case "broadcast" -> new TableConfig.Broadcast(name, broadcastNodes(name), generate);
            case "backend" -> {
                String backend = keys.get("backend").name();
                yield backend == null ? null : new TableConfig.Single(name, new DataNode(backend, name), generate);
            }
            case "bindTo" -> {
                if (keys.containsKey("algorithm")) {
                    keys.get("algorithm").problem("a bound table uses the algorithm of the table it is bound to;"
                            + " remove 'algorithm' here");
                }
                String key = requiredKey(name, node, keys, "bindTo");
                String bindTo = keys.get("bindTo").name();
                if (bindTo != null && key != null) {
                    bindings.add(new PendingBinding(name, bindTo, keys.get("bindTo"), keys.get("nodes"), key, generate));
                }
                yield null;
            }
            case "nodes" -> sharded(name, node, keys, generate);
            default -> defaultBackend == null ? null
                    : new TableConfig.Single(name, new DataNode(defaultBackend, name), generate);
        };
    }

    private void rejectShardingKeys(String name, String kind, Map<String, ConfigNode> keys) {
        for (String k : List.of("key", "algorithm")) {
            if (keys.containsKey(k)) {
                keys.get(k).problem("'" + k + "' applies to sharded and bound tables only; table '" + name + "' is "
                        + (kind.equals("broadcast") ? "broadcast" : "single") + ", so remove it or add nodes");
            }
        }
    }

    private TableConfig sharded(String name, ConfigNode node, Map<String, ConfigNode> keys, KeyGeneratorConfig generate) {
        List<DataNode> nodes = nodes(keys.get("nodes"));
        if (nodes.isEmpty()) {
            return null;
        }
        if (nodes.size() == 1 && !keys.containsKey("key") && !keys.containsKey("algorithm")) {
            return new TableConfig.Single(name, nodes.get(0), generate);
        }
        String key = requiredKey(name, node, keys, "nodes");
        AlgorithmConfig algorithm = null;
        if (keys.containsKey("algorithm")) {
            algorithm = algorithm(keys.get("algorithm"));
        } else {
            node.problem("missing key 'algorithm'; a sharded table needs one, e.g. algorithm: { type: mod }"
                    + " (types: mod, hash, range, interval, or a custom one)");
        }
        if (key == null || algorithm == null) {
            return null;
        }
        return new TableConfig.Sharded(name, nodes, key, algorithm, generate);
    }

    private static String requiredKey(String name, ConfigNode node, Map<String, ConfigNode> keys, String because) {
        if (!keys.containsKey("key")) {
            node.problem("missing key 'key'; table '" + name + "' sets " + because
                    + ", so it needs its sharding column, e.g. key: user_id");
            return null;
        }
        return keys.get("key").name();
    }

    static List<DataNode> nodes(ConfigNode node) {
        List<DataNode> nodes = new ArrayList<>();
        if (node.isSequence()) {
            for (ConfigNode item : node.items()) {
                String text = item.name();
                if (text != null) {
                    nodes.addAll(NodeExpression.expand(text, item.location(), item.problems()));
                }
            }
            if (node.items().isEmpty()) {
                node.problem("the node list is empty; expected nodes such as \"ds${0..1}.orders_${0..1}\"");
            }
        } else {
            String text = node.name();
            if (text != null) {
                nodes.addAll(NodeExpression.expand(text, node.location(), node.problems()));
            }
        }
        return nodes;
    }

    private List<DataNode> broadcastNodes(String name) {
        List<DataNode> nodes = new ArrayList<>();
        for (String backend : backends.keySet()) {
            nodes.add(new DataNode(backend, name));
        }
        return nodes;
    }

    static AlgorithmConfig algorithm(ConfigNode node) {
        if (node.isScalar()) {
            String type = node.name();
            return type == null ? null : new AlgorithmConfig(type, Map.of(), node.location());
        }
        return typed(node, "algorithm: { type: mod }", (type, props) -> new AlgorithmConfig(type, props, node.location()));
    }

    static KeyGeneratorConfig generate(ConfigNode node) {
        Map<String, ConfigNode> keys = node.entries();
        if (!node.isMapping()) {
            return null;
        }
        String column = null;
        if (keys.containsKey("column")) {
            column = keys.get("column").name();
        } else {
            node.problem("missing key 'column'; e.g. generate: { column: order_id, type: snowflake }");
        }
        String finalColumn = column;
        return typed(node, "generate: { column: order_id, type: snowflake }", (type, props) -> {
            Map<String, Object> rest = new LinkedHashMap<>(props);
            rest.remove("column");
            return finalColumn == null ? null : new KeyGeneratorConfig(finalColumn, type, rest, node.location());
        });
    }

    private static <T> T typed(ConfigNode node, String example, java.util.function.BiFunction<String, Map<String, Object>, T> make) {
        Map<String, ConfigNode> keys = node.entries();
        if (!node.isMapping()) {
            return null;
        }
        if (!keys.containsKey("type")) {
            node.problem("missing key 'type'; e.g. " + example);
            return null;
        }
        String type = keys.get("type").name();
        Map<String, Object> props = new LinkedHashMap<>();
        keys.forEach((k, v) -> {
            if (!k.equals("type")) {
                props.put(k, v.plain());
            }
        });
        return type == null ? null : make.apply(type, props);
    }

    private TableConfig bind(PendingBinding b, Map<String, TableConfig> tables) {
        TableConfig target = tables.get(b.bindTo());
        if (target == null) {
            List<String> sharded = tables.values().stream().filter(t -> t instanceof TableConfig.Sharded).map(TableConfig::name).toList();
            String bound = b.bindTo().equals(b.name()) ? " A table cannot be bound to itself." : "";
            b.bindToNode().problem("'" + b.bindTo() + "' is not a sharded table here." + bound
                    + Suggestions.didYouMean(b.bindTo(), sharded)
                    + " Sharded tables: " + (sharded.isEmpty() ? "(none)" : String.join(", ", sharded)));
            return null;
        }
        if (!(target instanceof TableConfig.Sharded parent)) {
            String what = switch (target) {
                case TableConfig.Broadcast x -> "a broadcast table";
                case TableConfig.Single x -> "a single table";
                case TableConfig.Bound x -> "itself bound to '" + x.bindTo() + "'; bind to '" + x.bindTo() + "' instead";
                case TableConfig.Sharded x -> "sharded";
            };
            b.bindToNode().problem("'" + b.bindTo() + "' is " + what + "; bindTo needs a sharded table (nodes, key, algorithm)");
            return null;
        }
        List<DataNode> nodes;
        if (b.nodesNode() != null) {
            nodes = nodes(b.nodesNode());
            if (nodes.isEmpty()) {
                return null;
            }
            if (!DataNode.sameShape(nodes, parent.nodes())) {
                b.nodesNode().problem("'" + b.nodesNode().describe().replace("'", "") + "' gives " + nodes.size()
                        + " nodes on " + backendsOf(nodes) + ", but '" + parent.name() + "' has " + parent.nodes().size()
                        + " nodes on " + backendsOf(parent.nodes()) + "; a bound table needs the same number of nodes"
                        + " on the same backends in the same order");
                return null;
            }
        } else {
            nodes = new ArrayList<>();
            for (DataNode n : parent.nodes()) {
                int at = n.table().indexOf(parent.name());
                if (at < 0) {
                    b.bindToNode().problem("cannot derive the nodes of '" + b.name() + "' from " + n + ", whose name does not"
                            + " contain '" + parent.name() + "'; give nodes: explicitly (same shape as '" + parent.name() + "')");
                    return null;
                }
                nodes.add(new DataNode(n.backend(), n.table().substring(0, at) + b.name()
                        + n.table().substring(at + parent.name().length())));
            }
        }
        return new TableConfig.Bound(b.name(), parent.name(), nodes, b.key(), b.generate());
    }

    private static String backendsOf(List<DataNode> nodes) {
        List<String> names = new ArrayList<>();
        for (DataNode n : nodes) {
            names.add(n.backend());
        }
        return "[" + String.join(", ", names) + "]";
    }
}
