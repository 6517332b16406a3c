package io.shardwise.core.session;

import static io.shardwise.core.rule.LogicalTables.escape;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.execute.BackendConnections;
import io.shardwise.core.execute.Column;
import io.shardwise.core.rule.LogicalTables;
import io.shardwise.core.rule.ShardingRule;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The JDBC face's table metadata ({@code DatabaseMetaData.getTables}, {@code getColumns},
 * {@code getPrimaryKeys}, {@code getIndexInfo}) over the logical catalog ({@link LogicalTables}).
 * Each logical table is described by its first physical table, asked of Connector/J's own
 * DatabaseMetaData on a short-lived connection to that node's backend, and the rows are copied with
 * the physical database and table names replaced by the logical ones.
 *
 * <p>Hazard: statistics (getIndexInfo's CARDINALITY and PAGES) are those of the first physical
 * table, not of the whole logical table. Opens one backend connection per backend a call touches,
 * outside the engine's pools ({@link BackendConnections#openUnpooled}): metadata is a cold path, and
 * the engine lends no raw connections. Backend errors pass as Connector/J's {@link SQLException}s,
 * which is what a JDBC metadata call throws.
 */
public final class MetaDataCatalog {
    /** Columns holding the database name in Connector/J's metadata results (INDEX_QUALIFIER is the database too). */
    private static final Set<String> CATALOG_COLUMNS = Set.of("TABLE_CAT", "TABLE_CATALOG", "INDEX_QUALIFIER", "PKTABLE_CAT", "FKTABLE_CAT");
    /** No table can have an empty name: asking for it yields an empty result that still has the right columns. */
    private static final String NO_TABLE = "";

    private final ShardingRule rule;
    private final LogicalTables tables;

    public MetaDataCatalog(ShardingRule rule) {
        this.rule = rule;
        this.tables = rule.logicalTables();
    }

    /** A metadata result: its columns (typed so a result set gives Connector/J's Java classes) and text rows. */
    public record Listing(List<Column> columns, List<String[]> rows) {
        public Listing {
            columns = List.copyOf(columns);
            rows = List.copyOf(rows);
        }
    }

    private interface Query {
        ResultSet list(DatabaseMetaData backend, String physicalCatalog, String physicalTable) throws SQLException;
    }

    public Listing tables(String catalog, String tablePattern, String[] types) throws SQLException {
        try (Backends backends = new Backends()) {
            List<String> names = matching(backends, catalog, tablePattern);
            Map<String, Map<String, String[]>> physicalRows = new HashMap<>();
            Copy copy = null;
            for (String name : names) {
                DataNode node = tables.describedBy(name);
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
            return copy.listing();
        }
    }

    public Listing columns(String catalog, String tablePattern, String columnPattern) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, matching(backends, catalog, tablePattern),
                    (md, cat, table) -> md.getColumns(cat, null, escape(table), columnPattern == null ? "%" : columnPattern));
        }
    }

    /** @param table a table name, not a pattern (the face refuses null) */
    public Listing primaryKeys(String catalog, String table) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, matching(backends, catalog, escape(table)), (md, cat, t) -> md.getPrimaryKeys(cat, null, t));
        }
    }

    /** @param table a table name, not a pattern (the face refuses null) */
    public Listing indexInfo(String catalog, String table, boolean unique, boolean approximate) throws SQLException {
        try (Backends backends = new Backends()) {
            return each(backends, matching(backends, catalog, escape(table)),
                    (md, cat, t) -> md.getIndexInfo(cat, null, t, unique, approximate));
        }
    }

    /** The default backend's own answer: Connector/J reads it from the server's keyword table. */
    public String sqlKeywords() throws SQLException {
        try (Backends backends = new Backends()) {
            return backends.metaData(rule.config().defaultBackend()).getSQLKeywords();
        }
    }

    /** The listing of each logical table's first physical table, in the given order, renamed. */
    private Listing each(Backends backends, List<String> names, Query query) throws SQLException {
        Copy copy = null;
        for (String name : names) {
            DataNode node = tables.describedBy(name);
            try (ResultSet rs = query.list(backends.metaData(node.backend()), backends.catalog(node.backend()), node.table())) {
                copy = copy == null ? new Copy(rs.getMetaData()) : copy;
                for (String[] row : copy.read(rs)) {
                    copy.add(row, name);
                }
            }
        }
        return (copy == null ? emptyListing(backends, query) : copy).listing();
    }

    private Copy emptyListing(Backends backends, Query query) throws SQLException {
        String backend = rule.config().defaultBackend();
        try (ResultSet rs = query.list(backends.metaData(backend), backends.catalog(backend), NO_TABLE)) {
            return new Copy(rs.getMetaData());
        }
    }

    /** Logical table names matching a LIKE pattern, in information_schema's order as Connector/J reads it. */
    private List<String> matching(Backends backends, String catalog, String tablePattern) throws SQLException {
        if (catalog != null && !catalog.equalsIgnoreCase(rule.schema())) {
            return List.of();
        }
        return tables.matching(tablePattern == null ? "%" : tablePattern, defaultBackendTables(backends), LogicalTables.METADATA_ORDER);
    }

    /** What the default backend lists: its single tables are logical tables too. */
    private List<String> defaultBackendTables(Backends backends) throws SQLException {
        String backend = rule.config().defaultBackend();
        List<String> out = new ArrayList<>();
        try (ResultSet rs = backends.metaData(backend).getTables(backends.catalog(backend), null, "%", null)) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME"));
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

        Listing listing() {
            return new Listing(columns, rows);
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
