package io.shardwise.core.rewrite;

import io.shardwise.core.route.Bindings;
import io.shardwise.core.sql.analyze.Slot;
import io.shardwise.core.sql.analyze.SqlTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Renders a statement's template for one node: text between slots copied, table slots replaced by
 * physical names, parameter slots by the literal's text (or {@code ?} with the value collected for
 * binding), and clause edits applied (slots inside an edited span are dropped). One pass, one
 * pre-sized builder.
 */
public final class Renderer {
    /**
     * Replace [start, end) of the template's text with {@code text}, or with {@code pieces} when
     * there are any; start == end inserts. With {@code aliasSource}, the replaced span's own source
     * text follows as a quoted alias, so the column keeps the label the user's text gives it. (Plain
     * text edits, such as a scatter's LIMIT made per execution, allocate no piece list.)
     */
    public record Edit(int start, int end, String text, List<Piece> pieces, boolean aliasSource) {
        public Edit {
            pieces = List.copyOf(pieces);
        }

        public Edit(int start, int end, String text) {
            this(start, end, text, List.of(), false);
        }

        public Edit(int start, int end, String text, boolean aliasSource) {
            this(start, end, text, List.of(), aliasSource);
        }

        public Edit(int start, int end, List<Piece> pieces, boolean aliasSource) {
            this(start, end, "", pieces, aliasSource);
        }
    }

    /**
     * What an edit inserts: fixed text, or a copy of a span of the statement itself rendered like the
     * rest of it (the user's own spelling, its literals, a {@code ?} bound to the same parameter value,
     * physical table names). A copy lets a node compute a hidden column from the user's expression
     * text, literals and parameters included, instead of the merger re-implementing it.
     */
    public sealed interface Piece {
        record Text(String text) implements Piece {}

        /** [start, end) of the template's text, at token boundaries. */
        record Copy(int start, int end) implements Piece {
            public Copy {
                if (start < 0 || end < start) {
                    throw new IllegalArgumentException("copy " + start + ".." + end);
                }
            }
        }
    }

    /** The physical SQL and the values for its {@code ?} markers. */
    public record Rendered(String sql, List<Object> params) {}

    private Renderer() {}

    /**
     * @param physical logical table name (lower case) → physical name on this node; names absent stay
     * @param edits sorted by start, non-overlapping
     */
    public static Rendered render(SqlTemplate template, Map<String, String> physical, Bindings bindings, List<Edit> edits) {
        return render(template, SourceText.of(template.text()), physical, bindings, edits);
    }

    /**
     * Renders from {@code source}: offsets of slots and edits are the template's (digest) offsets,
     * mapped through the source; text between them is the source's own.
     */
    public static Rendered render(SqlTemplate template, SourceText source, Map<String, String> physical, Bindings bindings,
                                  List<Edit> edits) {
        String text = template.text();
        String out = source.text();
        if (edits.isEmpty() && source.hasValues() && unchanged(template, source, out, physical, bindings)) {
            return new Rendered(out, List.of()); // the user's text is already what this node needs
        }
        StringBuilder sb = new StringBuilder(out.length() + 32);
        List<Object> params = null;
        int at = 0;
        int e = 0;
        List<Slot> slots = template.slots();
        for (int s = 0; s <= slots.size(); s++) {
            Slot slot = s < slots.size() ? slots.get(s) : null;
            int slotStart = slot == null ? text.length() : slot.start();
            // edits before (or enclosing) this slot
            while (e < edits.size() && edits.get(e).start() <= slotStart) {
                Edit edit = edits.get(e);
                if (edit.start() < at) {
                    e++;
                    continue;
                }
                sb.append(out, source.at(at), source.at(edit.start()));
                params = pieces(sb, params, edit, template, source, physical, bindings);
                alias(sb, edit, out, source, template, bindings);
                at = edit.end();
                e++;
            }
            if (slot == null) {
                break;
            }
            if (slot.start() < at) {
                continue; // inside an edited span
            }
            sb.append(out, source.at(at), source.at(slot.start()));
            params = slot(sb, params, slot, source, physical, bindings);
            at = slot.end();
        }
        while (e < edits.size()) {
            Edit edit = edits.get(e++);
            if (edit.start() >= at) {
                sb.append(out, source.at(at), source.at(edit.start()));
                params = pieces(sb, params, edit, template, source, physical, bindings);
                alias(sb, edit, out, source, template, bindings);
                at = edit.end();
            }
        }
        sb.append(out, source.at(at), out.length());
        return new Rendered(sb.toString(), params == null ? List.of() : params);
    }

    /** Renders one slot; returns the parameter list, created on the first prepared parameter. */
    private static List<Object> slot(StringBuilder sb, List<Object> params, Slot slot, SourceText source,
                                     Map<String, String> physical, Bindings bindings) {
        switch (slot) {
            case Slot.Table t -> {
                String name = physical.get(t.table().toLowerCase(java.util.Locale.ROOT));
                sb.append(name != null ? quote(name) : source.text().substring(source.at(t.start()), source.at(t.end())));
            }
            case Slot.Param p -> {
                String literal = bindings.text(p.index());
                if (literal != null) {
                    sb.append(literal);
                } else {
                    // bound in output order: a copy's ? sits where it is rendered, so its value goes here
                    sb.append('?');
                    if (params == null) {
                        params = new ArrayList<>();
                    }
                    params.add(bindings.value(p.index()));
                }
            }
        }
        return params;
    }

    private static List<Object> pieces(StringBuilder sb, List<Object> params, Edit edit, SqlTemplate template, SourceText source,
                                       Map<String, String> physical, Bindings bindings) {
        List<Piece> pieces = edit.pieces();
        if (pieces.isEmpty()) {
            sb.append(edit.text());
            return params;
        }
        for (int i = 0; i < pieces.size(); i++) { // indexed: no iterator per edit
            Piece piece = pieces.get(i);
            switch (piece) {
                case Piece.Text t -> sb.append(t.text());
                case Piece.Copy c -> params = copy(sb, params, c, template, source, physical, bindings);
            }
        }
        return params;
    }

    /** [start, end) of the template alone (at token boundaries), rendered as {@link #render} renders that part of the statement. */
    public static Rendered span(SqlTemplate template, SourceText source, Map<String, String> physical, Bindings bindings, int start,
                                int end) {
        StringBuilder sb = new StringBuilder(end - start + 16);
        List<Object> params = copy(sb, null, new Piece.Copy(start, end), template, source, physical, bindings);
        return new Rendered(sb.toString(), params == null ? List.of() : params);
    }

    /** A span of the statement rendered as the statement itself is: source text between its slots. */
    private static List<Object> copy(StringBuilder sb, List<Object> params, Piece.Copy copy, SqlTemplate template, SourceText source,
                                     Map<String, String> physical, Bindings bindings) {
        String out = source.text();
        int at = copy.start();
        List<Slot> slots = template.slots();
        for (int i = 0; i < slots.size(); i++) {
            Slot slot = slots.get(i);
            if (slot.start() < copy.start()) {
                continue;
            }
            if (slot.end() > copy.end()) {
                break; // slots are sorted and never overlap
            }
            sb.append(out, source.at(at), source.at(slot.start()));
            params = slot(sb, params, slot, source, physical, bindings);
            at = slot.end();
        }
        sb.append(out, source.at(at), source.at(copy.end()));
        return params;
    }

    /**
     * The values a rendering without edits binds to its {@code ?}s: one per prepared parameter (a
     * value slot without literal text), in slot order, as {@link #render} collects them.
     */
    public static List<Object> parameters(SqlTemplate template, Bindings bindings) {
        List<Slot> slots = template.slots();
        List<Object> params = null;
        for (int s = 0; s < slots.size(); s++) {
            if (slots.get(s) instanceof Slot.Param p && !bindings.inline(p.index())) {
                if (params == null) {
                    params = new ArrayList<>(bindings.size());
                }
                params.add(bindings.value(p.index()));
            }
        }
        return params == null ? List.of() : params;
    }

    /** Whether every table already has its physical name in the text and every value is inline. */
    private static boolean unchanged(SqlTemplate template, SourceText source, String out, Map<String, String> physical,
                                     Bindings bindings) {
        List<Slot> slots = template.slots();
        for (int i = 0; i < slots.size(); i++) { // indexed: no iterator per render
            Slot slot = slots.get(i);
            switch (slot) {
                case Slot.Table t -> {
                    String name = physical.get(t.table().toLowerCase(java.util.Locale.ROOT));
                    if (name != null) {
                        int start = source.at(t.start());
                        int length = source.at(t.end()) - start;
                        if (length != name.length() || !out.regionMatches(start, name, 0, length)) {
                            return false;
                        }
                    }
                }
                case Slot.Param p -> {
                    if (!bindings.inline(p.index())) {
                        return false; // a prepared parameter: the unit needs its value
                    }
                }
            }
        }
        return true;
    }

    /**
     * The replaced span's own text as a quoted alias. A parameter in it is labelled with its value's
     * literal text where it has one, as the backend labels the other items the node receives with the
     * value spliced in (and as one MySQL labels a statement a client sends with its values); a prepared
     * parameter without literal text keeps its {@code ?}.
     */
    private static void alias(StringBuilder sb, Edit edit, String out, SourceText source, SqlTemplate template, Bindings bindings) {
        if (!edit.aliasSource()) {
            return;
        }
        StringBuilder label = new StringBuilder(edit.end() - edit.start() + 16);
        int at = edit.start();
        for (Slot slot : template.slots()) {
            if (slot instanceof Slot.Param p && p.start() >= edit.start() && p.end() <= edit.end()) {
                label.append(out, source.at(at), source.at(p.start()));
                String own = out.substring(source.at(p.start()), source.at(p.end()));
                label.append(own.equals("?") ? labelText(bindings, p.index()) : own);
                at = p.end();
            }
        }
        label.append(out, source.at(at), source.at(edit.end()));
        sb.append(" AS `").append(label.toString().replace("`", "``")).append('`');
    }

    /**
     * A value as a label spells it: a literal's own text; a prepared parameter's number or string as a
     * client that splices values (Connector/J's default) writes it; otherwise {@code ?}.
     */
    private static String labelText(Bindings bindings, int index) {
        String literal = bindings.text(index);
        if (literal != null) {
            return literal;
        }
        return switch (bindings.value(index)) {
            case java.math.BigDecimal d -> d.toPlainString();
            case Number n -> n.toString();
            case String str -> "'" + str.replace("\\", "\\\\").replace("'", "\\'") + "'";
            case null, default -> "?";
        };
    }

    /** A physical name as an identifier: backticked only when it needs to be. */
    static String quote(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$')) {
                return "`" + name.replace("`", "``") + "`";
            }
        }
        return name;
    }
}
