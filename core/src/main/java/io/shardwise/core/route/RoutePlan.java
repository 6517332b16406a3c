package io.shardwise.core.route;

import java.util.List;
import java.util.Objects;

/**
 * Where and how one statement runs: the units (in node order) and how their results combine.
 * Immutable; {@link #explain()} is what PREVIEW shows and golden tests pin. When the select list
 * has a {@code *} at item {@code starItem} (-1: none), column indexes in {@code merge} past it
 * assume the star is one column wide, making units {@code assumedWidth} columns wide;
 * {@link #mergeFor} shifts them once the real width is known. {@code generatedKeys} are the values key generators filled in, in row order.
 */
public record RoutePlan(RouteKind kind, List<ExecutionUnit> units, MergeSpec merge, int starItem, int assumedWidth,
                        List<Object> generatedKeys) {
    public RoutePlan {
        Objects.requireNonNull(kind, "kind");
        units = List.copyOf(units);
        generatedKeys = List.copyOf(generatedKeys);
        Objects.requireNonNull(merge, "merge");
        // a federated plan's answer is its coordinator statement's own result: it passes through (also as the rows a
        // keyed write or key move chooses, in the plan PREVIEW shows of one)
        if (merge instanceof MergeSpec.PassThrough && units.size() != 1 && kind != RouteKind.FEDERATED && kind != RouteKind.KEYED_WRITE
                && kind != RouteKind.KEY_MOVE) {
            throw new IllegalArgumentException("pass-through needs exactly one unit, got " + units.size());
        }
    }

    public RoutePlan(RouteKind kind, List<ExecutionUnit> units, MergeSpec merge) {
        this(kind, units, merge, -1, -1, List.of());
    }

    /**
     * The merge for units that returned {@code actualWidth} columns: a {@code *} assumed one column
     * wide is widened to what it really was.
     */
    public MergeSpec mergeFor(int actualWidth) {
        return starItem < 0 || assumedWidth < 0 ? merge : MergeSpecs.expandStar(merge, starItem, actualWidth - assumedWidth);
    }

    public String explain() {
        StringBuilder sb = new StringBuilder(kind.name()).append(" merge=").append(merge.explain());
        for (ExecutionUnit u : units) {
            sb.append("\n  ").append(u.explain());
        }
        return sb.toString();
    }
}
