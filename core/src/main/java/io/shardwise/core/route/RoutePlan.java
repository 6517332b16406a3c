package io.shardwise.core.route;

import java.util.List;
import java.util.Objects;

/**
 * Where and how one statement runs: the units (in a stable order: backend, then node order) and how
 * their results combine. Immutable; {@link #explain()} is what PREVIEW shows and golden tests pin.
 */
public record RoutePlan(RouteKind kind, List<ExecutionUnit> units, MergeSpec merge) {
    public RoutePlan {
        Objects.requireNonNull(kind, "kind");
        units = List.copyOf(units);
        Objects.requireNonNull(merge, "merge");
        if (merge instanceof MergeSpec.PassThrough && units.size() != 1) {
            throw new IllegalArgumentException("pass-through needs exactly one unit, got " + units.size());
        }
    }

    public String explain() {
        StringBuilder sb = new StringBuilder(kind.name()).append(" merge=").append(merge.explain());
        for (ExecutionUnit u : units) {
            sb.append("\n  ").append(u.explain());
        }
        return sb.toString();
    }
}
