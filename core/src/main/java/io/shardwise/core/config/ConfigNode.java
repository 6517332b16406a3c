package io.shardwise.core.config;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * A YAML node with its location, read through typed accessors that report a {@link ConfigProblem}
 * and return null instead of throwing, so that one load finds every mistake. Strings have
 * {@code ${env:...}} references expanded.
 */
final class ConfigNode {
    private final Node node;
    private final Location location;
    private final Problems problems;
    private final EnvironmentReferences env;
    // Memoized so that reading a node twice does not report its problems twice.
    private Map<String, ConfigNode> entries;
    private List<ConfigNode> items;
    private boolean keysChecked;

    ConfigNode(Node node, Location location, Problems problems, EnvironmentReferences env) {
        this.node = node;
        this.location = location;
        this.problems = problems;
        this.env = env;
    }

    Location location() {
        return location;
    }

    Problems problems() {
        return problems;
    }

    void problem(String message) {
        problems.add(location, message);
    }

    boolean isMapping() {
        return node instanceof MappingNode;
    }

    boolean isSequence() {
        return node instanceof SequenceNode;
    }

    boolean isScalar() {
        return node instanceof ScalarNode;
    }

    boolean isNull() {
        return node instanceof ScalarNode s && Tag.NULL.equals(s.getTag());
    }

    /** The entries of a mapping in file order; reports and skips duplicate and non-string keys. */
    Map<String, ConfigNode> entries() {
        if (entries == null) {
            entries = readEntries();
        }
        return entries;
    }

    private Map<String, ConfigNode> readEntries() {
        if (!(node instanceof MappingNode mapping)) {
            problem("expected a mapping (key: value lines), found " + describe());
            return Map.of();
        }
        Map<String, ConfigNode> entries = new LinkedHashMap<>();
        for (NodeTuple tuple : mapping.getValue()) {
            if (!(tuple.getKeyNode() instanceof ScalarNode keyNode)) {
                problems.add(location, "expected a plain key, found a " + tuple.getKeyNode().getNodeType());
                continue;
            }
            String key = keyNode.getValue();
            // a value a property replaced is located at the property, not at the file's key
            Location childLocation = location.child(key, line(tuple.getValueNode()) == Location.PROPERTY
                    ? Location.PROPERTY : line(tuple.getKeyNode()));
            if (entries.containsKey(key)) {
                problems.add(childLocation, "duplicate key '" + key + "'; each key may appear once");
                continue;
            }
            entries.put(key, new ConfigNode(tuple.getValueNode(), childLocation, problems, env));
        }
        return Collections.unmodifiableMap(entries);
    }

    /** The entries of a mapping, reporting any key not in {@code allowed} with a suggestion. */
    Map<String, ConfigNode> entries(Set<String> allowed) {
        Map<String, ConfigNode> entries = entries();
        if (keysChecked) {
            return entries;
        }
        keysChecked = true;
        for (Map.Entry<String, ConfigNode> e : entries.entrySet()) {
            if (!allowed.contains(e.getKey())) {
                e.getValue().problem("unknown key '" + e.getKey() + "'."
                        + Suggestions.didYouMean(e.getKey(), allowed)
                        + " Valid keys here: " + String.join(", ", new java.util.TreeSet<>(allowed)));
            }
        }
        return entries;
    }

    List<ConfigNode> items() {
        if (items == null) {
            items = readItems();
        }
        return items;
    }

    private List<ConfigNode> readItems() {
        if (!(node instanceof SequenceNode sequence)) {
            problem("expected a list, found " + describe());
            return List.of();
        }
        List<ConfigNode> items = new ArrayList<>();
        List<Node> values = sequence.getValue();
        for (int i = 0; i < values.size(); i++) {
            items.add(new ConfigNode(values.get(i), location.item(i, line(values.get(i))), problems, env));
        }
        return Collections.unmodifiableList(items);
    }

    /** A scalar as text with environment references expanded; null (after a problem) otherwise. */
    String string() {
        if (!(node instanceof ScalarNode scalar) || isNull()) {
            problem("expected a text value, found " + describe());
            return null;
        }
        return env.expand(scalar.getValue(), location, problems);
    }

    /** A password: as {@link #string()}, but no problem message quotes it. */
    String secret() {
        if (!(node instanceof ScalarNode scalar) || isNull()) {
            problem("expected a text value, found " + (node instanceof MappingNode ? "a mapping" : isNull() ? "nothing (null)" : "a list"));
            return null;
        }
        return env.expand(scalar.getValue(), location, problems, true);
    }

    /** A non-blank name (backend, table, column, user). */
    String name() {
        String s = string();
        if (s != null && s.isBlank()) {
            problem("must not be empty");
            return null;
        }
        return s;
    }

    Integer integer(int min, int max) {
        String s = string();
        if (s == null) {
            return null;
        }
        try {
            int value = Integer.parseInt(s.trim());
            if (value < min || value > max) {
                problem("'" + s + "' is out of range; expected an integer from " + min + " to " + max);
                return null;
            }
            return value;
        } catch (NumberFormatException e) {
            problem("'" + s + "' is not an integer; expected an integer from " + min + " to " + max);
            return null;
        }
    }

    Boolean bool() {
        String s = string();
        if (s == null) {
            return null;
        }
        return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on" -> Boolean.TRUE;
            case "false", "no", "off" -> Boolean.FALSE;
            default -> {
                problem("'" + s + "' is not a boolean; expected true or false");
                yield null;
            }
        };
    }

    /**
     * The node as plain Java data for extension points (algorithm properties): String, Long,
     * BigDecimal, Boolean, null, List and Map, with environment references expanded.
     */
    Object plain() {
        if (node instanceof ScalarNode scalar) {
            if (isNull()) {
                return null;
            }
            String text = env.expand(scalar.getValue(), location, problems);
            if (text == null || !scalar.isPlain()) {
                return text;
            }
            Tag tag = scalar.getTag();
            try {
                if (Tag.INT.equals(tag)) {
                    return Long.valueOf(text);
                }
                if (Tag.FLOAT.equals(tag)) {
                    return new BigDecimal(text);
                }
            } catch (NumberFormatException e) {
                return text;
            }
            if (Tag.BOOL.equals(tag)) {
                return Boolean.valueOf(text);
            }
            return text;
        }
        if (node instanceof SequenceNode) {
            List<Object> list = new ArrayList<>();
            for (ConfigNode item : items()) {
                list.add(item.plain());
            }
            return Collections.unmodifiableList(list);
        }
        Map<String, Object> map = new LinkedHashMap<>();
        entries().forEach((k, v) -> map.put(k, v.plain()));
        return Collections.unmodifiableMap(map);
    }

    /** What the node is, for messages: a scalar shows its value. */
    String describe() {
        if (isNull()) {
            return "nothing (null)";
        }
        if (node instanceof ScalarNode scalar) {
            return "'" + scalar.getValue() + "'";
        }
        return node instanceof MappingNode ? "a mapping" : "a list";
    }

    static int line(Node node) {
        if (ConfigOverrides.madeByProperty(node)) {
            return Location.PROPERTY;
        }
        return node.getStartMark().map(m -> m.getLine() + 1).orElse(0);
    }
}
