package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.route.Bindings;
import io.shardwise.core.route.NodeSelector;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.KeyCondition;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.Update;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

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
 * <p>Hazard: a site copies every subquery table whole, once per statement, whichever nodes it writes.
 */
public record FederatedWrite(TableRef target, TableRule targetRule, KeyCondition condition, boolean limited,
                             Map<String, Site> sites) implements Federation.Decision {
    public FederatedWrite {
        Objects.requireNonNull(target, "target");
        sites = Map.copyOf(sites);
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

    /** The statement's read of the target table itself in a subquery (not the same rows on one node: see {@link #plan}). */
    static final String SELF_READ = "a subquery reading the write's own target table";

    /**
     * The plan of a write the router refused, or why the tier declines it too: not a write with
     * subqueries, a write that moves rows (of its sharding column), a subquery reading the target
     * itself, a table of another schema, a single table on another backend than a site, or a sharded
     * table with no node on a site to copy its definition from.
     */
    public static Federation.Decision plan(Statement statement, ShardingRule rule) {
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
        if (targetRule instanceof TableRule.Sharded s) {
            for (String column : assigned) {
                if (column.equalsIgnoreCase(s.keyColumn())) {
                    return new Federation.Declined("an UPDATE of the sharding column");
                }
            }
        }
        String targetKey = target.name().toLowerCase(Locale.ROOT);
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
            for (TableRef t : tables.subList(1, tables.size())) {
                String key = t.name().toLowerCase(Locale.ROOT);
                if (key.equals(targetKey)) {
                    return new Federation.Declined(SELF_READ);
                }
                if (names.containsKey(key)) {
                    continue;
                }
                TableRule r = rule.logicalTables().served(t.name());
                DataNode here = Federation.nodeOn(r, backend);
                if (here == null) {
                    return new Federation.Declined("table '" + t.name() + "' has no node on backend " + backend);
                }
                String read = switch (r) {
                    case TableRule.Broadcast b -> here.table();
                    case TableRule.Single s -> here.table();
                    case TableRule.Sharded s -> {
                        String temp = Federation.tempName(s);
                        List<String> local = new ArrayList<>();
                        List<DataNode> remote = new ArrayList<>();
                        for (DataNode n : s.nodes()) {
                            if (n.backend().equals(backend)) {
                                local.add(n.table());
                            } else {
                                remote.add(n);
                            }
                        }
                        copies.add(new FederatedPlan.Copy(t.name(), temp, here.table(), local, remote));
                        yield temp;
                    }
                };
                if (logical.containsKey(read)) {
                    return new Federation.Declined("table '" + t.name() + "' would be read under the name of a target node");
                }
                names.put(key, read);
                logical.put(read, r.name());
            }
            sites.put(backend, new Site(backend, copies, names, logical));
        }
        return new FederatedWrite(target, targetRule, conditions.getOrDefault(target, KeyCondition.ANY), limited, sites);
    }

    /** A stable one-line-per-step description (golden tests). */
    public String explain() {
        StringBuilder sb = new StringBuilder("FEDERATED WRITE of ").append(targetRule.name());
        for (Site site : sites.values().stream().sorted(java.util.Comparator.comparing(Site::backend)).toList()) {
            sb.append("\n  on ").append(site.backend());
            for (FederatedPlan.Copy c : site.copies()) {
                sb.append("\n    copy ").append(c.table()).append(" -> ").append(c.temp()).append(" (like ").append(c.like()).append(')');
                for (String l : c.local()) {
                    sb.append("\n      local ").append(l);
                }
                for (DataNode r : c.remote()) {
                    sb.append("\n      ship ").append(r.backend()).append('.').append(r.table());
                }
            }
        }
        return sb.toString();
    }
}
