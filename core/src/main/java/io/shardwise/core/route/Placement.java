package io.shardwise.core.route;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.TableRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The tables of one statement sorted by kind, with what rendering needs: the one backend of its
 * single tables (tables in other schemas, such as information_schema, count as single tables of
 * the default backend), and the physical name of every table on a given node.
 */
final class Placement {
    private final List<TableRef> sharded;
    private final List<TableRef> broadcast;
    private final List<TableRef> single;
    private final Map<TableRef, TableRule> rules;
    private final String singleBackend;
    private final Map<String, String> singleNames;
    private final Map<String, String> singleLogical;
    /** Per node index of the sharded tables (empty without them): physical names, and back. */
    private final List<Map<String, String>> namesAt;
    private final List<Map<String, String>> logicalAt;

    private Placement(List<TableRef> sharded, List<TableRef> broadcast, List<TableRef> single, Map<TableRef, TableRule> rules,
                      String singleBackend) {
        this.sharded = sharded;
        this.broadcast = broadcast;
        this.single = single;
        this.rules = rules;
        this.singleBackend = singleBackend;
        Map<String, String> names = new HashMap<>();
        for (TableRef t : single) {
            if (rules.get(t) instanceof TableRule.Single s) {
                names.put(t.name().toLowerCase(Locale.ROOT), s.node().table());
            }
        }
        this.singleNames = Map.copyOf(names);
        this.singleLogical = logical(singleNames);
        List<Map<String, String>> at = new ArrayList<>();
        List<Map<String, String>> back = new ArrayList<>();
        int nodes = sharded.isEmpty() ? 0 : rules.get(sharded.get(0)).nodes().size();
        for (TableRef t : sharded) {
            if (rules.get(t).nodes().size() != nodes) {
                nodes = 0; // tables laid out differently are never joined: the router refuses them
            }
        }
        for (int i = 0; i < nodes; i++) {
            Map<String, String> n = new HashMap<>(singleNames);
            for (TableRef t : sharded) {
                n.put(t.name().toLowerCase(Locale.ROOT), rules.get(t).nodes().get(i).table());
            }
            at.add(Map.copyOf(n));
            back.add(logical(at.get(i)));
        }
        this.namesAt = List.copyOf(at);
        this.logicalAt = List.copyOf(back);
    }

    static Placement of(List<TableRef> tables, ShardingRule rule) {
        List<TableRef> sharded = new ArrayList<>();
        List<TableRef> broadcast = new ArrayList<>();
        List<TableRef> single = new ArrayList<>();
        Map<TableRef, TableRule> rules = new HashMap<>();
        Set<String> backends = new LinkedHashSet<>();
        for (TableRef t : tables) {
            boolean foreign = t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema());
            TableRule r = foreign ? new TableRule.Single(t.name(), new DataNode(rule.config().defaultBackend(), t.name()), null)
                    : rule.logicalTables().served(t.name());
            rules.put(t, r);
            switch (r) {
                case TableRule.Sharded s -> sharded.add(t);
                case TableRule.Broadcast b -> broadcast.add(t);
                case TableRule.Single s -> {
                    single.add(t);
                    backends.add(s.node().backend());
                }
            }
        }
        if (backends.size() > 1) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, severalBackends(backends, single));
        }
        return new Placement(List.copyOf(sharded), List.copyOf(broadcast), List.copyOf(single), Map.copyOf(rules),
                backends.isEmpty() ? null : backends.iterator().next());
    }

    /**
     * What no route can do with these tables, or null: single tables on several backends (a SELECT
     * over them is the federated tier's, so its refusal waits until routing).
     */
    static String refusal(List<TableRef> tables, ShardingRule rule) {
        Set<String> backends = new LinkedHashSet<>();
        List<TableRef> single = new ArrayList<>();
        for (TableRef t : tables) {
            boolean foreign = t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema());
            String backend = foreign ? rule.config().defaultBackend()
                    : rule.logicalTables().served(t.name()) instanceof TableRule.Single s ? s.node().backend() : null;
            if (backend != null) {
                backends.add(backend);
                single.add(t);
            }
        }
        return backends.size() > 1 ? severalBackends(backends, single) : null;
    }

    private static String severalBackends(Set<String> backends, List<TableRef> single) {
        return "a statement over single tables on several backends " + backends + " (" + single + ")";
    }

    List<TableRef> sharded() {
        return sharded;
    }

    List<TableRef> broadcast() {
        return broadcast;
    }

    List<TableRef> single() {
        return single;
    }

    String singleBackend() {
        return singleBackend;
    }

    TableRule ruleOf(TableRef t) {
        return rules.get(t);
    }

    /** Where a read of only broadcast and single tables goes: the singles' backend, else the default if it has a copy. */
    String readBackend(ShardingRule rule) {
        if (singleBackend != null) {
            return singleBackend;
        }
        String preferred = rule.config().defaultBackend();
        if (broadcast.isEmpty()) {
            return preferred;
        }
        List<DataNode> copies = rules.get(broadcast.get(0)).nodes();
        for (DataNode n : copies) {
            if (n.backend().equals(preferred)) {
                return preferred;
            }
        }
        return copies.get(0).backend();
    }

    /** Physical names of the single tables (the only ones renamed outside a node). */
    Map<String, String> singleNames() {
        return singleNames;
    }

    Map<String, String> singleLogical() {
        return singleLogical;
    }

    /** Physical names on node {@code index} of the sharded tables, plus the single tables'. */
    Map<String, String> namesAt(int index) {
        return namesAt.get(index);
    }

    /** Physical → logical names on node {@code index}, for result metadata. */
    Map<String, String> logicalAt(int index) {
        return logicalAt.get(index);
    }

    /** How many nodes the sharded tables span (0 without sharded tables). */
    int nodeCount() {
        return namesAt.size();
    }

    String backendAt(int index) {
        return rules.get(sharded.get(0)).nodes().get(index).backend();
    }

    /** Physical → logical names of every table of the statement under a renaming. */
    private Map<String, String> logical(Map<String, String> physicalByLogical) {
        Map<String, String> out = new HashMap<>();
        for (TableRef t : rules.keySet()) {
            String logical = t.name();
            out.put(physicalByLogical.getOrDefault(logical.toLowerCase(Locale.ROOT), logical), logical);
        }
        return Map.copyOf(out);
    }
}
