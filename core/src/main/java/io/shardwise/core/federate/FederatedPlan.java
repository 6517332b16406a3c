package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.CopyScope;
import io.shardwise.core.sql.analyze.SelectShape;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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
     * {@code local} (its nodes there) and {@code remote} (its nodes elsewhere, shipped), each read
     * through {@code push}: only the columns and rows the statement can use, from only the nodes that
     * can hold them ({@link CopyScans}). A copy made from a definition elsewhere keeps every column
     * (the coordinator's catalog does not list them) and takes only qualified conjuncts.
     */
    public record Copy(String table, String temp, String like, List<String> local, List<DataNode> remote, DataNode definition,
                       Push push) {
        public Copy {
            local = List.copyOf(local);
            remote = List.copyOf(remote);
            Objects.requireNonNull(push, "push");
            if ((like == null) == (definition == null)) {
                throw new IllegalArgumentException("a copy is made like a node on the coordinator or from another node's definition: "
                        + like + ", " + definition);
            }
        }

        /** As made LIKE a node on the coordinator, every column and row (no pushdown). */
        public Copy(String table, String temp, String like, List<String> local, List<DataNode> remote) {
            this(table, temp, like, local, remote, null, Push.NONE);
        }

        /** Every column and row (no pushdown), made like {@code like} or from {@code definition}. */
        public Copy(String table, String temp, String like, List<String> local, List<DataNode> remote, DataNode definition) {
            this(table, temp, like, local, remote, definition, Push.NONE);
        }
    }

    /**
     * What a copy's scans may leave out, decided once per plan from the statement ({@link
     * io.shardwise.core.sql.analyze.CopyScope}) and bound to the live columns at each execution
     * ({@link CopyScans}).
     *
     * @param exposed the name the statement gives the table: scans read its nodes under it, so the
     *     conjuncts' qualifiers resolve as in the statement
     * @param whole every column is needed ({@code *}, NATURAL, USING ...)
     * @param names every name the statement uses as a column anywhere (lower case): a column outside
     *     them is never read (over-inclusion is harmless; a column the text names is never left out)
     * @param conjuncts the conjuncts this table may take
     * @param rivals the physical names, on the coordinator, of the other tables of the outermost FROM
     *     (an unqualified name in a conjunct is pushed only when none of them has it)
     * @param sharded the table's rule, whose algorithm prunes nodes by the pushed conjuncts' keys
     * @param keys the join keys whose source copies may narrow its scans ({@link JoinKeys})
     */
    public record Push(String exposed, boolean whole, Set<String> names, List<CopyScope.Conjunct> conjuncts, List<String> rivals,
                       TableRule.Sharded sharded, List<Key> keys) {
        public static final Push NONE = new Push(null, true, Set.of(), List.of(), List.of(), null, List.of());

        public Push {
            names = Set.copyOf(names);
            conjuncts = List.copyOf(conjuncts);
            rivals = List.copyOf(rivals);
            keys = List.copyOf(keys);
        }

        public Push(String exposed, boolean whole, Set<String> names, List<CopyScope.Conjunct> conjuncts, List<String> rivals,
                    TableRule.Sharded sharded) {
            this(exposed, whole, names, conjuncts, rivals, sharded, List.of());
        }
    }

    /**
     * A join key ({@link CopyScope.Key}) with its tables as the coordinator names them: {@code column}
     * of this copy is among the values of {@code sourceColumn} in copy {@code source} (logical, lower
     * case), made like {@code sourceLike}; {@code rivals} and {@code sourceRivals} are the physical
     * tables whose having an unqualified name of the same spelling makes the key not apply.
     */
    public record Key(String column, boolean qualified, List<String> rivals, String source, String sourceLike, String sourceColumn,
                      boolean sourceQualified, List<String> sourceRivals) {
        public Key {
            rivals = List.copyOf(rivals);
            sourceRivals = List.copyOf(sourceRivals);
        }
    }

    /** A stable one-line-per-step description (PREVIEW, EXPLAIN, golden tests). */
    public String explain() {
        StringBuilder sb = new StringBuilder("FEDERATED on ").append(coordinator);
        for (Copy c : copies) {
            sb.append("\n  copy ").append(c.table()).append(" -> ").append(c.temp())
                    .append(c.like() != null ? " (like " + c.like() + ')' : " (as " + c.definition() + ')');
            for (CopyScope.Conjunct conjunct : c.push().conjuncts()) {
                sb.append("\n    where ").append(conjunct.text());
                if (!conjunct.unqualified().isEmpty()) {
                    // an OR whose names are not all the table's comes down to its parts that are (CopyScans.resolve)
                    sb.append(conjunct.any().isEmpty() ? "  /* if " : "  /* or its parts, if ").append(String.join(", ", new java.util.TreeSet<>(conjunct.unqualified())))
                            .append(" are ").append(c.push().exposed()).append("'s alone */");
                }
            }
            for (Key k : c.push().keys()) {
                sb.append("\n    keys ").append(k.column()).append(" in ").append(k.source()).append('.').append(k.sourceColumn());
            }
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
