package io.shardwise.core.session;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.LogicalTables;
import io.shardwise.core.rule.ShardingRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The logical catalog ({@link LogicalTables}) as SQL over a backend's information_schema: each
 * configured table is its first node, renamed; the default backend's tables that no node claims are
 * single tables under their own names; every other physical table is hidden. Backends are told apart
 * by the database and the server ({@code host:port}) their JDBC URL names.
 *
 * <p>Hazard: one information_schema query sees one server, so a logical table whose first node is on
 * another server than the default backend's cannot be shown that way: {@link #tableFilter} refuses it
 * with 1235 rather than leave the table out.
 */
final class LogicalCatalog {
    private final ShardingRule rule;
    /** Physical database → its first nodes' physical table → logical table. */
    private final Map<String, Map<String, String>> firsts = new LinkedHashMap<>();
    /** Physical tables of the default backend's database that a configured node claims and that are no first node (lower case). */
    private final Set<String> hiddenOnDefault = new HashSet<>();
    private final String defaultDatabase;
    /** The first logical table whose first node is on another server than the default backend, or null. */
    private final String elsewhere;

    LogicalCatalog(ShardingRule rule) {
        this.rule = rule;
        LogicalTables tables = rule.logicalTables();
        this.defaultDatabase = database(rule.config().defaultBackend());
        String defaultServer = server(rule.config().defaultBackend());
        String away = null;
        for (Map.Entry<String, Map<String, String>> backend : tables.firstNodes().entrySet()) {
            if (!server(backend.getKey()).equals(defaultServer) && away == null) {
                Map.Entry<String, String> first = backend.getValue().entrySet().iterator().next();
                away = first.getValue() + "' (first node " + new DataNode(backend.getKey(), first.getKey()) + ")";
            }
            firsts.computeIfAbsent(database(backend.getKey()), d -> new LinkedHashMap<>()).putAll(backend.getValue());
        }
        hiddenOnDefault.addAll(tables.claimedOn(rule.config().defaultBackend()));
        for (String table : firsts.getOrDefault(defaultDatabase, Map.of()).keySet()) {
            hiddenOnDefault.remove(table.toLowerCase(Locale.ROOT));
        }
        this.elsewhere = away;
    }

    String schema() {
        return rule.schema();
    }

    boolean isPhysicalDatabase(String name) {
        return name != null && (name.equalsIgnoreCase(defaultDatabase) || firsts.keySet().stream().anyMatch(name::equalsIgnoreCase));
    }

    /** {@code column} with every physical database of the logical tables read as the logical schema. */
    String schemaExpression(String column) {
        List<String> databases = new ArrayList<>(firsts.keySet());
        if (!databases.contains(defaultDatabase)) {
            databases.add(defaultDatabase);
        }
        return "CASE WHEN " + column + " IN (" + quoted(databases) + ") THEN " + quote(rule.schema()) + " ELSE " + column + " END";
    }

    /** {@code tableColumn} with each first node's physical name read as its logical table's. */
    String tableExpression(String schemaColumn, String tableColumn) {
        StringBuilder sql = new StringBuilder("CASE");
        for (Map.Entry<String, Map<String, String>> db : firsts.entrySet()) {
            for (Map.Entry<String, String> table : db.getValue().entrySet()) {
                if (!table.getKey().equals(table.getValue()) || !db.getKey().equals(defaultDatabase)) {
                    sql.append(" WHEN ").append(schemaColumn).append(" = ").append(quote(db.getKey())).append(" AND ")
                            .append(tableColumn).append(" = ").append(quote(table.getKey())).append(" THEN ")
                            .append(quote(table.getValue()));
                }
            }
        }
        return sql.length() == 4 ? tableColumn : sql.append(" ELSE ").append(tableColumn).append(" END").toString();
    }

    /** Rows of a database-level table (SCHEMATA): information_schema and the default backend's database. */
    String schemaFilter(String schemaColumn) {
        return schemaColumn + " IN ('information_schema', " + quote(defaultDatabase) + ")";
    }

    /**
     * Rows of a table-level table: information_schema's own, each first node, and the default
     * backend's single tables.
     *
     * @throws ShardwiseException 1235 when a first node is on another server than the default backend's
     */
    String tableFilter(String schemaColumn, String tableColumn) {
        if (elsewhere != null) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema over table '" + elsewhere
                    + " on another server than the default backend's");
        }
        StringBuilder sql = new StringBuilder("(").append(schemaColumn).append(" = 'information_schema' OR (")
                .append(schemaColumn).append(" = ").append(quote(defaultDatabase));
        if (!hiddenOnDefault.isEmpty()) {
            sql.append(" AND ").append(tableColumn).append(" NOT IN (").append(quoted(hiddenOnDefault)).append(')');
        }
        sql.append(')');
        for (Map.Entry<String, Map<String, String>> db : firsts.entrySet()) {
            if (!db.getKey().equals(defaultDatabase)) {
                sql.append(" OR (").append(schemaColumn).append(" = ").append(quote(db.getKey())).append(" AND ")
                        .append(tableColumn).append(" IN (").append(quoted(db.getValue().keySet())).append("))");
            }
        }
        return sql.append(')').toString();
    }

    /** The physical database a backend's URL names ({@code jdbc:mysql://host:port/db?...}), decoded. */
    String database(String backend) {
        String db = backend(backend).address().database();
        if (db == null) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "information_schema with backend " + backend
                    + " whose URL names no database");
        }
        return db;
    }

    private String server(String backend) {
        return backend(backend).address().server();
    }

    private BackendConfig backend(String name) {
        return rule.config().backends().get(name);
    }

    private static String quoted(Iterable<String> names) {
        StringBuilder out = new StringBuilder();
        for (String n : names) {
            if (!out.isEmpty()) {
                out.append(", ");
            }
            out.append(quote(n));
        }
        return out.toString();
    }

    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
