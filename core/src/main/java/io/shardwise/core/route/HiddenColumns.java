package io.shardwise.core.route;

import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.sql.analyze.Slot;
import io.shardwise.core.sql.analyze.SqlTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The helper columns a scatter appends to each node's select list, after the user's items, each
 * once: how a node computes it (fixed text, or copies of the statement's own expression spans with
 * this execution's literals and parameters) and the index it gets. Also decides when two
 * expressions of the statement are the same one, which for texts with a {@code ?} depends on the
 * values of the execution. One instance per routing of one statement; not thread-safe.
 */
final class HiddenColumns {
    private final SqlTemplate template;
    private final Bindings bindings;
    private final int visible;
    // made by the first hidden column: a plan with none (a plain scatter, planned per execution) allocates nothing here
    private Map<String, Integer> byKey;
    private List<List<Renderer.Piece>> computed;
    /**
     * Per hidden column, the expression it is the WEIGHT_STRING of (null for other columns); made by the
     * first weight column, so a plan with none (a plain scatter, planned per execution) allocates nothing.
     */
    private List<Expr> weighed;

    HiddenColumns(SqlTemplate template, Bindings bindings, int visible) {
        this.template = template;
        this.bindings = bindings;
        this.visible = visible;
    }

    /**
     * An expression of the statement: its digest text and span (-1 when unknown). A text with a
     * {@code ?} (a literal or parameter) is rendered into a node's SQL by copying its span, so the node
     * computes it with this execution's values.
     */
    record Expr(String text, int start, int end) {
        boolean hasValues() {
            return text.indexOf('?') >= 0;
        }
    }

    boolean isEmpty() {
        return byKey == null;
    }

    int size() {
        return byKey == null ? 0 : byKey.size();
    }

    /**
     * The hidden column computing {@code before + expression + after} on each node, added once. An
     * expression with literals or parameters is copied from the statement (with this execution's
     * values), so it is the same column only at the same place of the statement.
     */
    int add(String before, Expr expression, String after) {
        return add(before, expression, after, null);
    }

    /** As {@link #add(String, Expr, String)}, computed by {@code pieces} (null: the expression's own text) when new. */
    int add(String before, Expr expression, String after, List<Renderer.Piece> pieces) {
        String text = before + expression.text() + after;
        String key = text.toLowerCase(Locale.ROOT);
        if (expression.hasValues()) {
            if (expression.start() < 0) {
                throw MergePlanner.unsupported("a sort, group or aggregate expression with a literal or parameter across shards: " + text);
            }
            key = key + "@" + expression.start();
        }
        if (byKey == null) {
            byKey = new LinkedHashMap<>();
            computed = new ArrayList<>();
        }
        Integer existing = byKey.get(key);
        if (existing != null) {
            return existing;
        }
        int index = visible + byKey.size();
        byKey.put(key, index);
        computed.add(pieces != null ? pieces : pieces(before, expression, after));
        return index;
    }

    /**
     * The hidden column comparing {@code expression} as its collation does: its WEIGHT_STRING (of the
     * value without trailing spaces: under PAD SPACE collations 'a ' = 'a', but WEIGHT_STRING keeps them).
     */
    int weight(Expr expression) {
        int index = add("weight_string(rtrim(", expression, "))");
        if (weighed == null) {
            weighed = new ArrayList<>();
        }
        while (weighed.size() <= index - visible) {
            weighed.add(null);
        }
        weighed.set(index - visible, expression);
        return index;
    }

    /**
     * Turns the weight columns {@code columns} into member indexes: the expressions they weigh are ENUM
     * or SET values (the units' column types say so), which MySQL orders by index, not by text. The
     * index (a SET's bit mask) is zero-padded to 20 digits (a SET's 64 bits), so its bytes compare as
     * the numbers do, as a weight's; equal indexes are equal members. Other columns are left alone.
     */
    void indexesFor(java.util.Set<Integer> columns) {
        if (weighed == null) {
            return;
        }
        for (int column : columns) {
            int at = column - visible;
            if (at >= 0 && at < weighed.size() && weighed.get(at) != null) {
                computed.set(at, pieces("lpad((", weighed.get(at), ") + 0, 20, '0')"));
            }
        }
    }

    /**
     * How a node computes {@code before + expression + after}: the expression's span copied where it
     * holds values or names a table the nodes rename ({@code orders.amount}: each node's text must
     * name its physical table, as the rest of its SQL does), else plain text.
     */
    List<Renderer.Piece> pieces(String before, Expr expression, String after) {
        if (!expression.hasValues() && !namesTable(expression)) {
            return List.of(new Renderer.Piece.Text(before + expression.text() + after));
        }
        List<Renderer.Piece> pieces = new ArrayList<>(3);
        if (!before.isEmpty()) {
            pieces.add(new Renderer.Piece.Text(before));
        }
        pieces.add(new Renderer.Piece.Copy(expression.start(), expression.end()));
        if (!after.isEmpty()) {
            pieces.add(new Renderer.Piece.Text(after));
        }
        return pieces;
    }

    /** Whether the expression's span holds a table name (a column's qualifier), which a node's SQL renders as its own. */
    private boolean namesTable(Expr expression) {
        if (expression.start() < 0) {
            return false;
        }
        List<Slot> slots = template.slots();
        for (int i = 0; i < slots.size(); i++) {
            Slot slot = slots.get(i);
            if (slot instanceof Slot.Table && slot.start() >= expression.start() && slot.end() <= expression.end()) {
                return true;
            }
        }
        return false;
    }

    /** The edit appending the hidden columns: one text, unless some copy the statement's own spans. */
    Renderer.Edit edit(int at) {
        StringBuilder text = new StringBuilder();
        List<Renderer.Piece> pieces = new ArrayList<>();
        boolean copies = false;
        for (List<Renderer.Piece> expr : computed) {
            text.append(", ");
            pieces.add(new Renderer.Piece.Text(", "));
            for (Renderer.Piece p : expr) {
                pieces.add(p);
                switch (p) {
                    case Renderer.Piece.Text t -> text.append(t.text());
                    case Renderer.Piece.Copy c -> copies = true;
                }
            }
        }
        return copies ? new Renderer.Edit(at, at, pieces, false) : new Renderer.Edit(at, at, text.toString());
    }

    /**
     * Whether two expressions of the statement are the same: equal texts (but for case) and, where
     * they hold literals or parameters, equal values in this execution ({@code amount * 2} is not
     * {@code amount * 3}, though both are {@code amount * ?} in the digest). Saying no is always safe:
     * the caller then computes the expression in a column of its own.
     */
    boolean same(Expr a, Expr b) {
        if (!a.text().equalsIgnoreCase(b.text())) {
            return false;
        }
        if (!a.hasValues()) {
            return true;
        }
        if (a.start() < 0 || b.start() < 0) {
            return false;
        }
        if (a.start() == b.start()) {
            return true;
        }
        List<Slot.Param> left = params(a);
        List<Slot.Param> right = params(b);
        if (left.size() != right.size()) {
            return false;
        }
        for (int i = 0; i < left.size(); i++) {
            int l = left.get(i).index();
            int r = right.get(i).index();
            String lt = bindings.text(l);
            String rt = bindings.text(r);
            // two NULLs make the same expression (a prepare describes with every parameter NULL);
            // byte[] values compare by identity, so they are never the same: the safe answer
            boolean same = lt != null ? lt.equals(rt) : rt == null && java.util.Objects.equals(bindings.value(l), bindings.value(r));
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private List<Slot.Param> params(Expr e) {
        List<Slot.Param> out = new ArrayList<>();
        for (Slot slot : template.slots()) {
            if (slot instanceof Slot.Param p && p.start() >= e.start() && p.end() <= e.end()) {
                out.add(p);
            }
        }
        return out;
    }
}
