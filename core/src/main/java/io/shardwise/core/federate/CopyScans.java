package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.route.Bindings;
import io.shardwise.core.route.NodeSelector;
import io.shardwise.core.sql.analyze.CopyScope;
import io.shardwise.core.sql.analyze.KeyCondition;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Binds a plan's {@link FederatedPlan.Push}es to one execution: the coordinator's catalog says which
 * columns each table has (so unqualified names are attributed as MySQL attributes them, and a
 * column the statement never names is left out), the execution's values say which nodes a pushed
 * conjunct on the sharding key leaves. Asked at every execution rather than cached with the plan:
 * a table's columns may change under a cached statement (ALTER TABLE), and one catalog read is
 * small beside the copies it narrows.
 *
 * <p>Why a narrowed copy is defined column by column from the catalog ({@link CopyTexts#create(Bound)})
 * rather than otherwise: a CREATE ... SELECT copy keeps no index and may change types (a short
 * VARCHAR may become CHAR and lose trailing spaces); a LIKE copy filled with only some columns fails
 * in strict mode on a NOT NULL column without default; a LIKE copy narrowed by ALTER TABLE commits
 * the session's transaction (ALTER TABLE does, even on a temporary table). Columns of a unique index
 * always stay (a narrower unique index would make distinct rows collide); a table with generated
 * columns, CHECK constraints or FULLTEXT/SPATIAL indexes is copied whole.
 */
public final class CopyScans {
    private CopyScans() {}

    /** A column as the catalog defines it: the definition a narrowed copy repeats. */
    /**
     * A column as the catalog defines it: the definition a narrowed copy repeats. AUTO_INCREMENT too:
     * MySQL reports it among a result column's flags when the column is read from its table.
     */
    public record Column(String name, String type, String charset, String collation, boolean nullable, boolean autoIncrement) {}

    /** An index: its columns in order, each with its prefix length or null. */
    public record Index(String name, boolean unique, List<String> columns, List<String> prefixes) {
        public Index {
            columns = List.copyOf(columns);
            prefixes = java.util.Collections.unmodifiableList(new ArrayList<>(prefixes));
        }
    }

    /**
     * One table on the coordinator: its columns (ordinal order), its B-tree indexes, and whether a
     * narrowed copy can stand for it (not with generated columns, CHECK constraints, FULLTEXT or
     * SPATIAL indexes: they read or need columns the copy would leave out).
     */
    public record Columns(List<Column> columns, List<Index> indexes, boolean droppable) {
        public Columns {
            columns = List.copyOf(columns);
            indexes = List.copyOf(indexes);
        }

        boolean has(String lower) {
            return column(lower) != null;
        }

        /** Column {@code lower} (lower-case name), or null. */
        Column column(String lower) {
            for (Column c : columns) {
                if (c.name().toLowerCase(Locale.ROOT).equals(lower)) {
                    return c;
                }
            }
            return null;
        }

        Set<String> unique() {
            Set<String> out = new HashSet<>();
            for (Index i : indexes) {
                if (i.unique()) {
                    for (String c : i.columns()) {
                        out.add(c.toLowerCase(Locale.ROOT));
                    }
                }
            }
            return out;
        }
    }

    /**
     * One copy as this execution reads it: {@code columns} null for all (then the copy keeps its
     * node's definition), else those kept, in their table's order, with {@code dropped} the rest;
     * the conjuncts pushed into each scan; the local and remote nodes that can hold matching rows.
     */
    public record Bound(FederatedPlan.Copy copy, List<String> columns, Columns definition, List<CopyScope.Conjunct> pushed,
                        List<String> local, List<DataNode> remote, List<FederatedPlan.Key> keys, Columns own) {
        public Bound {
            columns = columns == null ? null : List.copyOf(columns);
            pushed = List.copyOf(pushed);
            local = List.copyOf(local);
            remote = List.copyOf(remote);
            keys = List.copyOf(keys);
        }

        public Bound(FederatedPlan.Copy copy, List<String> columns, Columns definition, List<CopyScope.Conjunct> pushed,
                     List<String> local, List<DataNode> remote) {
            this(copy, columns, definition, pushed, local, remote, List.of(), definition);
        }

        /** Where column {@code lower} is in the rows its scans return ({@code SELECT *}: the catalog's order), or -1. */
        public int position(String lower) {
            List<String> order = columns;
            if (order == null) {
                if (own == null) {
                    return -1;
                }
                order = new ArrayList<>(own.columns().size());
                for (Column c : own.columns()) {
                    order.add(c.name());
                }
            }
            for (int i = 0; i < order.size(); i++) {
                if (order.get(i).toLowerCase(Locale.ROOT).equals(lower)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** The physical tables on the coordinator whose columns {@link #bind} needs; empty: no catalog read at all. */
    public static List<String> catalogTables(FederatedPlan plan) {
        Set<String> out = new LinkedHashSet<>();
        for (FederatedPlan.Copy c : plan.copies()) {
            FederatedPlan.Push p = c.push();
            boolean unqualified = false;
            for (CopyScope.Conjunct conjunct : p.conjuncts()) {
                unqualified |= !conjunct.unqualified().isEmpty();
            }
            for (CopyScope.Conjunct conjunct : p.conjuncts()) {
                nodeTables(conjunct, out); // a node's key set: its tables' columns decide whether it is correlated
            }
            if (c.like() != null && (!p.whole() || unqualified)) {
                out.add(c.like()); // a copy made from a definition elsewhere is whole, its conjuncts qualified (Federation)
            }
            if (unqualified) {
                out.addAll(p.rivals());
            }
            if (c.like() != null && !p.keys().isEmpty()) {
                out.add(c.like()); // a join key needs both columns' types
                for (FederatedPlan.Key k : p.keys()) {
                    out.add(k.sourceLike());
                    out.addAll(k.rivals());
                    out.addAll(k.sourceRivals());
                }
            }
        }
        return List.copyOf(out);
    }

    /**
     * One catalog read for {@code tables} (bound to its {@code ?}s, in order, three times over), as
     * rows of eight strings: (table, 'c', ordinal, column, type, charset, collation, nullable/auto_increment/generated)
     * per column, (table, 'i', seq, column, index, non-unique, prefix, index type) per index part and
     * (table, 'k', ...) per CHECK constraint.
     */
    public static String catalogQuery(int tables) {
        String in = "?" + ", ?".repeat(Math.max(0, tables - 1));
        return "SELECT TABLE_NAME, 'c', ORDINAL_POSITION, COLUMN_NAME, COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME,"
                + " CONCAT(IS_NULLABLE, CASE WHEN EXTRA LIKE '%auto_increment%' THEN ' AUTO_INCREMENT' ELSE '' END,"
                + " CASE WHEN EXTRA LIKE '%GENERATED%' THEN ' GENERATED' ELSE '' END) FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (" + in + ")"
                + " UNION ALL SELECT TABLE_NAME, 'i', SEQ_IN_INDEX, COLUMN_NAME, INDEX_NAME, NON_UNIQUE, SUB_PART, INDEX_TYPE"
                + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME IN (" + in + ")"
                + " UNION ALL SELECT TABLE_NAME, 'k', 0, CONSTRAINT_NAME, NULL, NULL, NULL, NULL FROM information_schema.TABLE_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = DATABASE() AND TABLE_NAME IN (" + in + ") AND CONSTRAINT_TYPE = 'CHECK'";
    }

    /** Folds the catalog rows ({@link #catalogQuery}; null cells as null) into one {@link Columns} per table (lower-case name). */
    public static Map<String, Columns> catalog(List<String[]> rows) {
        Map<String, java.util.TreeMap<Integer, Column>> columns = new HashMap<>();
        Map<String, Map<String, java.util.TreeMap<Integer, String[]>>> indexes = new HashMap<>();
        Set<String> fixed = new HashSet<>();
        for (String[] row : rows) {
            String table = row[0].toLowerCase(Locale.ROOT);
            int seq = Integer.parseInt(row[2]);
            switch (row[1]) {
                case "c" -> {
                    columns.computeIfAbsent(table, t -> new java.util.TreeMap<>())
                            .put(seq, new Column(row[3], row[4], row[5], row[6], row[7].startsWith("YES"), row[7].contains(" AUTO_INCREMENT")));
                    if (row[7].endsWith("GENERATED")) {
                        fixed.add(table);
                    }
                }
                case "i" -> {
                    if (!"BTREE".equalsIgnoreCase(row[7]) && !"HASH".equalsIgnoreCase(row[7])) {
                        fixed.add(table); // FULLTEXT, SPATIAL: MATCH and spatial reads need the index itself
                    }
                    indexes.computeIfAbsent(table, t -> new java.util.LinkedHashMap<>())
                            .computeIfAbsent(row[4], i -> new java.util.TreeMap<>()).put(seq, new String[] {row[3], row[5], row[6]});
                }
                default -> fixed.add(table);
            }
        }
        Map<String, Columns> out = new HashMap<>();
        columns.forEach((table, byOrdinal) -> {
            List<Index> list = new ArrayList<>();
            indexes.getOrDefault(table, Map.of()).forEach((name, parts) -> {
                List<String> names = new ArrayList<>();
                List<String> prefixes = new ArrayList<>();
                boolean unique = false;
                for (String[] part : parts.values()) {
                    names.add(part[0]);
                    prefixes.add(part[2]);
                    unique = "0".equals(part[1]);
                }
                list.add(new Index(name, unique, names, prefixes));
            });
            out.put(table, new Columns(new ArrayList<>(byOrdinal.values()), list, !fixed.contains(table)));
        });
        return out;
    }

    /** {@code copy} for this execution, given the catalog ({@link #catalog}; empty when not read) and the values. */
    public static Bound bind(FederatedPlan.Copy copy, Map<String, Columns> catalog, Bindings bindings) {
        FederatedPlan.Push push = copy.push();
        Columns own = copy.like() == null ? null : catalog.get(copy.like().toLowerCase(Locale.ROOT));
        List<CopyScope.Conjunct> pushed = new ArrayList<>();
        for (CopyScope.Conjunct c : push.conjuncts()) {
            CopyScope.Conjunct resolved = resolve(c, own, push.rivals(), catalog);
            if (resolved != null) {
                pushed.add(resolved);
            }
        }
        List<String> columns = null;
        if (!push.whole() && own != null && own.droppable()) {
            Set<String> unique = own.unique();
            List<String> kept = new ArrayList<>();
            for (Column column : own.columns()) {
                String lower = column.name().toLowerCase(Locale.ROOT);
                if (push.names().contains(lower) || unique.contains(lower)) {
                    kept.add(column.name());
                }
            }
            if (kept.isEmpty() && !own.columns().isEmpty()) {
                kept.add(own.columns().getFirst().name()); // a table keeps a column (COUNT(*) over a join reads none)
            }
            if (kept.size() < own.columns().size()) {
                columns = kept;
            }
        }
        List<String> local = new ArrayList<>(copy.local());
        List<DataNode> remote = new ArrayList<>(copy.remote());
        if (push.sharded() != null && !pushed.isEmpty()) {
            List<DataNode> nodes = push.sharded().nodes();
            BitSet can = new BitSet(nodes.size());
            can.set(0, nodes.size());
            for (CopyScope.Conjunct c : pushed) {
                if (!(c.key() instanceof KeyCondition.Any)) {
                    can.and(NodeSelector.nodes(c.key(), push.sharded().algorithm(), nodes.size(), bindings));
                }
            }
            List<DataNode> left = new ArrayList<>();
            for (int i = can.nextSetBit(0); i >= 0; i = can.nextSetBit(i + 1)) {
                left.add(nodes.get(i));
            }
            local.removeIf(table -> !containsTable(left, copy, table));
            remote.retainAll(left);
        }
        List<FederatedPlan.Key> keys = new ArrayList<>();
        for (FederatedPlan.Key k : push.keys()) {
            Columns source = catalog.get(k.sourceLike().toLowerCase(Locale.ROOT));
            if (own != null && source != null && owns(k.column(), k.qualified(), own, k.rivals(), catalog)
                    && owns(k.sourceColumn(), k.sourceQualified(), source, k.sourceRivals(), catalog)
                    && JoinKeys.comparable(own.column(k.column()), source.column(k.sourceColumn()))) {
                keys.add(k);
            }
        }
        return new Bound(copy, columns, columns == null ? null : own, pushed, local, remote, keys, own);
    }

    /** Column {@code lower} is {@code table}'s, and (unqualified) no rival's: MySQL attributes the name to it. */
    private static boolean owns(String lower, boolean qualified, Columns table, List<String> rivals, Map<String, Columns> catalog) {
        if (!table.has(lower)) {
            return false;
        }
        if (!qualified) {
            for (String rival : rivals) {
                Columns r = catalog.get(rival.toLowerCase(Locale.ROOT));
                if (r == null || r.has(lower)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean containsTable(List<DataNode> nodes, FederatedPlan.Copy copy, String localTable) {
        for (DataNode n : nodes) {
            if (n.table().equals(localTable) && !copy.remote().contains(n)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code c} as the live columns let the table take it: whole when MySQL attributes its every name to
     * the table, else its OR factoring ({@link CopyScope.Conjunct#any}) with each part kept where it is
     * attributed, or null when some branch keeps none (a row of any kind may then pass that branch).
     */
    static CopyScope.Conjunct resolve(CopyScope.Conjunct c, Columns own, List<String> rivals, Map<String, Columns> catalog) {
        if (c.node() != null) {
            return nodeResolved(c, own, rivals, catalog);
        }
        if (!c.derived() && attributed(c, own, rivals, catalog)) {
            return c;
        }
        if (c.any().isEmpty()) {
            return null;
        }
        List<List<CopyScope.Conjunct>> branches = new ArrayList<>(c.any().size());
        for (List<CopyScope.Conjunct> branch : c.any()) {
            List<CopyScope.Conjunct> kept = new ArrayList<>(branch.size());
            for (CopyScope.Conjunct part : branch) {
                CopyScope.Conjunct r = resolve(part, own, rivals, catalog);
                if (r != null) {
                    kept.add(r);
                }
            }
            if (kept.isEmpty()) {
                return null;
            }
            branches.add(kept);
        }
        return CopyScope.Conjunct.anyOf(branches);
    }

    private static void nodeTables(CopyScope.Conjunct c, Set<String> out) {
        if (c.node() != null) {
            out.addAll(c.node().columns().keySet());
        }
        for (List<CopyScope.Conjunct> branch : c.any()) {
            for (CopyScope.Conjunct part : branch) {
                nodeTables(part, out);
            }
        }
    }

    /** The quoted stand-in for {@code table}'s node in a rendered {@link CopyScope.NodeKeys}, replaced per node ({@link #atNode}). */
    public static String placeholder(String table) {
        return "\u0001shardwise_node:" + table + "\u0001";
    }

    /**
     * {@code where} as node {@code node} of {@code b}'s table runs it: each {@link CopyScope.NodeKeys}'s
     * tables read at that node's index (bound tables hold a key's rows at the same index).
     */
    public static String atNode(Bound b, String where, DataNode node) {
        if (where == null || where.indexOf('\u0001') < 0) {
            return where;
        }
        int index = JoinKeys.nodeIndex(b.copy().push().sharded(), node);
        if (index < 0) {
            throw new IllegalStateException("node " + node + " is not one of " + b.copy().table() + "'s");
        }
        Map<String, List<String>> nodes = new HashMap<>();
        for (CopyScope.Conjunct c : b.pushed()) {
            nodeMaps(c, nodes);
        }
        String out = where;
        for (Map.Entry<String, List<String>> e : nodes.entrySet()) {
            out = out.replace(CopyTexts.quote(placeholder(e.getKey())), CopyTexts.quote(e.getValue().get(index)));
        }
        return out;
    }

    private static void nodeMaps(CopyScope.Conjunct c, Map<String, List<String>> out) {
        if (c.node() != null) {
            out.putAll(c.node().nodes());
        }
        for (List<CopyScope.Conjunct> branch : c.any()) {
            for (CopyScope.Conjunct part : branch) {
                nodeMaps(part, out);
            }
        }
    }

    /** A node's key set applies when its unqualified names are the table's alone and its subqueries' names their tables' columns. */
    private static CopyScope.Conjunct nodeResolved(CopyScope.Conjunct c, Columns own, List<String> rivals, Map<String, Columns> catalog) {
        if (!attributed(c, own, rivals, catalog)) {
            return null;
        }
        for (Map.Entry<String, Set<String>> e : c.node().columns().entrySet()) {
            Columns table = catalog.get(e.getKey().toLowerCase(Locale.ROOT));
            if (table == null) {
                return null;
            }
            for (String name : e.getValue()) {
                if (!table.has(name)) {
                    return null;
                }
            }
        }
        return c;
    }

    /** Every unqualified name of {@code c} is a column of the table and of no rival (as MySQL resolves it). */
    private static boolean attributed(CopyScope.Conjunct c, Columns own, List<String> rivals, Map<String, Columns> catalog) {
        if (c.unqualified().isEmpty()) {
            return true;
        }
        if (own == null) {
            return false;
        }
        for (String name : c.unqualified()) {
            if (!own.has(name)) {
                return false;
            }
            for (String rival : rivals) {
                Columns r = catalog.get(rival.toLowerCase(Locale.ROOT));
                if (r == null || r.has(name)) {
                    return false;
                }
            }
        }
        return true;
    }
}
