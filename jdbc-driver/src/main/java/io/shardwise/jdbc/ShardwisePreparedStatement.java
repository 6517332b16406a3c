package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;

/**
 * A client-side prepared statement, as Connector/J's default ({@code useServerPrepStmts=false}):
 * the SQL and its {@code ?} values are kept here and handed to the engine on each execution, where
 * they bind without parsing the literals back out. Batches run entry by entry.
 */
class ShardwisePreparedStatement extends ShardwiseStatement implements PreparedStatement {
    private static final Object UNSET = new Object();

    private final String sql;
    private final boolean wantKeys;
    private final Object[] values;
    private final List<Object[]> batch = new ArrayList<>();
    private final NormalizedSql normalized;

    ShardwisePreparedStatement(ShardwiseConnection connection, String sql, boolean wantKeys) throws SQLException {
        super(connection);
        if (sql == null) {
            throw SqlErrors.illegal("SQL String can not be NULL");
        }
        this.sql = sql;
        this.wantKeys = wantKeys;
        keysRequested(wantKeys);
        try {
            this.normalized = connection.normalizePrepared(sql);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
        this.values = new Object[normalized.parameterCount()];
        Arrays.fill(values, UNSET);
    }

    /** Whether marker {@code index} (0-based) may run without a value: a CallableStatement's OUT parameter. */
    boolean allowsUnset(int index) {
        return false;
    }

    final int parameterCount() {
        return values.length;
    }

    @Override
    NormalizedSql normalized(String text) {
        return text == sql ? normalized : null;
    }

    private List<Object> bound(Object[] row) throws SQLException {
        List<Object> out = new ArrayList<>(row.length);
        for (int i = 0; i < row.length; i++) {
            if (row[i] == UNSET) {
                if (!allowsUnset(i)) {
                    throw new SQLException("No value specified for parameter " + (i + 1), "07001");
                }
                out.add(null);
            } else {
                out.add(row[i]);
            }
        }
        return out;
    }

    private void set(int index, Object value) throws SQLException {
        checkOpen();
        if (index < 1 || index > values.length) {
            throw SqlErrors.illegal("Parameter index out of range (" + index + " > number of parameters, which is "
                    + values.length + ").");
        }
        values[index - 1] = Parameters.asClientSidePrepared(value);
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        return rowsOf(sql, bound(values));
    }

    @Override
    public int executeUpdate() throws SQLException {
        return toInt(countOf(sql, bound(values), wantKeys));
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        return countOf(sql, bound(values), wantKeys);
    }

    @Override
    public boolean execute() throws SQLException {
        return run(sql, bound(values), wantKeys);
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        bound(values);
        batch.add(values.clone());
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<Object[]> rows = List.copyOf(batch);
        batch.clear();
        return runBatch(rows.size(), i -> sql, i -> bound(rows.get(i)));
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(values, UNSET);
    }

    private static SQLException notOnPrepared(String method) {
        return SqlErrors.illegal("Can not call " + method + "(String) on a PreparedStatement");
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw notOnPrepared("executeQuery");
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw notOnPrepared("executeUpdate");
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw notOnPrepared("execute");
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw notOnPrepared("addBatch");
    }

    /**
     * The columns the result will have, described without running the statement (the server face's
     * prepare reply uses the same description); null for a statement without rows, as Connector/J.
     */
    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        List<Column> columns = connection.describe(sql);
        if (columns.isEmpty()) {
            return null;
        }
        ColumnType[] types = new ColumnType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = ColumnType.of(columns.get(i));
        }
        return new ShardwiseResultSetMetaData(columns, types);
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new CountOnlyParameterMetaData(values.length);
    }

    // --- setters

    @Override
    public void setNull(int parameterIndex, int sqlType) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setNull(int parameterIndex, int sqlType, String typeName) throws SQLException {
        set(parameterIndex, null);
    }

    @Override
    public void setBoolean(int parameterIndex, boolean x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setByte(int parameterIndex, byte x) throws SQLException {
        set(parameterIndex, (long) x);
    }

    @Override
    public void setShort(int parameterIndex, short x) throws SQLException {
        set(parameterIndex, (long) x);
    }

    @Override
    public void setInt(int parameterIndex, int x) throws SQLException {
        set(parameterIndex, (long) x);
    }

    @Override
    public void setLong(int parameterIndex, long x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setFloat(int parameterIndex, float x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setDouble(int parameterIndex, double x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setBigDecimal(int parameterIndex, BigDecimal x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setString(int parameterIndex, String x) throws SQLException {
        set(parameterIndex, x);
    }

    @Override
    public void setNString(int parameterIndex, String value) throws SQLException {
        set(parameterIndex, value);
    }

    @Override
    public void setBytes(int parameterIndex, byte[] x) throws SQLException {
        set(parameterIndex, x == null ? null : x.clone());
    }

    @Override
    public void setDate(int parameterIndex, Date x) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofDate(x, null));
    }

    @Override
    public void setDate(int parameterIndex, Date x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofDate(x, cal));
    }

    @Override
    public void setTime(int parameterIndex, Time x) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofTime(x, null));
    }

    @Override
    public void setTime(int parameterIndex, Time x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofTime(x, cal));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofTimestamp(x, null));
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, Calendar cal) throws SQLException {
        set(parameterIndex, x == null ? null : Parameters.ofTimestamp(x, cal));
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        set(parameterIndex, Parameters.ofObject(x));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        set(parameterIndex, Parameters.ofObject(x, targetSqlType, -1));
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        set(parameterIndex, Parameters.ofObject(x, targetSqlType, scaleOrLength));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType) throws SQLException {
        setObject(parameterIndex, x, typeNumber(targetSqlType));
    }

    @Override
    public void setObject(int parameterIndex, Object x, SQLType targetSqlType, int scaleOrLength) throws SQLException {
        setObject(parameterIndex, x, typeNumber(targetSqlType), scaleOrLength);
    }

    private static int typeNumber(SQLType type) throws SQLException {
        if (type == null || type.getVendorTypeNumber() == null) {
            throw SqlErrors.illegal("unknown target SQL type " + type);
        }
        return type.getVendorTypeNumber();
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, int length) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, length));
    }

    @Override
    public void setAsciiStream(int parameterIndex, InputStream x) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, -1));
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int parameterIndex, InputStream x, int length) throws SQLException {
        byte[] b = Parameters.readBytes(x, length);
        set(parameterIndex, b == null ? null : new String(b, java.nio.charset.StandardCharsets.UTF_16BE));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, int length) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, length));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x, long length) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, length));
    }

    @Override
    public void setBinaryStream(int parameterIndex, InputStream x) throws SQLException {
        set(parameterIndex, Parameters.readBytes(x, -1));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, int length) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, length));
    }

    @Override
    public void setCharacterStream(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, -1));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value, long length) throws SQLException {
        set(parameterIndex, Parameters.readChars(value, length));
    }

    @Override
    public void setNCharacterStream(int parameterIndex, Reader value) throws SQLException {
        set(parameterIndex, Parameters.readChars(value, -1));
    }

    @Override
    public void setBlob(int parameterIndex, Blob x) throws SQLException {
        set(parameterIndex, Parameters.ofObject(x));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream, long length) throws SQLException {
        set(parameterIndex, Parameters.readBytes(inputStream, length));
    }

    @Override
    public void setBlob(int parameterIndex, InputStream inputStream) throws SQLException {
        set(parameterIndex, Parameters.readBytes(inputStream, -1));
    }

    @Override
    public void setClob(int parameterIndex, Clob x) throws SQLException {
        set(parameterIndex, Parameters.ofObject(x));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, length));
    }

    @Override
    public void setClob(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, -1));
    }

    @Override
    public void setNClob(int parameterIndex, NClob value) throws SQLException {
        set(parameterIndex, Parameters.ofObject(value));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader, long length) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, length));
    }

    @Override
    public void setNClob(int parameterIndex, Reader reader) throws SQLException {
        set(parameterIndex, Parameters.readChars(reader, -1));
    }

    @Override
    public void setURL(int parameterIndex, URL x) throws SQLException {
        set(parameterIndex, x == null ? null : x.toString());
    }

    @Override
    public void setRef(int parameterIndex, Ref x) throws SQLException {
        throw SqlErrors.unsupported("PreparedStatement.setRef");
    }

    @Override
    public void setArray(int parameterIndex, Array x) throws SQLException {
        throw SqlErrors.unsupported("PreparedStatement.setArray (MySQL has no ARRAY type)");
    }

    @Override
    public void setRowId(int parameterIndex, RowId x) throws SQLException {
        throw SqlErrors.unsupported("PreparedStatement.setRowId");
    }

    @Override
    public void setSQLXML(int parameterIndex, SQLXML xmlObject) throws SQLException {
        throw SqlErrors.unsupported("PreparedStatement.setSQLXML");
    }

    @Override
    public String toString() {
        return "ShardwisePreparedStatement: " + sql;
    }

    /** Connector/J's client-side parameter metadata: the count only; types are unknown without the server. */
    private record CountOnlyParameterMetaData(int count) implements ParameterMetaData {
        private static SQLException notAvailable() {
            return new SQLException("Parameter metadata not available for the given statement", "S1C00");
        }

        private void check(int param) throws SQLException {
            if (param < 1 || param > count) {
                throw SqlErrors.illegal("Parameter index of '" + param + "' is invalid.");
            }
        }

        @Override
        public int getParameterCount() {
            return count;
        }

        @Override
        public int isNullable(int param) throws SQLException {
            check(param);
            return parameterNullableUnknown;
        }

        @Override
        public boolean isSigned(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public int getPrecision(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public int getScale(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public int getParameterType(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public String getParameterTypeName(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public String getParameterClassName(int param) throws SQLException {
            check(param);
            throw notAvailable();
        }

        @Override
        public int getParameterMode(int param) throws SQLException {
            check(param);
            return parameterModeIn;
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return SqlErrors.unwrapSelf(this, iface, "Shardwise parameter metadata");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return iface.isInstance(this);
        }
    }
}
