package io.shardwise.jdbc;

import io.shardwise.core.execute.ResultCursor;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLType;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.BitSet;
import java.util.Calendar;
import java.util.Map;

/**
 * A CALL with IN, OUT and INOUT {@code ?} parameters, as Connector/J's CallableStatement: the
 * markers {@code registerOutParameter} names come back after execution, read with the getters by
 * position; the procedure's result sets and final update count are walked with
 * {@code getResultSet}/{@code getMoreResults}. The engine runs the CALL with those markers as user
 * variables on one backend connection ({@code EngineSession.call}). Accepts JDBC's escape
 * {@code {call p(?, ?)}} and plain {@code CALL p(?, ?)}; a function call {@code {? = call f(?)}} and
 * parameters by name are refused (SQLFeatureNotSupportedException).
 *
 * <p>Most of this class is the interface's getters, each reading the OUT row as a result set would.
 */
final class ShardwiseCallableStatement extends ShardwisePreparedStatement implements CallableStatement {
    private final BitSet out = new BitSet();
    /** The OUT values of the last execution: one row, a column per OUT marker in marker order. */
    private ShardwiseResultSet outRow;

    ShardwiseCallableStatement(ShardwiseConnection connection, String sql) throws SQLException {
        super(connection, callText(sql), false);
    }

    /** {@code {call p(...)}} as the CALL statement it stands for. */
    static String callText(String sql) throws SQLException {
        if (sql == null) {
            throw SqlErrors.illegal("SQL String can not be NULL");
        }
        String s = sql.strip();
        if (!s.startsWith("{")) {
            return sql;
        }
        if (!s.endsWith("}")) {
            throw new SQLException("Unterminated escape sequence in '" + sql + "'", "42000");
        }
        String inner = s.substring(1, s.length() - 1).strip();
        if (inner.regionMatches(true, 0, "call", 0, 4) && inner.length() > 4 && !Character.isLetterOrDigit(inner.charAt(4))
                && inner.charAt(4) != '_') {
            return "CALL" + inner.substring(4);
        }
        throw SqlErrors.unsupported("the function call escape {? = call ...}; use SELECT f(?)");
    }

    @Override
    BitSet outMarkers() {
        return out;
    }

    @Override
    boolean allowsUnset(int index) {
        return out.get(index); // an OUT parameter needs no value
    }

    @Override
    void outParameters(ResultCursor cursor) throws SQLException {
        if (outRow != null) {
            outRow.close();
        }
        outRow = new ShardwiseResultSet(null, connection, cursor, 0);
        outRow.next();
    }

    private void registerOut(int parameterIndex) throws SQLException {
        checkOpen();
        if (parameterIndex < 1 || parameterIndex > parameterCount()) {
            throw SqlErrors.illegal("Parameter index of " + parameterIndex + " is out of range (1, " + parameterCount() + ")");
        }
        out.set(parameterIndex - 1);
    }

    private ShardwiseResultSet outRow() throws SQLException {
        checkOpen();
        if (outRow == null) {
            throw SqlErrors.illegal("No output parameters returned by procedure.");
        }
        return outRow;
    }

    /** The OUT row's column of marker {@code parameterIndex}. */
    private int outColumn(int parameterIndex) throws SQLException {
        if (parameterIndex < 1 || !out.get(parameterIndex - 1)) {
            throw SqlErrors.illegal("Parameter number " + parameterIndex + " is not an OUT parameter");
        }
        return out.get(0, parameterIndex).cardinality();
    }

    private static SQLException namedParameters() {
        return SqlErrors.unsupported("CallableStatement parameters by name (use their positions)");
    }

    @Override
    public void close() throws SQLException {
        try {
            if (outRow != null) {
                outRow.close();
                outRow = null;
            }
        } finally {
            super.close();
        }
    }

    @Override
    public void registerOutParameter(int parameterIndex, int x) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public void registerOutParameter(int parameterIndex, int x, int y) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public boolean wasNull() throws SQLException {
        return outRow().wasNull();
    }

    @Override
    public String getString(int parameterIndex) throws SQLException {
        return outRow().getString(outColumn(parameterIndex));
    }

    @Override
    public boolean getBoolean(int parameterIndex) throws SQLException {
        return outRow().getBoolean(outColumn(parameterIndex));
    }

    @Override
    public byte getByte(int parameterIndex) throws SQLException {
        return outRow().getByte(outColumn(parameterIndex));
    }

    @Override
    public short getShort(int parameterIndex) throws SQLException {
        return outRow().getShort(outColumn(parameterIndex));
    }

    @Override
    public int getInt(int parameterIndex) throws SQLException {
        return outRow().getInt(outColumn(parameterIndex));
    }

    @Override
    public long getLong(int parameterIndex) throws SQLException {
        return outRow().getLong(outColumn(parameterIndex));
    }

    @Override
    public float getFloat(int parameterIndex) throws SQLException {
        return outRow().getFloat(outColumn(parameterIndex));
    }

    @Override
    public double getDouble(int parameterIndex) throws SQLException {
        return outRow().getDouble(outColumn(parameterIndex));
    }

    @Override
    @Deprecated
    @SuppressWarnings("deprecation")
    public BigDecimal getBigDecimal(int parameterIndex, int x) throws SQLException {
        return outRow().getBigDecimal(outColumn(parameterIndex), x);
    }

    @Override
    public byte[] getBytes(int parameterIndex) throws SQLException {
        return outRow().getBytes(outColumn(parameterIndex));
    }

    @Override
    public Date getDate(int parameterIndex) throws SQLException {
        return outRow().getDate(outColumn(parameterIndex));
    }

    @Override
    public Time getTime(int parameterIndex) throws SQLException {
        return outRow().getTime(outColumn(parameterIndex));
    }

    @Override
    public Timestamp getTimestamp(int parameterIndex) throws SQLException {
        return outRow().getTimestamp(outColumn(parameterIndex));
    }

    @Override
    public Object getObject(int parameterIndex) throws SQLException {
        return outRow().getObject(outColumn(parameterIndex));
    }

    @Override
    public BigDecimal getBigDecimal(int parameterIndex) throws SQLException {
        return outRow().getBigDecimal(outColumn(parameterIndex));
    }

    @Override
    public Object getObject(int parameterIndex, Map<String, Class<?>> x) throws SQLException {
        return outRow().getObject(outColumn(parameterIndex), x);
    }

    @Override
    public Ref getRef(int parameterIndex) throws SQLException {
        return outRow().getRef(outColumn(parameterIndex));
    }

    @Override
    public Blob getBlob(int parameterIndex) throws SQLException {
        return outRow().getBlob(outColumn(parameterIndex));
    }

    @Override
    public Clob getClob(int parameterIndex) throws SQLException {
        return outRow().getClob(outColumn(parameterIndex));
    }

    @Override
    public Array getArray(int parameterIndex) throws SQLException {
        return outRow().getArray(outColumn(parameterIndex));
    }

    @Override
    public Date getDate(int parameterIndex, Calendar x) throws SQLException {
        return outRow().getDate(outColumn(parameterIndex), x);
    }

    @Override
    public Time getTime(int parameterIndex, Calendar x) throws SQLException {
        return outRow().getTime(outColumn(parameterIndex), x);
    }

    @Override
    public Timestamp getTimestamp(int parameterIndex, Calendar x) throws SQLException {
        return outRow().getTimestamp(outColumn(parameterIndex), x);
    }

    @Override
    public void registerOutParameter(int parameterIndex, int x, String y) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public void registerOutParameter(String parameterName, int x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, int x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, int x, String y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public URL getURL(int parameterIndex) throws SQLException {
        return outRow().getURL(outColumn(parameterIndex));
    }

    @Override
    public void setURL(String parameterName, URL x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNull(String parameterName, int x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBoolean(String parameterName, boolean x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setByte(String parameterName, byte x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setShort(String parameterName, short x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setInt(String parameterName, int x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setLong(String parameterName, long x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setFloat(String parameterName, float x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDouble(String parameterName, double x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBigDecimal(String parameterName, BigDecimal x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setString(String parameterName, String x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBytes(String parameterName, byte[] x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDate(String parameterName, Date x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTime(String parameterName, Time x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTimestamp(String parameterName, Timestamp x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object x, int y, int z) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setDate(String parameterName, Date x, Calendar y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTime(String parameterName, Time x, Calendar y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setTimestamp(String parameterName, Timestamp x, Calendar y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNull(String parameterName, int x, String y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public String getString(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public boolean getBoolean(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public byte getByte(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public short getShort(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public int getInt(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public long getLong(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public float getFloat(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public double getDouble(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public byte[] getBytes(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Date getDate(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Time getTime(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Timestamp getTimestamp(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Object getObject(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public BigDecimal getBigDecimal(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Object getObject(String parameterName, Map<String, Class<?>> x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Ref getRef(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Blob getBlob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Clob getClob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Array getArray(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Date getDate(String parameterName, Calendar x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Time getTime(String parameterName, Calendar x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Timestamp getTimestamp(String parameterName, Calendar x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public URL getURL(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public RowId getRowId(int parameterIndex) throws SQLException {
        return outRow().getRowId(outColumn(parameterIndex));
    }

    @Override
    public RowId getRowId(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setRowId(String parameterName, RowId x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNString(String parameterName, String x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, NClob x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Reader x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, InputStream x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, Reader x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public NClob getNClob(int parameterIndex) throws SQLException {
        return outRow().getNClob(outColumn(parameterIndex));
    }

    @Override
    public NClob getNClob(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setSQLXML(String parameterName, SQLXML x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public SQLXML getSQLXML(int parameterIndex) throws SQLException {
        return outRow().getSQLXML(outColumn(parameterIndex));
    }

    @Override
    public SQLXML getSQLXML(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public String getNString(int parameterIndex) throws SQLException {
        return outRow().getNString(outColumn(parameterIndex));
    }

    @Override
    public String getNString(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Reader getNCharacterStream(int parameterIndex) throws SQLException {
        return outRow().getNCharacterStream(outColumn(parameterIndex));
    }

    @Override
    public Reader getNCharacterStream(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public Reader getCharacterStream(int parameterIndex) throws SQLException {
        return outRow().getCharacterStream(outColumn(parameterIndex));
    }

    @Override
    public Reader getCharacterStream(String parameterName) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, Blob x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Clob x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader x, long y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setAsciiStream(String parameterName, InputStream x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBinaryStream(String parameterName, InputStream x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setCharacterStream(String parameterName, Reader x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNCharacterStream(String parameterName, Reader x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setClob(String parameterName, Reader x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setBlob(String parameterName, InputStream x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setNClob(String parameterName, Reader x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public <T> T getObject(int parameterIndex, Class<T> x) throws SQLException {
        return outRow().getObject(outColumn(parameterIndex), x);
    }

    @Override
    public <T> T getObject(String parameterName, Class<T> x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object x, SQLType y, int z) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void setObject(String parameterName, Object x, SQLType y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType x) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType x, int y) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public void registerOutParameter(int parameterIndex, SQLType x, String y) throws SQLException {
        registerOut(parameterIndex);
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType x) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType x, int y) throws SQLException {
        throw namedParameters();
    }

    @Override
    public void registerOutParameter(String parameterName, SQLType x, String y) throws SQLException {
        throw namedParameters();
    }
}
