package io.shardwise.core.route;

import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.route.HiddenColumns.Expr;
import io.shardwise.core.sql.analyze.SelectShape;
import java.util.ArrayList;
import java.util.List;

/**
 * The arguments of a scatter's COUNT/SUM/AVG(DISTINCT ...) aggregates, wherever they appear (select
 * items, HAVING, ORDER BY), each once. The nodes group by all of them besides the statement's own
 * GROUP BY: a node then returns one row per combination of their values present in a group, so every
 * argument's distinct values of the group reach the merger (which de-duplicates each across nodes),
 * and the other aggregates, computed per finer group, still merge exactly (COUNT and SUM add up, MIN
 * and MAX compare, AVG divides merged sums). Cost: a node sends up to the product of the arguments'
 * distinct counts per group (never more than its rows), and the merger holds one set per DISTINCT
 * aggregate per group (its distinct values), which is what the aggregate needs anyway.
 * One instance per routing of one statement; not thread-safe.
 */
final class DistinctArguments {
    private final HiddenColumns hidden;
    private final List<Expr> arguments = new ArrayList<>();

    DistinctArguments(HiddenColumns hidden) {
        this.hidden = hidden;
    }

    /** Whether {@code a} is an aggregate over DISTINCT values that the nodes must group by. */
    static boolean groupsBy(SelectShape.Aggregate a) {
        return a != null && a.distinct() && switch (a.kind()) {
            case COUNT, SUM, AVG -> true;
            // MIN/MAX(DISTINCT x) is MIN/MAX(x); the others are never DISTINCT (the analyzer says OTHER)
            case MIN, MAX, BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG, OTHER -> false;
        };
    }

    /** The slot kind merging {@code a}, which {@link #groupsBy}. */
    static AggregateSlot.Kind kind(SelectShape.Aggregate a) {
        return switch (a.kind()) {
            case COUNT -> AggregateSlot.Kind.COUNT_DISTINCT;
            case SUM -> AggregateSlot.Kind.SUM_DISTINCT;
            case AVG -> AggregateSlot.Kind.AVG_DISTINCT;
            case MIN, MAX, BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG, OTHER ->
                    throw new IllegalArgumentException("not a DISTINCT aggregate the nodes group by: " + a);
        };
    }

    /** How deep a hidden column of this kind nests its argument in parentheses, to keep it a column of its own. */
    static int nesting(AggregateSlot.Kind kind) {
        return switch (kind) {
            case COUNT_DISTINCT -> 1;
            case SUM_DISTINCT -> 2;
            case AVG_DISTINCT -> 3;
            case COUNT, SUM, MIN, MAX, AVG, BIT_AND, BIT_OR, BIT_XOR, GROUP_CONCAT, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, JSON_ARRAYAGG, JSON_OBJECTAGG ->
                    throw new IllegalArgumentException("not DISTINCT: " + kind);
        };
    }

    /**
     * How a node returns the value a COUNT(DISTINCT ...) counts, for a tuple COUNT(DISTINCT a, b): one
     * column identifying the tuple under the arguments' collations, NULL when any argument is NULL
     * (MySQL counts only tuples of non-NULL values) — each argument's WEIGHT_STRING (of the rtrimmed
     * value, as every weight here), all but the last prefixed with their length, so ('ab', 'c') and
     * ('a', 'bc') stay apart. The nodes group by the arguments too, so the value is the group's.
     */
    static List<Renderer.Piece> tuple(SelectShape.Aggregate a) {
        List<Renderer.Piece> out = new ArrayList<>();
        out.add(new Renderer.Piece.Text("concat("));
        List<SelectShape.Span> spans = a.arguments();
        for (int i = 0; i < spans.size(); i++) {
            SelectShape.Span span = spans.get(i);
            if (i > 0) {
                out.add(new Renderer.Piece.Text(", "));
            }
            if (i < spans.size() - 1) {
                out.add(new Renderer.Piece.Text("length(weight_string(rtrim("));
                out.add(new Renderer.Piece.Copy(span.start(), span.end()));
                out.add(new Renderer.Piece.Text("))), ':', "));
            }
            out.add(new Renderer.Piece.Text("weight_string(rtrim("));
            out.add(new Renderer.Piece.Copy(span.start(), span.end()));
            out.add(new Renderer.Piece.Text("))"));
        }
        out.add(new Renderer.Piece.Text(")"));
        return out;
    }

    /**
     * Records {@code argument} once (the same expression with the same values is one) and returns the
     * first recorded equal one, whose WEIGHT_STRING column then serves every copy.
     */
    Expr add(Expr argument) {
        for (Expr e : arguments) {
            if (hidden.same(e, argument)) {
                return e;
            }
        }
        arguments.add(argument);
        return argument;
    }

    boolean isEmpty() {
        return arguments.isEmpty();
    }

    /** The pieces of {@code , a, b} (or {@code a, b} when {@code first}) that extend or start a GROUP BY. */
    List<Renderer.Piece> groupByList(String before, String after) {
        List<Renderer.Piece> out = new ArrayList<>();
        out.add(new Renderer.Piece.Text(before));
        for (int i = 0; i < arguments.size(); i++) {
            if (i > 0) {
                out.add(new Renderer.Piece.Text(", "));
            }
            out.addAll(hidden.pieces("", arguments.get(i), ""));
        }
        if (!after.isEmpty()) {
            out.add(new Renderer.Piece.Text(after));
        }
        return out;
    }
}
