package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import io.shardwise.core.session.MetaDataCatalog;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.RowIdLifetime;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the driver can say truly about the logical database: the product and version of the
 * backends (asked of the default backend), the driver, the one logical catalog, identifier rules and
 * the capability flags of a MySQL server behind Connector/J, and the tables, columns, primary keys and
 * indexes of the logical schema (core's {@link MetaDataCatalog} over the one logical catalog). Physical names never appear. What is not
 * implemented refuses (see {@link DatabaseMetaDataBase}).
 *
 * <p>Assumes backends with {@code lower_case_table_names=0} (Linux's default) for the identifier
 * case flags.
 */
final class ShardwiseDatabaseMetaData extends ConnectorJFlags {
    private final ShardwiseConnection connection;
    private String backendVersion;
    private String sqlKeywords;

    ShardwiseDatabaseMetaData(ShardwiseConnection connection) {
        this.connection = connection;
    }

    private static Column textColumn(String name) {
        return new Column("", "", "", name, name, 45, 256, 253, 0, 0);
    }

    private String version() throws SQLException {
        if (backendVersion == null) {
            try (var st = connection.createStatement(); ResultSet rs = st.executeQuery("SELECT VERSION()")) {
                rs.next();
                backendVersion = rs.getString(1);
            }
        }
        return backendVersion;
    }

    private int versionPart(int index) throws SQLException {
        String[] parts = version().split("[.-]");
        try {
            return parts.length > index ? Integer.parseInt(parts[index]) : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public String getURL() {
        return connection.url();
    }

    /** Connector/J reports "MySQL" for MySQL and MariaDB servers alike. */
    @Override
    public String getDatabaseProductName() {
        return "MySQL";
    }

    @Override
    public String getDatabaseProductVersion() throws SQLException {
        return version();
    }

    @Override
    public int getDatabaseMajorVersion() throws SQLException {
        return versionPart(0);
    }

    @Override
    public int getDatabaseMinorVersion() throws SQLException {
        return versionPart(1);
    }

    @Override
    public String getDriverName() {
        return Driver.NAME;
    }

    @Override
    public String getDriverVersion() {
        return Driver.VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return Driver.MAJOR_VERSION;
    }

    @Override
    public int getDriverMinorVersion() {
        return Driver.MINOR_VERSION;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 2;
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {connection.getCatalog()});
        return ShardwiseResultSet.ofRows(connection, List.of(textColumn("TABLE_CAT")), rows);
    }

    /** No schemas: as Connector/J with databaseTerm=CATALOG. */
    @Override
    public ResultSet getSchemas() throws SQLException {
        return ShardwiseResultSet.ofRows(connection, List.of(textColumn("TABLE_SCHEM"), textColumn("TABLE_CATALOG")), List.of());
    }

    @Override
    public ResultSet getSchemas(String catalog, String schemaPattern) throws SQLException {
        return getSchemas();
    }

    @Override
    public ResultSet getTables(String catalog, String schemaPattern, String tableNamePattern, String[] types) throws SQLException {
        return result(catalog().tables(catalog, tableNamePattern, types));
    }

    @Override
    public ResultSet getColumns(String catalog, String schemaPattern, String tableNamePattern, String columnNamePattern)
            throws SQLException {
        return result(catalog().columns(catalog, tableNamePattern, columnNamePattern));
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        return result(catalog().primaryKeys(catalog, named(table)));
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate) throws SQLException {
        return result(catalog().indexInfo(catalog, named(table), unique, approximate));
    }

    @Override
    public String getSQLKeywords() throws SQLException {
        if (sqlKeywords == null) {
            sqlKeywords = catalog().sqlKeywords();
        }
        return sqlKeywords;
    }

    private MetaDataCatalog catalog() throws SQLException {
        connection.checkOpen();
        return new MetaDataCatalog(connection.engine().rule());
    }

    private ResultSet result(MetaDataCatalog.Listing listing) {
        return ShardwiseResultSet.ofRows(connection, listing.columns(), listing.rows());
    }

    /** A non-pattern table argument: Connector/J refuses null with its own illegal-argument error. */
    private static String named(String table) throws SQLException {
        if (table == null) {
            throw SqlErrors.illegal("Table not specified.");
        }
        return table;
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TABLE"});
        return ShardwiseResultSet.ofRows(connection, List.of(textColumn("TABLE_TYPE")), rows);
    }

    @Override
    public String getCatalogTerm() {
        return "database";
    }

    @Override
    public String getSchemaTerm() {
        return "";
    }

    @Override
    public String getProcedureTerm() {
        return "PROCEDURE";
    }

    @Override
    public String getCatalogSeparator() {
        return ".";
    }

    @Override
    public boolean isCatalogAtStart() {
        return true;
    }

    @Override
    public String getIdentifierQuoteString() {
        return "`";
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getExtraNameCharacters() {
        return "$";
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    @Override
    public boolean supportsTransactions() {
        return true;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return switch (level) {
            case Connection.TRANSACTION_READ_UNCOMMITTED, Connection.TRANSACTION_READ_COMMITTED, Connection.TRANSACTION_REPEATABLE_READ,
                 Connection.TRANSACTION_SERIALIZABLE -> true;
            default -> false;
        };
    }

    @Override
    public boolean supportsSavepoints() {
        return true;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return true;
    }

    @Override
    public boolean generatedKeyAlwaysReturned() {
        return true;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public boolean supportsResultSetHoldability(int holdability) {
        return holdability == ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean supportsMultipleResultSets() {
        return true; // a CALL's result sets, walked by getMoreResults; a CallableStatement
    }

    @Override
    public boolean supportsMultipleOpenResults() {
        return true; // a CALL's result sets, walked by getMoreResults; a CallableStatement
    }

    @Override
    public boolean supportsNamedParameters() {
        return false;
    }

    @Override
    public boolean supportsStoredProcedures() {
        return true; // a CALL's result sets, walked by getMoreResults; a CallableStatement
    }

    @Override
    public boolean supportsStatementPooling() {
        return false;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return false;
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() {
        return false;
    }

    /** MySQL commits implicitly before DDL. */
    @Override
    public boolean dataDefinitionCausesTransactionCommit() {
        return true;
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() {
        return false;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public boolean usesLocalFiles() {
        return false;
    }

    @Override
    public boolean usesLocalFilePerTable() {
        return false;
    }

    @Override
    public boolean nullsAreSortedHigh() {
        return false;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return true;
    }

    @Override
    public boolean nullsAreSortedAtStart() {
        return false;
    }

    @Override
    public boolean nullsAreSortedAtEnd() {
        return false;
    }

    @Override
    public boolean nullPlusNonNullIsNull() {
        return true;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean storesMixedCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean storesLowerCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return false;
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() {
        return false;
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() {
        return false;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return true;
    }

    @Override
    public RowIdLifetime getRowIdLifetime() {
        return RowIdLifetime.ROWID_UNSUPPORTED;
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() {
        return false;
    }

    @Override
    public int getMaxConnections() {
        return 0;
    }

    @Override
    public int getMaxStatements() {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() {
        return 64;
    }

    @Override
    public int getMaxTableNameLength() {
        return 64;
    }

    @Override
    public int getMaxCatalogNameLength() {
        return 32;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlErrors.unwrapSelf(this, iface, "Shardwise database metadata");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
