package io.shardwise.core.route;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the golden plan files need, read and written by hand so core's tests carry no JSON
 * library: objects (insertion-ordered maps), arrays (lists), strings, integers (Long, BigInteger),
 * decimals (BigDecimal), booleans and null. Writing is stable: two-space indentation, one array
 * element per line (but lists of short values on one), so a changed plan shows as changed lines in a diff.
 */
final class Json {
    private final String text;
    private int pos;

    private Json(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        Json j = new Json(text);
        Object v = j.value();
        j.space();
        if (j.pos != text.length()) {
            throw j.error("trailing text");
        }
        return v;
    }

    private Object value() {
        space();
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(pos);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        space();
        if (peek('}')) {
            return map;
        }
        do {
            space();
            String key = string();
            space();
            expect(':');
            map.put(key, value());
            space();
        } while (take(','));
        expect('}');
        return map;
    }

    private List<Object> array() {
        List<Object> list = new ArrayList<>();
        pos++;
        space();
        if (peek(']')) {
            return list;
        }
        do {
            list.add(value());
            space();
        } while (take(','));
        expect(']');
        return list;
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = text.charAt(pos++);
            switch (e) {
                case 'n' -> sb.append('\n');
                case 't' -> sb.append('\t');
                case 'r' -> sb.append('\r');
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'u' -> {
                    sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> sb.append(e);
            }
        }
    }

    private Object number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String n = text.substring(start, pos);
        if (n.isEmpty()) {
            throw error("unexpected character '" + text.charAt(pos) + "'");
        }
        if (n.indexOf('.') >= 0 || n.indexOf('e') >= 0 || n.indexOf('E') >= 0) {
            return new BigDecimal(n);
        }
        BigInteger big = new BigInteger(n);
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private Object word(String w, Object v) {
        if (!text.startsWith(w, pos)) {
            throw error("expected " + w);
        }
        pos += w.length();
        return v;
    }

    private void space() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private boolean peek(char c) {
        if (pos < text.length() && text.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    private boolean take(char c) {
        return peek(c);
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
    }

    static String write(Object v) {
        StringBuilder sb = new StringBuilder();
        write(sb, v, "");
        return sb.append('\n').toString();
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder sb, Object v, String indent) {
        switch (v) {
            case null -> sb.append("null");
            case String s -> quote(sb, s);
            case Map<?, ?> m -> {
                if (m.isEmpty()) {
                    sb.append("{}");
                    return;
                }
                sb.append("{\n");
                int i = 0;
                for (Map.Entry<String, Object> e : ((Map<String, Object>) m).entrySet()) {
                    sb.append(indent).append("  ");
                    quote(sb, e.getKey());
                    sb.append(": ");
                    write(sb, e.getValue(), indent + "  ");
                    sb.append(++i < m.size() ? ",\n" : "\n");
                }
                sb.append(indent).append('}');
            }
            case List<?> l -> {
                if (l.isEmpty()) {
                    sb.append("[]");
                    return;
                }
                // values (params) stay on one line; texts with spaces (plan lines) get a line each
                boolean scalars = l.stream().noneMatch(x -> x instanceof Map || x instanceof List
                        || x instanceof String t && t.indexOf(' ') >= 0);
                if (scalars) {
                    sb.append('[');
                    for (int i = 0; i < l.size(); i++) {
                        sb.append(i == 0 ? "" : ", ");
                        write(sb, l.get(i), indent);
                    }
                    sb.append(']');
                    return;
                }
                sb.append("[\n");
                for (int i = 0; i < l.size(); i++) {
                    sb.append(indent).append("  ");
                    write(sb, l.get(i), indent + "  ");
                    sb.append(i + 1 < l.size() ? ",\n" : "\n");
                }
                sb.append(indent).append(']');
            }
            case Number n -> sb.append(n instanceof BigDecimal d ? d.toPlainString() : n.toString());
            case Boolean b -> sb.append(b);
            default -> throw new IllegalArgumentException("not JSON: " + v.getClass());
        }
    }

    private static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
