package io.shardwise.core.rule;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The one logical catalog: which physical tables stand for which logical ones. The logical tables
 * are the configured tables, each standing for its first physical node, plus the default backend's
 * tables that no configured node claims (single tables there, under their own names); every other
 * physical table is hidden. Every place that lists, describes or renames tables reads it: SHOW and
 * DESCRIBE, information_schema, JDBC {@code DatabaseMetaData}, COM_FIELD_LIST and backend error
 * translation. Names compare as information_schema's general_ci collation compares them.
 * Immutable and thread-safe; one per {@link ShardingRule} ({@link ShardingRule#logicalTables}).
 */
public final class LogicalTables {
    /** SHOW TABLES' order: case-insensitive as lower case ('order_items' before 'orders'), then exact. */
    public static final Comparator<String> SHOW_ORDER =
            Comparator.<String, String>comparing(n -> n.toLowerCase(Locale.ROOT)).thenComparing(n -> n);
    /**
     * information_schema's order as Connector/J's metadata reads it: upper-cased, so 'orders' sorts
     * before 'order_items' ('S' &lt; '_' while 's' &gt; '_').
     */
    public static final Comparator<String> METADATA_ORDER =
            Comparator.<String, String>comparing(n -> n.toUpperCase(Locale.ROOT)).thenComparing(n -> n);

    private final ShardingRule rule;
    /** Backend → the physical tables (lower case) configured nodes own there. */
    private final Map<String, Set<String>> claimed;
    /** Backend → its first nodes' physical table → logical table, in the configuration's order. */
    private final Map<String, Map<String, String>> firstNodes;
    /** Backend → every node's physical table (lower case) whose name differs from its logical table's → logical table. */
    private final Map<String, Map<String, String>> renamed;

    LogicalTables(ShardingRule rule) {
        this.rule = rule;
        Map<String, Set<String>> claims = new HashMap<>();
        Map<String, Map<String, String>> firsts = new LinkedHashMap<>();
        Map<String, Map<String, String>> renames = new HashMap<>();
        for (TableRule t : rule.tables()) {
            DataNode first = t.nodes().getFirst();
            firsts.computeIfAbsent(first.backend(), b -> new LinkedHashMap<>()).put(first.table(), t.name());
            for (DataNode n : t.nodes()) {
                claims.computeIfAbsent(n.backend(), b -> new HashSet<>()).add(n.table().toLowerCase(Locale.ROOT));
                if (!n.table().equals(t.name())) {
                    renames.computeIfAbsent(n.backend(), b -> new HashMap<>()).put(n.table().toLowerCase(Locale.ROOT), t.name());
                }
            }
        }
        this.claimed = copy(claims);
        this.firstNodes = copyOrdered(firsts);
        this.renamed = copyMaps(renames);
    }

    public ShardingRule rule() {
        return rule;
    }

    /** Physical tables on {@code backend} that configured nodes own (lower case): they are not logical tables. */
    public Set<String> claimedOn(String backend) {
        return claimed.getOrDefault(backend, Set.of());
    }

    /** Whether a table the default backend lists is a logical (single) table: no configured node or table name claims it. */
    public boolean isSingleOnDefault(String physical) {
        return !claimedOn(rule.config().defaultBackend()).contains(physical.toLowerCase(Locale.ROOT)) && !rule.isConfigured(physical);
    }

    /**
     * Backend → the physical table of each configured table's first node on it → that logical
     * table, in the configuration's order: the physical tables that describe configured tables.
     */
    public Map<String, Map<String, String>> firstNodes() {
        return firstNodes;
    }

    /**
     * The physical tables of {@code backend} (lower case) whose names are not their logical
     * table's, each with that logical name: what backend messages must rename.
     */
    public Map<String, String> renamedOn(String backend) {
        return renamed.getOrDefault(backend, Map.of());
    }

    /**
     * The physical table that describes logical table {@code name}: a configured table's first node,
     * else the default backend's table of that name.
     *
     * @throws ShardwiseException 1146 when {@code name} is a physical table a configured node owns
     */
    public DataNode describedBy(String name) {
        return served(name).nodes().getFirst();
    }

    /**
     * The rule of the table a statement names in the logical schema: the configured table, else a
     * single table of the default backend under its own name, unless that name is a physical table
     * a configured node owns there ({@code orders_0}): to a client of one unsharded MySQL no such
     * table exists, so it is not served (else the statement would read or change one shard's part).
     *
     * @throws ShardwiseException 1146 naming the logical schema for such a physical name
     */
    public TableRule served(String name) {
        TableRule table = rule.table(name);
        if (!rule.isConfigured(name) && claimedOn(table.nodes().getFirst().backend()).contains(name.toLowerCase(Locale.ROOT))) {
            throw new ShardwiseException(ErrorCode.NO_SUCH_TABLE, rule.schema(), name);
        }
        return table;
    }

    /**
     * The logical tables whose names match a LIKE pattern (null: all), in {@code order}: the
     * configured ones and those of {@code defaultBackendTables} (what the default backend lists)
     * that are single tables.
     */
    public List<String> matching(String pattern, Iterable<String> defaultBackendTables, Comparator<String> order) {
        Pattern like = like(pattern);
        TreeSet<String> names = new TreeSet<>(order);
        for (TableRule t : rule.tables()) {
            names.add(t.name());
        }
        for (String physical : defaultBackendTables) {
            if (isSingleOnDefault(physical)) {
                names.add(physical);
            }
        }
        names.removeIf(n -> !like.matcher(n).matches());
        return List.copyOf(names);
    }

    /** A LIKE pattern as a case-insensitive regex (information_schema compares with a _ci collation); null matches all. */
    public static Pattern like(String pattern) {
        if (pattern == null) {
            return Pattern.compile(".*", Pattern.DOTALL);
        }
        StringBuilder regex = new StringBuilder(pattern.length() + 8);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE | Pattern.DOTALL);
    }

    /** A name as a LIKE pattern that matches only itself. */
    public static String escape(String name) {
        return name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_");
    }

    private static Map<String, Set<String>> copy(Map<String, Set<String>> in) {
        Map<String, Set<String>> out = new HashMap<>();
        in.forEach((k, v) -> out.put(k, Set.copyOf(v)));
        return Map.copyOf(out);
    }

    private static Map<String, Map<String, String>> copyMaps(Map<String, Map<String, String>> in) {
        Map<String, Map<String, String>> out = new HashMap<>();
        in.forEach((k, v) -> out.put(k, Map.copyOf(v)));
        return Map.copyOf(out);
    }

    /** Keeps the configuration's order, which information_schema's CASE and filters are built in. */
    private static Map<String, Map<String, String>> copyOrdered(Map<String, Map<String, String>> in) {
        Map<String, Map<String, String>> out = new LinkedHashMap<>();
        in.forEach((k, v) -> out.put(k, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        return java.util.Collections.unmodifiableMap(out);
    }
}
