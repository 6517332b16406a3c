package io.shardwise.core.federate;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.CopyScope;
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
 * lacks; pushing filters and projections into those scans is the next step.
 */
public final class Federation {
    /** Temporary tables are named with this prefix: a copy left behind by a failed statement shadows no table. */
    static final String TEMP_PREFIX = "shardwise_fed_";
    private static final int MAX_NAME = 64;
    private static final Pattern BARE_COLUMN = Pattern.compile("[`\\w$]+(\\s*\\.\\s*[`\\w$]+){0,2}");
    /** Locking reads must lock the rows they read on their own nodes; a copy locks nothing. */
    private static final Pattern LOCKING = Pattern.compile("\\b(for\\s+update|for\\s+share|lock\\s+in\\s+share\\s+mode)\\b",
            Pattern.CASE_INSENSITIVE);

    private Federation() {}

    /**
     * What the third tier would do with a SELECT, decided once per cached plan: a plan with a coordinator
     * backend ({@link #coordinator}), or why it declines (a locking read, a table of another schema, a table
     * with no node on the coordinator to copy its definition from). Only a statement the first two
     * tiers refuse ever runs it.
     */
    public sealed interface Decision permits FederatedPlan, Declined {}

    /** The statement stays refused with the second tier's 1235; {@code reason} says why the third declined too. */
    public record Declined(String reason) implements Decision {}

    public static Decision plan(Select select, ShardingRule rule) {
        String coordinator = coordinator(select, rule);
        if (LOCKING.matcher(select.template().text()).find()) {
            return new Declined("a locking read cannot run on copies");
        }
        Map<String, FederatedPlan.Copy> copies = new LinkedHashMap<>();
        Map<String, String> names = new HashMap<>();
        Map<String, String> logical = new HashMap<>();
        Map<String, Boolean> verbatim = new HashMap<>();
        CopyScope scope = CopyScope.of(select, rule);
        for (TableRef t : select.tables()) {
            if (t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema())) {
                return new Declined("table " + t.schema() + "." + t.name() + " outside schema " + rule.schema());
            }
            String key = t.name().toLowerCase(Locale.ROOT);
            String read = names.get(key);
            if (read == null) {
                TableRule r = rule.logicalTables().served(t.name());
                DataNode here = nodeOn(r, coordinator);
                if (here == null) {
                    return new Declined("table '" + t.name() + "' has no node on backend " + coordinator);
                }
                switch (r) {
                    case TableRule.Broadcast b -> read = here.table();
                    case TableRule.Single s -> read = here.table();
                    case TableRule.Sharded s -> {
                        read = tempName(s, coordinator);
                        if (read.length() > MAX_NAME) {
                            return new Declined("table name '" + t.name() + "' too long for a temporary copy");
                        }
                        List<String> local = new ArrayList<>();
                        List<DataNode> remote = new ArrayList<>();
                        for (DataNode n : s.nodes()) {
                            if (n.backend().equals(coordinator)) {
                                local.add(n.table());
                            } else {
                                remote.add(n);
                            }
                        }
                        copies.put(key, new FederatedPlan.Copy(t.name(), read, here.table(), local, remote, push(scope, s, key, rule, coordinator)));
                    }
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
            return new Declined("no sharded table to copy");
        }
        return new FederatedPlan(coordinator, List.copyOf(copies.values()), names, logical, labels(select, names));
    }

    /**
     * Unaliased select items of the outermost query that are expressions (not a bare column, whose
     * label is its name) and contain a table {@code names} renames: MySQL labels them with their text.
     */
    public static List<SelectShape.Span> labels(Select select, Map<String, String> names) {
        if (names.isEmpty() || select.shape() == null) {
            return List.of(); // a set operation's labels come from its first branch: not read yet
        }
        List<SelectShape.Span> out = new ArrayList<>();
        for (SelectShape.Item item : select.shape().items()) {
            if (item.alias() != null || item.isStar() || BARE_COLUMN.matcher(item.text()).matches()) {
                continue;
            }
            for (Slot slot : select.template().slots()) {
                if (slot instanceof Slot.Table t && t.start() >= item.start() && t.end() <= item.end()
                        && names.containsKey(t.table().toLowerCase(Locale.ROOT))) {
                    out.add(new SelectShape.Span(item.start(), item.end()));
                    break;
                }
            }
        }
        return out;
    }

    /**
     * The backend of the statement's single tables (a single table cannot be copied LIKE itself
     * elsewhere; the router already refuses single tables on several backends), else the default one.
     */
    private static String coordinator(Select select, ShardingRule rule) {
        for (TableRef t : select.tables()) {
            if ((t.schema() == null || t.schema().equalsIgnoreCase(rule.schema()))
                    && rule.logicalTables().served(t.name()) instanceof TableRule.Single s) {
                return s.node().backend();
            }
        }
        return rule.config().defaultBackend();
    }

    /**
     * The copy's name: the logical name itself where no node on the coordinator has that name (then the
     * statement's text needs no change at all), else prefixed. A temporary table shadows a base table of
     * its name on its connection only, and only Shardwise's federated statements name logical tables on
     * a backend connection, so a copy a failed statement leaves behind misleads no other tier; the next
     * federated statement drops it first.
     */
    private static String tempName(TableRule.Sharded s, String coordinator) {
        for (DataNode n : s.nodes()) {
            if (n.table().equalsIgnoreCase(s.name())) {
                return TEMP_PREFIX + s.name().toLowerCase(Locale.ROOT);
            }
        }
        return s.name();
    }

    /**
     * What {@code key}'s copy may leave out. A rival table without a node on the coordinator (none
     * reaches here: the plan declines it) would make its columns unknown: then no unqualified conjunct.
     */
    private static FederatedPlan.Push push(CopyScope scope, TableRule.Sharded s, String key, ShardingRule rule, String coordinator) {
        CopyScope.Table table = scope.tables().get(key);
        List<CopyScope.Conjunct> conjuncts = table == null ? List.of() : table.conjuncts();
        List<String> rivals = new ArrayList<>();
        if (table != null) {
            for (String rival : table.rivals()) {
                DataNode node;
                try {
                    TableRule r = rule.logicalTables().served(rival);
                    node = r == null ? null : nodeOn(r, coordinator);
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
        return new FederatedPlan.Push(table == null ? s.name() : table.exposed(), scope.whole(key), scope.names(), conjuncts, rivals, s);
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

    private static DataNode nodeOn(TableRule r, String backend) {
        for (DataNode n : r.nodes()) {
            if (n.backend().equals(backend)) {
                return n;
            }
        }
        return null;
    }

}
