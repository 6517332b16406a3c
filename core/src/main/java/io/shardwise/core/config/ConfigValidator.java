package io.shardwise.core.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Checks that need the whole file: every node names a defined backend, no physical table holds two
 * logical tables, every backend is used, and no two table names differ only in case.
 */
final class ConfigValidator {
    private ConfigValidator() {}

    static void validate(Set<String> backends, String defaultBackend, Map<String, TableConfig> tables,
                         ConfigNode backendsNode, ConfigNode tablesNode, Problems problems) {
        Map<String, ConfigNode> tableNodes = tablesNode == null ? Map.of() : tablesNode.entries();
        Set<String> used = new HashSet<>();
        if (defaultBackend != null) {
            used.add(defaultBackend);
        }
        Map<String, String> physicalOwners = new HashMap<>();
        Map<String, String> lowerNames = new HashMap<>();
        for (TableConfig table : tables.values()) {
            Location at = location(tableNodes, table, problems);
            String previous = lowerNames.putIfAbsent(table.name().toLowerCase(Locale.ROOT), table.name());
            if (previous != null) {
                problems.add(at, "table '" + table.name() + "' differs from table '" + previous + "' only in case;"
                        + " table names are matched ignoring case, so each needs a distinct name");
            }
            Set<String> unknown = new LinkedHashSet<>();
            for (DataNode node : table.nodes()) {
                if (!backends.contains(node.backend())) {
                    unknown.add(node.backend());
                    continue;
                }
                used.add(node.backend());
                String physical = node.backend() + "." + node.table().toLowerCase(Locale.ROOT);
                String owner = physicalOwners.putIfAbsent(physical, table.name());
                if (owner != null) {
                    problems.add(at, "physical table " + node + (owner.equals(table.name())
                            ? " appears twice in table '" + owner + "'"
                            : " is also used by table '" + owner + "'") + "; each physical table holds one logical table");
                }
            }
            if (!unknown.isEmpty() && !backends.isEmpty()) {
                String first = unknown.iterator().next();
                problems.add(at, "table '" + table.name() + "' names backend" + (unknown.size() > 1 ? "s " : " ")
                        + String.join(", ", unknown) + "; defined: " + String.join(", ", backends) + "."
                        + Suggestions.didYouMean(first, backends));
            }
        }
        // a table that did not parse may be the one using a backend: judge usage only when all did
        boolean everyTableParsed = tables.size() == tableNodes.size();
        if (backendsNode != null && backendsNode.isMapping() && everyTableParsed) {
            Map<String, ConfigNode> backendNodes = backendsNode.entries();
            for (String name : backends) {
                if (!used.contains(name)) {
                    problems.add(backendNodes.get(name).location(), "backend '" + name + "' is not used by any table and is not"
                            + " the defaultBackend; remove it, or name it in a table's nodes");
                }
            }
        }
    }

    private static Location location(Map<String, ConfigNode> tableNodes, TableConfig table, Problems problems) {
        ConfigNode node = tableNodes.get(table.name());
        if (node == null) {
            return new Location("tables." + table.name(), 0);
        }
        if (node.isMapping()) {
            Map<String, ConfigNode> keys = node.entries();
            for (String k : new String[] {"nodes", "backend", "bindTo", "broadcast"}) {
                if (keys.containsKey(k)) {
                    return keys.get(k).location();
                }
            }
        }
        return node.location();
    }
}
