package io.shardwise.core.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Values that replace or add to those of a configuration file, each named by its dotted YAML path:
 * {@code backends.ds0.pool.max=4}, {@code backends.ds1.url=jdbc:mysql://...},
 * {@code tables.events.algorithm.from=2024-01-01}, {@code server.users[0].password=...}.
 *
 * <p>They are spliced into the composed YAML tree before anything reads it, so an overridden value
 * goes through exactly the checks of one written in the file (unknown key with "did you mean", bad
 * value with what would be valid, {@code ${env:...}} expansion), and problems it causes are located
 * at {@link Location#PROPERTY} instead of a file line. Missing mappings on the way are created, so a
 * property may add a key the file leaves out; a list item may be replaced or appended at the end.
 * Each value is one scalar, typed as YAML's core schema would type it written plain in the file.
 *
 * <p>Equal override sets are equal whatever the order they were given in, so callers may key shared
 * engines on (configuration location, overrides).
 *
 * @param values dotted path → value, sorted by path
 */
public record ConfigOverrides(SortedMap<String, String> values) {
    public static final ConfigOverrides NONE = new ConfigOverrides(new TreeMap<>());
    /** The name of the YAML marks of nodes a property made; {@link ConfigNode} locates them by it. */
    static final String ORIGIN = "<property>";

    private static final Pattern SEGMENT = Pattern.compile("([^.\\[\\]]+)((?:\\[\\d+])*)");
    private static final Pattern INDEX = Pattern.compile("\\[(\\d+)]");
    private static final Optional<Mark> MARK = Optional.of(new Mark(ORIGIN, 0, -1, 0, new int[0], 0));

    public ConfigOverrides {
        values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
    }

    public static ConfigOverrides of(Map<String, String> values) {
        return values.isEmpty() ? NONE : new ConfigOverrides(new TreeMap<>(values));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The source named in problem reports: the file, and which of its values properties changed. */
    public String label(String source) {
        return isEmpty() ? source : source + " with properties " + String.join(", ", values.keySet());
    }

    /**
     * The tree with every override applied (the root may be replaced when the file was empty).
     * Paths that cannot be set, because a step is a scalar or a list index is out of range, are
     * reported; the others still apply.
     */
    Node applyTo(Node root, Problems problems) {
        Node tree = root == null || isNullScalar(root) ? newMapping() : root;
        values.forEach((path, value) -> {
            List<Object> steps = steps(path);
            if (steps == null) {
                problems.add(new Location(path, Location.PROPERTY), "'" + path + "' is not a configuration path;"
                        + " expected keys joined by dots, with [n] for a list item, e.g. backends.ds0.pool.max or server.users[0].name");
                return;
            }
            set(tree, steps, scalar(value), path, problems);
        });
        return tree;
    }

    /** Keys (String) and list indexes (Integer) in order, or null when the path is malformed. */
    private static List<Object> steps(String path) {
        List<Object> steps = new ArrayList<>();
        for (String segment : path.split("\\.", -1)) {
            Matcher m = SEGMENT.matcher(segment);
            if (!m.matches()) {
                return null;
            }
            steps.add(m.group(1));
            Matcher index = INDEX.matcher(m.group(2));
            while (index.find()) {
                try {
                    steps.add(Integer.valueOf(index.group(1)));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return steps;
    }

    private static void set(Node tree, List<Object> steps, Node value, String path, Problems problems) {
        Node current = tree;
        StringBuilder at = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            Object step = steps.get(i);
            boolean last = i == steps.size() - 1;
            Node next;
            if (step instanceof String key) {
                if (!(current instanceof MappingNode mapping)) {
                    problems.add(new Location(path, Location.PROPERTY), cannotDescend(at, current, "key '" + key + "'"));
                    return;
                }
                next = child(mapping, key, last ? value : null);
                at.append(at.isEmpty() ? "" : ".").append(key);
            } else {
                int index = (Integer) step;
                if (!(current instanceof SequenceNode sequence)) {
                    problems.add(new Location(path, Location.PROPERTY), cannotDescend(at, current, "item [" + index + "]"));
                    return;
                }
                List<Node> items = sequence.getValue();
                if (index > items.size()) {
                    problems.add(new Location(path, Location.PROPERTY), at + " has " + items.size() + " items; a property may replace"
                            + " one (index 0 to " + (items.size() - 1) + ") or append one (index " + items.size() + ")");
                    return;
                }
                Node replacement = last || index == items.size() ? (last ? value : newMapping()) : items.get(index);
                if (index == items.size()) {
                    items.add(replacement);
                } else if (last) {
                    items.set(index, replacement);
                }
                next = replacement;
                at.append('[').append(index).append(']');
            }
            current = next;
        }
    }

    /**
     * The value under key, after putting {@code value} there when given; on the way down, a key that
     * is missing or null gets an empty mapping so the path can continue.
     */
    private static Node child(MappingNode mapping, String key, Node value) {
        List<NodeTuple> tuples = mapping.getValue();
        for (int i = 0; i < tuples.size(); i++) {
            NodeTuple tuple = tuples.get(i);
            if (tuple.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                Node existing = tuple.getValueNode();
                if (value == null && !isNullScalar(existing)) {
                    return existing;
                }
                Node replacement = value == null ? newMapping() : value;
                tuples.set(i, new NodeTuple(tuple.getKeyNode(), replacement));
                return replacement;
            }
        }
        Node added = value == null ? newMapping() : value;
        tuples.add(new NodeTuple(new ScalarNode(Tag.STR, true, key, ScalarStyle.PLAIN, MARK, MARK), added));
        return added;
    }

    private static String cannotDescend(CharSequence at, Node node, String what) {
        String kind = node instanceof ScalarNode s ? "the value '" + s.getValue() + "'"
                : node instanceof MappingNode ? "a mapping" : "a list";
        return (at.isEmpty() ? "the top level" : at) + " is " + kind + ", which has no " + what;
    }

    private static Node scalar(String value) {
        Tag tag = new CoreSchema().getScalarResolver().resolve(value, true);
        return new ScalarNode(tag, true, value, ScalarStyle.PLAIN, MARK, MARK);
    }

    private static MappingNode newMapping() {
        return new MappingNode(Tag.MAP, true, new ArrayList<>(), FlowStyle.BLOCK, MARK, MARK);
    }

    private static boolean isContainer(Node node) {
        return node instanceof MappingNode || node instanceof SequenceNode;
    }

    private static boolean isNullScalar(Node node) {
        return node instanceof ScalarNode s && Tag.NULL.equals(s.getTag());
    }

    /** Whether a node was made by a property rather than read from the file. */
    static boolean madeByProperty(Node node) {
        return node.getStartMark().map(m -> ORIGIN.equals(m.getName())).orElse(false);
    }
}
