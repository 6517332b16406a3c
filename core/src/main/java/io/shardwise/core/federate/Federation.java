package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.CopyScope;
import io.shardwise.core.sql.analyze.ItemLabels;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SelectShape;
import io.shardwise.core.sql.analyze.Slot;
import io.shardwise.core.sql.analyze.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Plans the third tier ({@link FederatedPlan}) for a SELECT the fast path and the streaming merger
 * refuse. Stateless and thread-safe; runs once per cached plan, never per execution.
 *
 * <p>Why a coordinator backend rather than operators in this process: the residual statement then
 * runs on MySQL itself, so every comparison follows the column's collation, every result keeps
 * MySQL's type and scale, every MySQL function exists, predicates are never re-printed (the user's
 * text runs), and subqueries, derived tables, set operations, CTEs, window functions and joins of
 * any tables are answered by one engine that is exact by definition — the traps a Calcite federation
 * falls into (DESIGN.md) cannot occur. The cost is shipping the rows of the tables the coordinator
 * lacks, narrowed to the columns and rows the statement can use ({@link CopyScans}).
 */
public final class Federation {
    /** Temporary tables are named with this prefix: a copy left behind by a failed statement shadows no table. */
    static final String TEMP_PREFIX = "shardwise_fed_";
    static final int MAX_NAME = 64;
    /** A table name in a locking clause's OF list: quoted or bare. */
    private static final String NAME = "(?:`[^`]+`|[\\w$]+)";
    /** A locking read's clause, with the tables it names (MySQL 8's OF) and its option; the copies' source reads repeat it ({@link #lockClause}). */
    private static final Pattern LOCKING = Pattern.compile("\\b(?<kind>for\\s+update|for\\s+share|lock\\s+in\\s+share\\s+mode)\\b"
            + "(?<of>\\s+of\\s+(?<list>" + NAME + "(?:\\s*,\\s*" + NAME + ")*))?(?:\\s+(?<option>nowait|skip\\s+locked))?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern LIST_NAME = Pattern.compile(NAME);

    private Federation() {}

    /**
     * What the third tier would do with a SELECT, decided once per cached plan: a plan with a coordinator
     * backend ({@link #coordinator}), or why it declines (nothing to copy). Only a statement the first two tiers refuse ever runs it.
     */
    public sealed interface Decision permits FederatedPlan, FederatedWrite, Declined {}

    /** The statement stays refused with the second tier's 1235; {@code reason} says why the third declined too. */
    public record Declined(String reason) implements Decision {}

    public static Decision plan(Select select, ShardingRule rule) {
        String coordinator = coordinator(select, rule);
        Map<String, FederatedPlan.Copy> copies = new LinkedHashMap<>();
        Map<String, String> names = new HashMap<>();
        Map<String, String> logical = new HashMap<>();
        Map<String, Boolean> verbatim = new HashMap<>();
        CopyScope scope = CopyScope.of(select, rule);
        for (TableRef t : select.tables()) {
            if (foreign(t, rule)) {
                continue; // read in place on the default backend, the coordinator then (see coordinator)
            }
            String key = t.name().toLowerCase(Locale.ROOT);
            String read = names.get(key);
            if (read == null) {
                TableRule r = rule.logicalTables().served(t.name());
                DataNode here = nodeOn(r, coordinator);
                if (here != null && !(r instanceof TableRule.Sharded)) {
                    read = here.table(); // whole on the coordinator: read in place
                } else {
                    read = tempName(r);
                    copies.put(key, copy(r, t.name(), read, coordinator, here, push(scope, r, key, rule, coordinator, here)));
                }
                names.put(key, read);
                logical.put(read, r.name());
            }
            // the text stays the user's where it already names what the coordinator reads: labels of
            // expressions that name a table (a subquery item) are then MySQL's own
            verbatim.merge(key, t.schema() == null && t.name().equals(read), Boolean::logicalAnd);
        }
        verbatim.forEach((key, same) -> {
            if (same) {
                names.remove(key);
            }
        });
        if (copies.isEmpty()) {
            return new Declined("no table to copy");
        }
        return new FederatedPlan(coordinator, List.copyOf(copies.values()), names, logical, labels(select, names));
    }

    /**
     * What each read of a copy's source repeats so that a locking read locks the rows it reads on their
     * own nodes: {@code " FOR UPDATE"} when the statement has a FOR UPDATE anywhere, else
     * {@code " LOCK IN SHARE MODE"} for FOR SHARE / LOCK IN SHARE MODE (the spelling MySQL and MariaDB
     * both read), each with its NOWAIT or SKIP LOCKED; "" for a statement that locks nothing. Every
     * copied table's rows are locked, whichever part of the statement names the clause: a superset of
     * what MySQL locks.
     */
    public static String lockClause(String text) {
        return lockClause(text, null);
    }

    /**
     * {@link #lockClause(String)} for the reads of one table, which the statement calls by
     * {@code names} (lower case: its name and aliases; null for every table): a clause naming tables
     * (MySQL 8's {@code FOR UPDATE OF t, u}) applies only to the tables it names, as in MySQL, so the
     * source rows of the others are read without locks.
     */
    public static String lockClause(String text, java.util.Collection<String> names) {
        java.util.regex.Matcher m = LOCKING.matcher(text);
        String clause = "";
        while (m.find()) {
            if (names != null && m.group("list") != null && !namesAny(m.group("list"), names)) {
                continue;
            }
            String kind = m.group("kind").toLowerCase(Locale.ROOT).startsWith("for update") ? " FOR UPDATE" : " LOCK IN SHARE MODE";
            String option = m.group("option") == null ? ""
                    : m.group("option").toLowerCase(Locale.ROOT).startsWith("nowait") ? " NOWAIT" : " SKIP LOCKED";
            if (clause.isEmpty() || kind.equals(" FOR UPDATE")) {
                clause = kind + option;
            }
        }
        return clause;
    }

    /** The statement has a locking clause naming its tables ({@code FOR UPDATE OF t}). */
    public static boolean namesLockedTables(String text) {
        java.util.regex.Matcher m = LOCKING.matcher(text);
        while (m.find()) {
            if (m.group("list") != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * The names in the statement's OF lists, as [start, end) spans of {@code text} with the name (lower
     * case, unquoted) at each: the federated statement renames those that name a renamed copy.
     */
    public static List<LockedName> lockedNames(String text) {
        List<LockedName> out = new ArrayList<>();
        java.util.regex.Matcher m = LOCKING.matcher(text);
        while (m.find()) {
            if (m.group("list") == null) {
                continue;
            }
            java.util.regex.Matcher n = LIST_NAME.matcher(text).region(m.start("list"), m.end("list"));
            while (n.find()) {
                out.add(new LockedName(n.start(), n.end(), unquote(n.group())));
            }
        }
        return out;
    }

    /** A table name in a locking clause's OF list, at [start, end) of the statement's text. */
    public record LockedName(int start, int end, String name) {}

    /** The names (lower case) by which {@code select} calls logical table {@code table}: its own and its aliases. */
    public static java.util.Set<String> calledBy(Select select, String table) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (TableRef t : select.tables()) {
            if (t.name().equalsIgnoreCase(table)) {
                out.add(t.name().toLowerCase(Locale.ROOT));
                out.add(t.exposedName().toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static boolean namesAny(String list, java.util.Collection<String> names) {
        java.util.regex.Matcher n = LIST_NAME.matcher(list);
        while (n.find()) {
            if (names.contains(unquote(n.group()))) {
                return true;
            }
        }
        return false;
    }

    private static String unquote(String name) {
        return (name.startsWith("`") ? name.substring(1, name.length() - 1) : name).toLowerCase(Locale.ROOT);
    }

    /**
     * The copy of table {@code r} on the coordinator: made LIKE its node there ({@code here}), else from
     * the definition of its first node; filled from its nodes there and shipped from the others. A
     * single or broadcast table elsewhere is whole on any one node, so one node is shipped.
     */
    static FederatedPlan.Copy copy(TableRule r, String name, String temp, String coordinator, DataNode here,
                                           FederatedPlan.Push push) {
        List<String> local = new ArrayList<>();
        List<DataNode> remote = new ArrayList<>();
        switch (r) {
            case TableRule.Sharded s -> {
                for (DataNode n : s.nodes()) {
                    if (n.backend().equals(coordinator)) {
                        local.add(n.table());
                    } else {
                        remote.add(n);
                    }
                }
            }
            case TableRule.Broadcast b -> remote.add(b.nodes().getFirst());
            case TableRule.Single s -> remote.add(s.node());
        }
        return here != null ? new FederatedPlan.Copy(name, temp, here.table(), local, remote, null, push)
                : new FederatedPlan.Copy(name, temp, null, local, remote, r.nodes().getFirst(), push);
    }

    /**
     * A table of another schema. One engine serves one logical schema; the first two tiers read a table
     * another schema names on the default backend, as written (so a schema no backend has gets the
     * backend's own 1146, as from one MySQL), and the third does the same: the default backend is then
     * its coordinator and the name is never rewritten.
     */
    private static boolean foreign(TableRef t, ShardingRule rule) {
        return t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema());
    }

    /**
     * Unaliased select items of the outermost query that are expressions (not a bare column, whose
     * label is its name) and contain a table {@code names} renames: MySQL labels them with their text.
     */
    public static List<SelectShape.Span> labels(Select select, Map<String, String> names) {
        if (names.isEmpty()) {
            return List.of();
        }
        if (select.shape() == null) {
            return branchLabels(select, names); // a set operation's (a WITH's) labels come from its first branch
        }
        List<SelectShape.Span> out = new ArrayList<>();
        for (SelectShape.Item item : select.shape().items()) {
            if (ItemLabels.changedByRenaming(select.template(), item, names)) {
                out.add(new SelectShape.Span(item.start(), item.end()));
            }
        }
        return out;
    }

    /** {@link #labels} of a statement with no shape: its first branch's items ({@link Select#branchItems}). */
    private static List<SelectShape.Span> branchLabels(Select select, Map<String, String> names) {
        List<SelectShape.Span> out = new ArrayList<>();
        for (SelectShape.Span item : select.branchItems()) {
            for (Slot slot : select.template().slots()) {
                if (slot instanceof Slot.Table t && t.start() >= item.start() && t.end() <= item.end()
                        && names.containsKey(t.table().toLowerCase(Locale.ROOT))) {
                    out.add(item);
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The backend that holds most of what the statement reads, so the fewest rows are shipped: each
     * table it names counts the share of its nodes on each backend (a single table 1 on its backend,
     * a broadcast table 1 on each backend it lives on, a table sharded over four nodes 1/4 per node).
     * Ties go to the backend of a single table (the first two tiers' choice), then the default backend,
     * then the configuration's order. A table of another schema makes it the default backend ({@link #foreign}).
     */
    static String coordinator(Select select, ShardingRule rule) {
        Map<String, Double> held = new LinkedHashMap<>();
        for (String backend : rule.config().backends().keySet()) {
            held.put(backend, 0.0);
        }
        String single = null;
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (TableRef t : select.tables()) {
            if (foreign(t, rule)) {
                return rule.config().defaultBackend();
            }
            if (!seen.add(t.name().toLowerCase(Locale.ROOT))) {
                continue;
            }
            TableRule r = rule.logicalTables().served(t.name());
            double share = r instanceof TableRule.Broadcast ? 1.0 : 1.0 / r.nodes().size();
            java.util.Set<String> counted = new java.util.HashSet<>();
            for (DataNode n : r.nodes()) {
                if (!(r instanceof TableRule.Broadcast) || counted.add(n.backend())) {
                    held.merge(n.backend(), share, Double::sum);
                }
            }
            if (single == null && r instanceof TableRule.Single s) {
                single = s.node().backend();
            }
        }
        String best = rule.config().defaultBackend();
        if (single != null && held.get(single) >= held.get(best)) {
            best = single;
        }
        for (Map.Entry<String, Double> e : held.entrySet()) {
            if (e.getValue() > held.get(best)) {
                best = e.getKey();
            }
        }
        return best;
    }

    /**
     * The copy's name: the logical name itself where no node of the table has that name (then the
     * statement's text needs no change at all), else prefixed. A temporary table shadows a base table of
     * its name on its connection only, and only Shardwise's federated statements name logical tables on
     * a backend connection, so a copy a failed statement leaves behind misleads no other tier; the next
     * federated statement drops it first.
     */
    static String tempName(TableRule r) {
        for (DataNode n : r.nodes()) {
            if (n.table().equalsIgnoreCase(r.name())) {
                return fit(TEMP_PREFIX + r.name().toLowerCase(Locale.ROOT));
            }
        }
        return r.name();
    }

    /**
     * {@code name} within MySQL's 64 characters: a longer one keeps its head and gains a hash of the whole,
     * so a table whose own name is long (up to MySQL's 64) still gets a copy rather than a refusal.
     */
    static String fit(String name) {
        if (name.length() <= MAX_NAME) {
            return name;
        }
        String hash = String.format("%08x", name.hashCode());
        return name.substring(0, MAX_NAME - hash.length() - 1) + '_' + hash;
    }

    /**
     * What {@code key}'s copy may leave out. A rival table without a node on the coordinator (copied
     * from a definition elsewhere, or a CTE's name) has columns no catalog there lists: then no
     * unqualified conjunct. A sharded table with no node on the coordinator has none of its own
     * listed either: it keeps every column and takes only qualified conjuncts (rows and nodes are
     * still pruned). A single or broadcast table copied from elsewhere is read whole, from one node.
     */
    static FederatedPlan.Push push(CopyScope scope, TableRule r, String key, ShardingRule rule, String coordinator, DataNode here) {
        if (!(r instanceof TableRule.Sharded s)) {
            return FederatedPlan.Push.NONE;
        }
        CopyScope.Table table = scope.tables().get(key);
        List<CopyScope.Conjunct> conjuncts = table == null ? List.of() : table.conjuncts();
        List<String> rivals = new ArrayList<>();
        if (here == null) {
            conjuncts = qualifiedOnly(conjuncts);
        } else if (table != null) {
            for (String rival : table.rivals()) {
                DataNode node;
                try {
                    TableRule other = rule.logicalTables().served(rival);
                    node = other == null ? null : nodeOn(other, coordinator);
                } catch (RuntimeException e) {
                    node = null; // a CTE's name, say: no catalog lists its columns
                }
                if (node == null) {
                    conjuncts = qualifiedOnly(conjuncts);
                } else {
                    rivals.add(node.table());
                }
            }
        }
        conjuncts = placed(conjuncts, s, rule, coordinator, here != null);
        List<FederatedPlan.Key> keys = new ArrayList<>();
        if (here != null && table != null) {
            for (CopyScope.Key k : table.keys()) {
                List<String> physical = physical(k.rivals(), rule, coordinator);
                List<String> sourcePhysical = physical(k.sourceRivals(), rule, coordinator);
                TableRule source = rule.logicalTables().served(k.source());
                DataNode like = source == null ? null : nodeOn(source, coordinator);
                // every table an unqualified name is checked against must be listed by the coordinator's catalog
                if (like != null && (k.qualified() || physical != null) && (k.sourceQualified() || sourcePhysical != null)) {
                    keys.add(new FederatedPlan.Key(k.column(), k.qualified(), physical == null ? List.of() : physical, k.source(), like.table(),
                            k.sourceColumn(), k.sourceQualified(), sourcePhysical == null ? List.of() : sourcePhysical));
                }
            }
        }
        return new FederatedPlan.Push(table == null ? s.name() : table.exposed(), here == null || scope.whole(key), scope.names(), conjuncts,
                rivals, s, keys);
    }

    /**
     * {@code conjuncts} with each {@link CopyScope.NodeKeys} given its tables' nodes, or left out where
     * a node cannot answer it for its own rows: a table it reads not sharded and bound with {@code s}
     * over as many nodes on the same backends (the binding is what puts a key's rows of every table of
     * the group on one node), or without a node on the coordinator (whose catalog must list its columns),
     * or the copy itself without one ({@code local} false). An OR loses a branch's part; a branch left
     * with none drops the OR.
     */
    static List<CopyScope.Conjunct> placed(List<CopyScope.Conjunct> conjuncts, TableRule.Sharded s, ShardingRule rule, String coordinator,
                                           boolean local) {
        List<CopyScope.Conjunct> out = new ArrayList<>(conjuncts.size());
        for (CopyScope.Conjunct c : conjuncts) {
            CopyScope.Conjunct p = placed(c, s, rule, coordinator, local);
            if (p != null) {
                out.add(p);
            }
        }
        return out;
    }

    private static CopyScope.Conjunct placed(CopyScope.Conjunct c, TableRule.Sharded s, ShardingRule rule, String coordinator, boolean local) {
        if (c.node() != null) {
            CopyScope.NodeKeys k = c.node();
            Map<String, List<String>> nodes = new HashMap<>();
            Map<String, java.util.Set<String>> columns = new HashMap<>();
            for (String table : k.tables()) {
                TableRule r;
                try {
                    r = rule.logicalTables().served(table);
                } catch (RuntimeException e) {
                    return null; // a CTE's name, say
                }
                if (!local || !(r instanceof TableRule.Sharded t) || !t.isBoundTo(s) || t.nodes().size() != s.nodes().size()) {
                    return null;
                }
                List<String> physical = new ArrayList<>(t.nodes().size());
                for (int i = 0; i < t.nodes().size(); i++) {
                    if (!t.nodes().get(i).backend().equals(s.nodes().get(i).backend())) {
                        return null;
                    }
                    physical.add(t.nodes().get(i).table());
                }
                DataNode there = nodeOn(t, coordinator);
                if (there == null) {
                    return null;
                }
                nodes.put(table, physical);
                columns.put(there.table(), k.columns().getOrDefault(table, java.util.Set.of()));
            }
            return new CopyScope.Conjunct(c.start(), c.end(), c.text(), c.unqualified(), c.key(), c.any(),
                    new CopyScope.NodeKeys(k.column(), k.pieces(), columns, nodes));
        }
        if (c.any().isEmpty() || !c.derived()) {
            return c;
        }
        List<List<CopyScope.Conjunct>> branches = new ArrayList<>(c.any().size());
        boolean changed = false;
        for (List<CopyScope.Conjunct> branch : c.any()) {
            List<CopyScope.Conjunct> kept = placed(branch, s, rule, coordinator, local);
            if (kept.isEmpty()) {
                return null;
            }
            changed |= !kept.equals(branch);
            branches.add(kept);
        }
        return changed ? CopyScope.Conjunct.anyOf(branches) : c;
    }

    /** The coordinator's tables for logical {@code names}, or null when one has none there (a CTE's name, a table elsewhere). */
    private static List<String> physical(List<String> names, ShardingRule rule, String coordinator) {
        List<String> out = new ArrayList<>(names.size());
        for (String name : names) {
            DataNode node;
            try {
                TableRule other = rule.logicalTables().served(name);
                node = other == null ? null : nodeOn(other, coordinator);
            } catch (RuntimeException e) {
                node = null;
            }
            if (node == null) {
                return null;
            }
            out.add(node.table());
        }
        return out;
    }

    private static List<CopyScope.Conjunct> qualifiedOnly(List<CopyScope.Conjunct> conjuncts) {
        List<CopyScope.Conjunct> out = new ArrayList<>();
        for (CopyScope.Conjunct c : conjuncts) {
            if (c.unqualified().isEmpty()) {
                out.add(c);
            }
        }
        return out;
    }

    static DataNode nodeOn(TableRule r, String backend) {
        for (DataNode n : r.nodes()) {
            if (n.backend().equals(backend)) {
                return n;
            }
        }
        return null;
    }

}
