package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.route.Bindings;
import io.shardwise.core.route.NodeSelector;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.CopyScope;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.KeyCondition;
import io.shardwise.core.sql.analyze.Slot;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.TableScopes;
import io.shardwise.core.sql.analyze.Update;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The third tier of an UPDATE or DELETE whose subqueries read tables the target's nodes do not hold
 * whole: the write runs as the user wrote it on each backend holding a target node it routes to (a
 * site), with the subqueries' sharded tables replaced by temporary copies made there exactly as
 * {@link FederatedPlan}'s copies are made on a coordinator, and the target table by its node. So
 * each node's rows are changed by MySQL itself, with every subquery evaluated over whole tables:
 * correlated or not, scalar or {@code IN}/{@code EXISTS}, with MySQL's errors (1242 for a scalar
 * subquery of several rows) and its comparison rules.
 *
 * <p>Invariant: {@code sites} has one entry per backend holding a node of the target, each with the
 * copies and names a subquery reads there ({@code names}: logical table, lower case → what the site
 * reads; the target's name is added per node when the write is rendered). Immutable; made once per
 * cached plan, it holds no values: the target nodes are chosen per execution ({@link #targets}),
 * pruned by the write's own key conditions as the router prunes them.
 *
 * <p>{@code readsShards}: a subquery reads a sharded table. Such a write runs here even when the router
 * would send it to one node: there the subquery would read that node's rows only, not the table's
 * (a wrong answer whenever the subquery is not confined to that node, which the analyzer cannot tell).
 *
 * <p>A copy is made as the federated SELECT makes one ({@link Federation#copy}, {@link Federation#push}):
 * like its node on the site, or from another node's definition when the site has none (a single table
 * of another backend, a sharded table with no node there); its scans keep only the columns the
 * statement names and the rows a subquery's own single-table conjuncts keep, from the nodes those
 * conjuncts' sharding keys leave ({@link CopyScope}, bound per execution by {@code CopyScans}).
 *
 * <p>Hazard: a site copies what its subqueries may read once per statement, whichever nodes it writes.
 */
public record FederatedWrite(TableRef target, TableRule targetRule, KeyCondition condition, boolean limited,
                             Map<String, Site> sites, List<Renderer.Edit> selfReads, boolean readsShards) implements Federation.Decision {
    public FederatedWrite {
        Objects.requireNonNull(target, "target");
        sites = Map.copyOf(sites);
        selfReads = List.copyOf(selfReads);
    }

    /**
     * What one backend reads for the subqueries: {@code copies} made there, {@code names} as in
     * {@link FederatedPlan#names} (only the tables renamed), {@code logical} every physical or temporary
     * name back to its logical table (error messages show logical names).
     */
    public record Site(String backend, List<FederatedPlan.Copy> copies, Map<String, String> names, Map<String, String> logical) {
        public Site {
            copies = List.copyOf(copies);
            names = Map.copyOf(names);
            logical = Map.copyOf(logical);
        }

        /** The site's copies as a federated plan coordinated there ({@code FederatedRunner} makes them). */
        public FederatedPlan plan() {
            return new FederatedPlan(backend, copies, names, logical, List.of());
        }
    }

    /** Whether the statement's copies of one node are written: broadcast copies all report the same change. */
    public boolean broadcast() {
        return targetRule instanceof TableRule.Broadcast;
    }

    /**
     * The target's nodes this execution writes, in node order: those the outer WHERE's key conditions
     * can match (one node still answers when none can, as the router does), every copy of a broadcast
     * table, the one node of a single table.
     */
    public List<DataNode> targets(Bindings bindings) {
        return switch (targetRule) {
            case TableRule.Sharded s -> {
                BitSet nodes = NodeSelector.nodes(condition, s.algorithm(), s.nodes().size(), bindings);
                if (nodes.isEmpty()) {
                    nodes.set(0);
                }
                List<DataNode> out = new ArrayList<>(nodes.cardinality());
                for (int i = nodes.nextSetBit(0); i >= 0; i = nodes.nextSetBit(i + 1)) {
                    out.add(s.nodes().get(i));
                }
                yield out;
            }
            case TableRule.Broadcast b -> b.nodes();
            case TableRule.Single s -> List.of(s.node());
        };
    }


    /**
     * The plan of a write the router refused, or why the tier declines it too: not a write with
     * subqueries, a write that moves rows (of its sharding column), a subquery reading the target
     * itself under a name its outer references share ({@link #selfReads}), a table of another schema,
     * a table name too long for its copy's.
     */
    public static Federation.Decision plan(Statement statement, ShardingRule rule) {
        return plan(statement, rule, false);
    }

    /**
     * The plan of a key move's in-place UPDATE (its WHERE the chosen rows' keys) whose SET values hold subqueries: it
     * may assign the sharding column, as the rows it changes are moved afterwards by what they then hold ({@code
     * KeyMoves}), so each row's new value is the one MySQL computes for it, its subqueries over whole tables.
     */
    public static Federation.Decision planInPlace(Statement statement, ShardingRule rule) {
        return plan(statement, rule, true);
    }

    private static Federation.Decision plan(Statement statement, ShardingRule rule, boolean moves) {
        List<TableRef> tables;
        Map<TableRef, KeyCondition> conditions;
        List<String> assigned;
        boolean nested;
        boolean limited;
        switch (statement) {
            case Update u -> {
                tables = u.tables();
                conditions = u.conditions();
                assigned = u.assigned();
                nested = u.nested();
                limited = u.limited();
            }
            case Delete d -> {
                tables = d.tables();
                conditions = d.conditions();
                assigned = List.of();
                nested = d.nested();
                limited = d.limited();
            }
            default -> {
                return new Federation.Declined("not an UPDATE or DELETE");
            }
        }
        if (!nested || tables.isEmpty()) {
            return new Federation.Declined("no subquery");
        }
        TableRef target = tables.get(0);
        for (TableRef t : tables) {
            if (t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema())) {
                return new Federation.Declined("table " + t.schema() + "." + t.name() + " outside schema " + rule.schema());
            }
        }
        TableRule targetRule = rule.logicalTables().served(target.name());
        if (targetRule instanceof TableRule.Sharded s && !moves) {
            for (String column : assigned) {
                if (column.equalsIgnoreCase(s.keyColumn())) {
                    return new Federation.Declined("an UPDATE of the sharding column");
                }
            }
        }
        String targetKey = target.name().toLowerCase(Locale.ROOT);
        CopyScope scope = CopyScope.of(statement.template(), rule);
        Map<String, Site> sites = new LinkedHashMap<>();
        for (DataNode node : targetRule.nodes()) {
            if (sites.containsKey(node.backend())) {
                continue;
            }
            String backend = node.backend();
            List<FederatedPlan.Copy> copies = new ArrayList<>();
            Map<String, String> names = new HashMap<>();
            Map<String, String> logical = new HashMap<>();
            for (DataNode n : targetRule.nodes()) {
                if (n.backend().equals(backend)) {
                    logical.put(n.table(), targetRule.name());
                }
            }
            boolean selfCopied = false;
            for (TableRef t : tables.subList(1, tables.size())) {
                String key = t.name().toLowerCase(Locale.ROOT);
                if (key.equals(targetKey)) {
                    if (!selfCopied) {
                        // the subqueries read the target as it was before the write (MariaDB's order; MySQL refuses, see the runner)
                        copies.add(Federation.copy(targetRule, targetRule.name(), selfName(targetRule), backend, node,
                                Federation.push(scope, targetRule, targetKey, rule, backend, node)));
                        logical.put(selfName(targetRule), targetRule.name());
                        selfCopied = true;
                    }
                    continue;
                }
                if (names.containsKey(key)) {
                    continue;
                }
                TableRule r = rule.logicalTables().served(t.name());
                DataNode here = Federation.nodeOn(r, backend);
                String read;
                if (here != null && !(r instanceof TableRule.Sharded)) {
                    read = here.table(); // whole on the site: read in place
                } else {
                    // a sharded table, or a single or broadcast one of other backends: copied as the federated SELECT copies it,
                    // made like its node here or from another node's definition, its scans narrowed by the statement
                    read = Federation.tempName(r);
                    if (read.length() > Federation.MAX_NAME) {
                        return new Federation.Declined("table name '" + t.name() + "' too long for a temporary copy");
                    }
                    copies.add(Federation.copy(r, r.name(), read, backend, here, Federation.push(scope, r, key, rule, backend, here)));
                }
                if (logical.containsKey(read)) {
                    return new Federation.Declined("table '" + t.name() + "' would be read under the name of a target node");
                }
                names.put(key, read);
                logical.put(read, r.name());
            }
            sites.put(backend, new Site(backend, copies, names, logical));
        }
        List<Renderer.Edit> selfReads = selfReads(statement, target, tables, selfName(targetRule));
        if (selfReads == null) {
            return new Federation.Declined("a statement whose qualifiers cannot be scoped");
        }
        boolean readsShards = false;
        for (TableRef t : tables.subList(1, tables.size())) {
            readsShards |= rule.logicalTables().served(t.name()) instanceof TableRule.Sharded;
        }
        return new FederatedWrite(target, targetRule, conditions.getOrDefault(target, KeyCondition.ANY), limited, sites, selfReads,
                readsShards);
    }

    /** A sharded table's copy name ({@link Federation#tempName}); a single or broadcast target's copy is always prefixed. */
    private static String selfName(TableRule table) {
        return table instanceof TableRule.Sharded s ? Federation.tempName(s) : Federation.TEMP_PREFIX + table.name().toLowerCase(Locale.ROOT);
    }

    /**
     * The edits that point the subqueries' references to the target table at its copy, while the
     * outer ones keep naming the node being written: empty when no subquery names the target; null
     * when the text cannot be read again to scope its qualifiers.
     *
     * <p>The other references' name slots are found by where each reference stands in the text ({@link
     * TableRef#at}), so the target may be anywhere in a multi-table write's FROM, after references to itself
     * with or without aliases; the target's own slots (and a DELETE's list naming it) keep the node. A
     * qualifier slot is one followed by a dot. With an aliased target, every {@code target.column} qualifier
     * belongs to a subquery's unaliased reference; with an unaliased target and aliased subquery
     * references, every one belongs to the target; with both unaliased, each belongs to the innermost
     * SELECT whose FROM exposes the name, or to the target outside every such SELECT ({@link TableScopes}).
     */
    private static List<Renderer.Edit> selfReads(Statement statement, TableRef target, List<TableRef> tables, String copy) {
        Set<Integer> inner = new HashSet<>();
        boolean innerUnaliased = false;
        for (TableRef t : tables.subList(1, tables.size())) {
            if (t.name().equalsIgnoreCase(target.name())) {
                if (t.at() < 0) {
                    return null; // a reference the analyzer did not place cannot be told from the target's
                }
                inner.add(t.at());
                innerUnaliased |= t.alias() == null;
            }
        }
        if (inner.isEmpty()) {
            return List.of();
        }
        String text = statement.template().text();
        List<Slot.Table> names = new ArrayList<>();
        List<Slot.Table> qualifiers = new ArrayList<>();
        for (Slot slot : statement.template().slots()) {
            if (slot instanceof Slot.Table t && t.table().equalsIgnoreCase(target.name())) {
                int at = t.end();
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                    at++;
                }
                (at < text.length() && text.charAt(at) == '.' ? qualifiers : names).add(t);
            }
        }
        List<int[]> scopes = List.of();
        if (target.alias() == null && innerUnaliased && !qualifiers.isEmpty()) {
            scopes = TableScopes.exposing(statement.template(), target.name());
            if (scopes == null) {
                return null;
            }
        }
        List<Renderer.Edit> edits = new ArrayList<>();
        String quoted = CopyTexts.quote(copy);
        for (Slot.Table t : names) {
            if (inner.contains(t.start())) {
                edits.add(new Renderer.Edit(t.start(), t.end(), quoted));
            }
        }
        for (Slot.Table t : qualifiers) {
            // both unaliased: the qualifier is the innermost SELECT's exposing the name, else the target's
            if (target.alias() != null || TableScopes.within(scopes, t.start())) {
                edits.add(new Renderer.Edit(t.start(), t.end(), quoted));
            }
        }
        edits.sort(java.util.Comparator.comparingInt(Renderer.Edit::start));
        return edits;
    }

    /** A stable one-line-per-step description (golden tests): per site, its copies as the federated SELECT's explain shows them. */
    public String explain() {
        StringBuilder sb = new StringBuilder("FEDERATED WRITE of ").append(targetRule.name());
        for (Site site : sites.values().stream().sorted(java.util.Comparator.comparing(Site::backend)).toList()) {
            sb.append("\n  on ").append(site.backend());
            String copies = site.plan().explain();
            int first = copies.indexOf('\n');
            if (first >= 0) {
                sb.append(copies.substring(first).replace("\n", "\n  "));
            }
        }
        return sb.toString();
    }
}
