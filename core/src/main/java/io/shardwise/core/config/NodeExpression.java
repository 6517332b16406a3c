package io.shardwise.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Expands node expressions into data nodes. {@code ds${0..1}.orders_${0..1}} is the cartesian
 * product, leftmost placeholder outermost: ds0.orders_0, ds0.orders_1, ds1.orders_0, ds1.orders_1,
 * which is also the node-index order algorithms map to. Placeholders are ranges {@code ${a..b}}
 * (a leading zero, as in {@code ${00..15}}, pads every value to a's width) and lists
 * {@code ${[a, b, c]}}. Several expressions may be joined by commas outside placeholders.
 */
public final class NodeExpression {
    static final int MAX_NODES = 100_000;

    private NodeExpression() {}

    /** The nodes {@code expression} expands to; reports problems and returns what it could expand. */
    static List<DataNode> expand(String expression, Location location, Problems problems) {
        List<DataNode> nodes = new ArrayList<>();
        for (String part : splitTopLevel(expression)) {
            String trimmed = part.trim();
            if (trimmed.isEmpty()) {
                problems.add(location, "'" + expression + "' has an empty entry between commas;"
                        + " expected backend.table entries such as ds0.orders_0");
                continue;
            }
            List<String> names = expandText(trimmed, location, problems, expression);
            if (names == null) {
                continue;
            }
            if (names.isEmpty()) {
                problems.add(location, "'" + trimmed + "' expands to no node; a range ${a..b} needs a <= b"
                        + " and a list ${[...]} at least one value");
                continue;
            }
            for (String name : names) {
                int dot = name.indexOf('.');
                if (dot <= 0 || dot == name.length() - 1 || name.indexOf('.', dot + 1) >= 0) {
                    problems.add(location, "'" + trimmed + "' gives '" + name
                            + "', which is not backend.table; write nodes such as ds0.orders_0");
                    continue;
                }
                nodes.add(new DataNode(name.substring(0, dot), name.substring(dot + 1)));
            }
        }
        return nodes;
    }

    /** Expands the placeholders of one entry; null after a problem. */
    static List<String> expandText(String text, Location location, Problems problems, String whole) {
        int open = text.indexOf("${");
        if (open < 0) {
            return List.of(text);
        }
        int close = text.indexOf('}', open);
        if (close < 0) {
            problems.add(location, "'" + whole + "' has an unclosed '${'; placeholders are ${a..b} or ${[x, y]}");
            return null;
        }
        List<String> values = placeholderValues(text.substring(open + 2, close), location, problems, whole);
        if (values == null) {
            return null;
        }
        List<String> rest = expandText(text.substring(close + 1), location, problems, whole);
        if (rest == null) {
            return null;
        }
        if ((long) values.size() * rest.size() > MAX_NODES) {
            problems.add(location, "'" + whole + "' gives more than " + MAX_NODES + " nodes");
            return null;
        }
        String prefix = text.substring(0, open);
        List<String> out = new ArrayList<>(values.size() * rest.size());
        for (String value : values) {
            for (String tail : rest) {
                out.add(prefix + value + tail);
            }
        }
        return out;
    }

    private static List<String> placeholderValues(String body, Location location, Problems problems, String whole) {
        String b = body.trim();
        if (b.startsWith("[") && b.endsWith("]")) {
            String inner = b.substring(1, b.length() - 1).trim();
            List<String> values = new ArrayList<>();
            if (inner.isEmpty()) {
                return values;
            }
            for (String v : inner.split(",")) {
                String value = stripQuotes(v.trim());
                if (value.isEmpty()) {
                    problems.add(location, "'" + whole + "' has an empty value in ${" + body + "}");
                    return null;
                }
                values.add(value);
            }
            return values;
        }
        int dots = b.indexOf("..");
        if (dots > 0) {
            String from = b.substring(0, dots).trim();
            String to = b.substring(dots + 2).trim();
            try {
                long lo = Long.parseLong(from);
                long hi = Long.parseLong(to);
                if (hi - lo >= MAX_NODES) {
                    problems.add(location, "'" + whole + "': ${" + body + "} gives more than " + MAX_NODES + " nodes");
                    return null;
                }
                int width = from.length() > 1 && from.startsWith("0") ? from.length() : 0;
                List<String> values = new ArrayList<>();
                for (long i = lo; i <= hi; i++) {
                    String s = Long.toString(i);
                    values.add(width > s.length() ? "0".repeat(width - s.length()) + s : s);
                }
                return values;
            } catch (NumberFormatException e) {
                // falls through to the generic message below
            }
        }
        problems.add(location, "'" + whole + "' has placeholder ${" + body
                + "}; expected a range of integers ${a..b} or a list ${[x, y, z]}");
        return null;
    }

    private static String stripQuotes(String v) {
        if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"') && v.charAt(v.length() - 1) == v.charAt(0)) {
            return v.substring(1, v.length() - 1);
        }
        return v;
    }

    private static List<String> splitTopLevel(String expression) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && depth > 0) {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(expression.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(expression.substring(start));
        return parts;
    }
}
