package io.shardwise.jdbc;

import static io.shardwise.core.session.LogicalTables.escape;
import static io.shardwise.core.session.LogicalTables.like;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.execute.BackendConnections;
import io.shardwise.core.execute.Column;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.session.LogicalTables;
import io.shardwise.core.rule.TableRule;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The table listings of {@link DatabaseMetaData} over logical names. The logical tables are the
 * configured ones plus the tables of the default backend that no configured node claims (they are
 * single tables there). Each logical table is described by its first physical table, asked of
 * Connector/J's own DatabaseMetaData on a short-lived connection to that node's backend, and the
 * rows are copied with the physical database and table names replaced by the logical ones.
 *
 * <p>Hazard: statistics (getIndexInfo's CARDINALITY and PAGES) are those of the first physical
 * table, not of the whole logical table. Opens one backend connection per backend a call touches,
 * outside the engine's pools: metadata is a cold path, and the engine lends no raw connections.
 */
final class LogicalCatalog {
    /** Columns holding the database name in Connector/J's metadata results (INDEX_QUALIFIER is the database too). */
    private static final Set<String> CATALOG_COLUMNS = Set.of("TABLE_CAT", "TABLE_CATALOG", "INDEX_QUALIFIER", "PKTABLE_CAT", "FKTABLE_CAT");
    /** No table can have an empty name: asking for it yields an empty result that still has the right columns. */
    private static final String NO_TABLE = "";

    private static final java.util.Comparator<String> BY_UPPER_CASE =
            java.util.Comparator.<String, String>comparing(n -> n.toUpperCase(Locale.ROOT)).thenComparing(n -> n);

    private final ShardwiseConnection connection;
    private final ShardingRule rule;

    LogicalCatalog(ShardwiseConnection connection, ShardingRule rule) {
        this.connection = connection;
        this.rule = rule;
    }

    interface Listing {
        ResultSet list(DatabaseMetaData backend, String physicalCatalog, String physicalTable) throws SQLException;
    }

    ResultSet tables(String catalog, String tablePattern, String[] types) throws SQLException {
        try (Backends backends = new Backends()) {
            List<String> names = matching(backends, catalog, tablePattern);
            Map<String, Map<String, String[]>> physicalRows = new HashMap<>();
            Copy copy = null;
            for (String name : names) {
                DataNode node = firstNode(name);
                Map<String, String[]> rows = physicalRows.get(node.backend());
                if (rows == null) {
                    rows = new HashMap<>();
                    try (ResultSet rs = backends.metaData(node.backend()).getTables(backends.catalog(node.backend()), null, "%", types)) {
                        copy = copy == null ? new Copy(rs.getMetaData()) : copy;
                        for (String[] row : copy.read(rs)) {
                            rows.put(row[copy.tableName], row);
                        }
                    }
                    physicalRows.put(node.backend(), rows);
                }
                String[] row = rows.get(node.table());
                if (row != null) {
                    copy.add(row, name);
                }
            }
            if (copy == null) {
                copy = emptyListing(backends, (md, cat, table) -> md.getTables(cat, null, table, types));
            }
            return copy.result();
        }
    }

    ResultSet columns(String catalog, String tablePattern, String columnPattern) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, matching(backends, catalog, tablePattern),
                    (md, cat, table) -> md.getColumns(cat, null, escape(table), columnPattern == null ? "%" : columnPattern));
        }
    }

    ResultSet primaryKeys(String catalog, String table) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, named(backends, catalog, table), (md, cat, t) -> md.getPrimaryKeys(cat, null, t));
        }
    }

    ResultSet indexInfo(String catalog, String table, boolean unique, boolean approximate) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, named(backends, catalog, table), (md, cat, t) -> md.getIndexInfo(cat, null, t, unique, approximate));
        }
    }

    /** The listing of each logical table's first physical table, in the given order, renamed. */
    private ResultSet each(Backends backends, List<String> names, Listing listing) throws SQLException {
        Copy copy = null;
        for (String name : names) {
            DataNode node = firstNode(name);
            try (ResultSet rs = listing.list(backends.metaData(node.backend()), backends.catalog(node.backend()), node.table())) {
                copy = copy == null ? new Copy(rs.getMetaData()) : copy;
                for (String[] row : copy.read(rs)) {
                    copy.add(row, name);
                }
            }
        }
        return (copy == null ? emptyListing(backends, listing) : copy).result();
    }

    private Copy emptyListing(Backends backends, Listing listing) throws SQLException {
        String backend = rule.config().defaultBackend();
        try (ResultSet rs = listing.list(backends.metaData(backend), backends.catalog(backend), NO_TABLE)) {
            return new Copy(rs.getMetaData());
        }
    }

    private DataNode firstNode(String logical) {
        return rule.table(logical).nodes().getFirst();
    }

    /** The one table a non-pattern argument names, if it exists in this catalog. */
    private List<String> named(Backends backends, String catalog, String table) throws SQLException {
        if (table == null) {
            throw SqlErrors.illegal("Table not specified.");
        }
        return matching(backends, catalog, escape(table));
    }

    /** The default backend's own answer: Connector/J reads it from the server's keyword table. */
    String sqlKeywords() throws SQLException {
        try (Backends backends = new Backends()) {
            return backends.metaData(rule.config().defaultBackend()).getSQLKeywords();
        }
    }

    /**
     * Logical table names matching a LIKE pattern, compared and sorted ignoring case as
     * information_schema's general_ci collation does (upper-cased, so "orders" sorts before "order_items").
     */
    private List<String> matching(Backends backends, String catalog, String tablePattern) throws SQLException {
        if (catalog != null && !catalog.equalsIgnoreCase(rule.schema())) {
            return List.of();
        }
        Pattern like = like(tablePattern == null ? "%" : tablePattern);
        TreeSet<String> names = new TreeSet<>(BY_UPPER_CASE);
        for (TableRule t : rule.tables()) {
            names.add(t.name());
        }
        names.addAll(unconfiguredTables(backends));
        names.removeIf(n -> !like.matcher(n).matches());
        return List.copyOf(names);
    }

    /** Tables of the default backend that no configured node claims: the engine routes them as single tables there. */
    private List<String> unconfiguredTables(Backends backends) throws SQLException {
        String backend = rule.config().defaultBackend();
        LogicalTables logical = new LogicalTables(rule);
        List<String> out = new ArrayList<>();
        try (ResultSet rs = backends.metaData(backend).getTables(backends.catalog(backend), null, "%", null)) {
            while (rs.next()) {
                String name = rs.getString("TABLE_NAME");
                if (logical.isSingleOnDefault(name)) {
                    out.add(name);
                }
            }
        }
        return out;
    }

    /** Connector/J connections to the backends one call touches, opened on first use and closed together. */
    private final class Backends implements AutoCloseable {
        private final Map<String, Connection> open = new HashMap<>();

        DatabaseMetaData metaData(String backend) throws SQLException {
            return connection(backend).getMetaData();
        }

        String catalog(String backend) throws SQLException {
            return connection(backend).getCatalog();
        }

        private Connection connection(String backend) throws SQLException {
            Connection c = open.get(backend);
            if (c == null) {
                BackendConfig config = rule.config().backends().get(backend);
                c = BackendConnections.openUnpooled(config);
                open.put(backend, c);
            }
            return c;
        }

        @Override
        public void close() throws SQLException {
            SQLException failure = null;
            for (Connection c : open.values()) {
                try {
                    c.close();
                } catch (SQLException e) {
                    failure = failure == null ? e : failure;
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }

    /**
     * Rows of a backend metadata result as text, and their columns as {@link Column}s whose types give
     * the Java classes Connector/J gives (strings, Integer, Long, Boolean).
     */
    private final class Copy {
        final List<Column> columns = new ArrayList<>();
        final boolean[] rename;
        final boolean[] flag;
        final int tableName;
        final List<String[]> rows = new ArrayList<>();

        Copy(ResultSetMetaData md) throws SQLException {
            int n = md.getColumnCount();
            rename = new boolean[n];
            flag = new boolean[n];
            int table = -1;
            for (int i = 1; i <= n; i++) {
                String label = md.getColumnLabel(i);
                int type = md.getColumnType(i);
                rename[i - 1] = CATALOG_COLUMNS.contains(label);
                flag[i - 1] = type == Types.BOOLEAN || type == Types.BIT;
                table = label.equals("TABLE_NAME") ? i - 1 : table;
                columns.add(column(label, type, md.getPrecision(i), md.isNullable(i) == ResultSetMetaData.columnNoNulls, !md.isSigned(i)));
            }
            tableName = table;
        }

        List<String[]> read(ResultSet rs) throws SQLException {
            List<String[]> out = new ArrayList<>();
            while (rs.next()) {
                String[] row = new String[rename.length];
                for (int i = 0; i < row.length; i++) {
                    if (flag[i]) {
                        boolean b = rs.getBoolean(i + 1);
                        row[i] = rs.wasNull() ? null : b ? "1" : "0";
                    } else {
                        row[i] = rs.getString(i + 1);
                    }
                }
                out.add(row);
            }
            return out;
        }

        void add(String[] physical, String logicalTable) {
            String[] row = physical.clone();
            for (int i = 0; i < row.length; i++) {
                if (rename[i] && row[i] != null) {
                    row[i] = rule.schema();
                }
            }
            if (tableName >= 0) {
                row[tableName] = logicalTable;
            }
            rows.add(row);
        }

        ResultSet result() throws SQLException {
            return ShardwiseResultSet.ofRows(connection, columns, rows);
        }
    }

    private static Column column(String label, int jdbcType, int precision, boolean notNull, boolean unsigned) {
        int mysqlType = switch (jdbcType) {
            case Types.BOOLEAN, Types.BIT, Types.TINYINT -> 1;
            case Types.SMALLINT -> 2;
            case Types.INTEGER -> 3;
            case Types.BIGINT -> 8;
            default -> 253;
        };
        boolean text = mysqlType == 253;
        // A signed TINYINT(1) is what reads as Boolean, as Connector/J's flag columns do.
        boolean flag = jdbcType == Types.BOOLEAN || jdbcType == Types.BIT;
        long length = flag ? 1 : text ? Math.max(precision, 1) * 4L : Math.max(precision, 1);
        int flags = (notNull ? Column.FLAG_NOT_NULL : 0) | (!text && !flag && unsigned ? Column.FLAG_UNSIGNED : 0)
                | (text ? 0 : Column.FLAG_BINARY);
        return new Column("", "", "", label, label, text ? 45 : Column.BINARY_COLLATION, length, mysqlType, flags, 0);
    }
}
