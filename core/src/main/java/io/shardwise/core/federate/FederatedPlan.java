package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.sql.analyze.SelectShape;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The third tier of a SELECT, as built: the statement runs whole, as the user wrote it, on one
 * backend (the coordinator), over temporary copies of the tables that do not live there whole. Each
 * sharded table becomes one temporary table on the coordinator made {@code LIKE} its coordinator
 * node (so every column keeps its type, length, collation and indexes), filled from the coordinator's
 * own nodes by {@code INSERT ... SELECT} there and from the other nodes' rows shipped through
 * Shardwise; broadcast tables and single tables of the coordinator are read where they are. A table
 * with no node on the coordinator (sharded, single or broadcast) is copied from another backend's
 * definition of one of its nodes.
 *
 * <p>Invariant: {@code names} maps every logical table the statement names (lower case) to what the
 * coordinator reads for it, and {@code logical} maps those names back (result metadata and error
 * messages show logical names). {@code labels} are the select items whose text names a renamed
 * copy and that have no alias: each is sent with its own text as alias, so its label stays the
 * one MySQL derives from the user's text. Immutable; made once per cached plan, it holds no values.
 *
 * <p>Hazard: the copies are the tables' rows at the moment each node is read, as a scatter read of
 * the streaming merger sees them; rows shipped are held in memory up to the statement's budget
 * ({@link ShipBudget}).
 */
public record FederatedPlan(String coordinator, List<Copy> copies, Map<String, String> names, Map<String, String> logical,
                            List<SelectShape.Span> labels) implements Federation.Decision {
    public FederatedPlan {
        Objects.requireNonNull(coordinator, "coordinator");
        copies = List.copyOf(copies);
        labels = List.copyOf(labels);
        names = Map.copyOf(names);
        logical = Map.copyOf(logical);
    }

    /**
     * One logical table copied into temporary table {@code temp} on the coordinator: created like
     * {@code like} (a node of it there), or, when it has none there ({@code like} null), from the
     * definition of node {@code definition} elsewhere ({@link CopyTexts#createFrom}); filled from
     * {@code local} (its nodes there) and {@code remote} (its nodes elsewhere, read whole and shipped).
     */
    public record Copy(String table, String temp, String like, List<String> local, List<DataNode> remote, DataNode definition) {
        public Copy {
            local = List.copyOf(local);
            remote = List.copyOf(remote);
            if ((like == null) == (definition == null)) {
                throw new IllegalArgumentException("a copy is made like a node on the coordinator or from another node's definition: "
                        + like + ", " + definition);
            }
        }

        /** As made LIKE a node on the coordinator. */
        public Copy(String table, String temp, String like, List<String> local, List<DataNode> remote) {
            this(table, temp, like, local, remote, null);
        }
    }

    /** A stable one-line-per-step description (PREVIEW, EXPLAIN, golden tests). */
    public String explain() {
        StringBuilder sb = new StringBuilder("FEDERATED on ").append(coordinator);
        for (Copy c : copies) {
            sb.append("\n  copy ").append(c.table()).append(" -> ").append(c.temp())
                    .append(c.like() != null ? " (like " + c.like() + ')' : " (as " + c.definition() + ')');
            for (String l : c.local()) {
                sb.append("\n    local ").append(l);
            }
            for (DataNode r : c.remote()) {
                sb.append("\n    ship ").append(r.backend()).append('.').append(r.table());
            }
        }
        return sb.toString();
    }
}
