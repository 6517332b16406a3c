package io.shardwise.core.session;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The logical tables both faces list and describe (SHOW, information_schema, DatabaseMetaData,
 * COM_FIELD_LIST): the configured tables, each standing for its first physical node, plus the
 * default backend's tables that no configured node claims (single tables there, under their own
 * names). Every other physical table is hidden. Names compare as information_schema's general_ci
 * collation compares them. Thread-safe and immutable apart from a cache.
 */
public final class LogicalTables {
    private final ShardingRule rule;
    /** Backend → the physical tables (lower case) configured nodes own there. */
    private final Map<String, Set<String>> claimed = new ConcurrentHashMap<>();

    public LogicalTables(ShardingRule rule) {
        this.rule = rule;
    }

    public ShardingRule rule() {
        return rule;
    }

    /** Physical tables on {@code backend} that configured nodes own (lower case): they are not logical tables. */
    public Set<String> claimedOn(String backend) {
        return claimed.computeIfAbsent(backend, b -> {
            Set<String> names = new HashSet<>();
            for (TableRule t : rule.tables()) {
                for (DataNode n : t.nodes()) {
                    if (n.backend().equals(b)) {
                        names.add(n.table().toLowerCase(Locale.ROOT));
                    }
                }
            }
            return Set.copyOf(names);
        });
    }

    /** Whether a table the default backend lists is a logical (single) table: no configured node or table name claims it. */
    public boolean isSingleOnDefault(String physical) {
        return !claimedOn(rule.config().defaultBackend()).contains(physical.toLowerCase(Locale.ROOT)) && !rule.isConfigured(physical);
    }

    /**
     * The physical table that describes logical table {@code name}: a configured table's first node,
     * else the default backend's table of that name.
     *
     * @throws ShardwiseException 1146 when {@code name} is a physical table a configured node owns
     */
    public DataNode describedBy(String name) {
        DataNode node = rule.table(name).nodes().getFirst();
        if (!rule.isConfigured(name) && claimedOn(node.backend()).contains(name.toLowerCase(Locale.ROOT))) {
            throw new ShardwiseException(ErrorCode.NO_SUCH_TABLE, rule.schema(), name); // a physical name: not served
        }
        return node;
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
}
