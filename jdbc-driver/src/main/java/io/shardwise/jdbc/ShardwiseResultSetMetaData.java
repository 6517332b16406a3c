package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/**
 * A result's column descriptions as Connector/J derives them from the column-definition packets
 * (with {@code databaseTerm=CATALOG} and {@code useOldAliasMetadataBehavior=false}): the catalog is
 * the logical schema, table and column names are the originals, labels are what the query wrote,
 * and precision is the length in characters (bytes for BLOBs; digits for DECIMAL).
 */
final class ShardwiseResultSetMetaData implements ResultSetMetaData {
    private final List<Column> columns;
    private final ColumnType[] types;

    ShardwiseResultSetMetaData(List<Column> columns, ColumnType[] types) {
        this.columns = columns;
        this.types = types;
    }

    private Column column(int i) throws SQLException {
        if (i < 1 || i > columns.size()) {
            throw SqlErrors.illegal("Column index out of range: " + i + " (there are " + columns.size() + ")");
        }
        return columns.get(i - 1);
    }

    private ColumnType type(int i) throws SQLException {
        column(i);
        return types[i - 1];
    }

    private static int clampedLength(Column c) {
        return (int) Math.min(c.length(), Integer.MAX_VALUE);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        return (column(column).flags() & ColumnType.FLAG_AUTO_INCREMENT) != 0;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        Column c = column(column);
        return switch (type(column).jdbcType) {
            case Types.BIT, Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE,
                 Types.DATE, Types.TIME, Types.TIMESTAMP -> false;
            // by the collation alone, as Connector/J: a _bin column converted to the results' utf8mb4_0900_ai_ci
            // carries the BINARY flag and the _ci collation, and reads as case-insensitive
            case Types.CHAR, Types.VARCHAR -> ColumnType.isCaseSensitiveCollation(c.collation());
            // a TEXT or JSON column of a _bin collation: Connector/J reads its collation's name (not _ci), where the
            // engine may hold an id the table above lacks (MariaDB's), and the BINARY flag says the same
            case Types.LONGVARCHAR -> (c.flags() & Column.FLAG_BINARY) != 0 || ColumnType.isCaseSensitiveCollation(c.collation());
            default -> true;
        };
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).isNotNull() ? columnNoNulls : columnNullable;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        ColumnType t = type(column);
        return switch (t.jdbcType) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT, Types.FLOAT, Types.REAL, Types.DOUBLE, Types.NUMERIC,
                 Types.DECIMAL -> !column(column).isUnsigned();
            default -> false;
        };
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        Column c = column(column);
        return clampedLength(c) / ColumnType.maxBytesPerChar(c.collation());
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        Column c = column(column);
        return c.orgName().isEmpty() ? c.name() : c.orgName();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        Column c = column(column);
        ColumnType t = type(column);
        if (t.isNumeric()) {
            return clampedLength(c); // Connector/J's Field length already counts digits for numbers
        }
        return switch (t) {
            case TINYBLOB, BLOB, MEDIUMBLOB, LONGBLOB -> clampedLength(c);
            default -> clampedLength(c) / ColumnType.maxBytesPerChar(c.collation());
        };
    }

    @Override
    public int getScale(int column) throws SQLException {
        return type(column).isNumeric() ? column(column).decimals() : 0;
    }

    @Override
    public String getTableName(int column) throws SQLException {
        return column(column).orgTable();
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        return column(column).schema();
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return type(column).jdbcType;
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return type(column).typeName;
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        Column c = column(column);
        return c.orgName().isEmpty() && c.orgTable().isEmpty();
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        return isWritable(column);
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return type(column).className;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlErrors.unwrapSelf(this, iface, "Shardwise result set metadata");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
