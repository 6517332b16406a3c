package io.shardwise.jdbc;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;

/**
 * The parts of {@link ResultSet} that follow from its being read-only and addressed by label:
 * every {@code getXxx(String)} resolves the label with {@link #findColumn} and delegates to
 * {@code getXxx(int)}; every update method is refused. Generated from the interface, so no method
 * is forgotten; a subclass supplies the reading by index.
 */
abstract class ResultSetBase implements ResultSet {
    static SQLFeatureNotSupportedException readOnly(String method) {
        return new SQLFeatureNotSupportedException("ResultSet." + method + ": result sets of the Shardwise driver are read-only"
                + " (CONCUR_READ_ONLY); update with SQL statements", "0A000");
    }

    @Override
    public java.sql.Array getArray(String columnLabel) throws SQLException {
        return getArray(findColumn(columnLabel));
    }

    @Override
    public java.io.InputStream getAsciiStream(String columnLabel) throws SQLException {
        return getAsciiStream(findColumn(columnLabel));
    }

    @Deprecated
    @Override
    public java.math.BigDecimal getBigDecimal(String columnLabel, int a1) throws SQLException {
        return getBigDecimal(findColumn(columnLabel), a1);
    }

    @Override
    public java.math.BigDecimal getBigDecimal(String columnLabel) throws SQLException {
        return getBigDecimal(findColumn(columnLabel));
    }

    @Override
    public java.io.InputStream getBinaryStream(String columnLabel) throws SQLException {
        return getBinaryStream(findColumn(columnLabel));
    }

    @Override
    public java.sql.Blob getBlob(String columnLabel) throws SQLException {
        return getBlob(findColumn(columnLabel));
    }

    @Override
    public boolean getBoolean(String columnLabel) throws SQLException {
        return getBoolean(findColumn(columnLabel));
    }

    @Override
    public byte getByte(String columnLabel) throws SQLException {
        return getByte(findColumn(columnLabel));
    }

    @Override
    public byte[] getBytes(String columnLabel) throws SQLException {
        return getBytes(findColumn(columnLabel));
    }

    @Override
    public java.io.Reader getCharacterStream(String columnLabel) throws SQLException {
        return getCharacterStream(findColumn(columnLabel));
    }

    @Override
    public java.sql.Clob getClob(String columnLabel) throws SQLException {
        return getClob(findColumn(columnLabel));
    }

    @Override
    public java.sql.Date getDate(String columnLabel, java.util.Calendar a1) throws SQLException {
        return getDate(findColumn(columnLabel), a1);
    }

    @Override
    public java.sql.Date getDate(String columnLabel) throws SQLException {
        return getDate(findColumn(columnLabel));
    }

    @Override
    public double getDouble(String columnLabel) throws SQLException {
        return getDouble(findColumn(columnLabel));
    }

    @Override
    public float getFloat(String columnLabel) throws SQLException {
        return getFloat(findColumn(columnLabel));
    }

    @Override
    public int getInt(String columnLabel) throws SQLException {
        return getInt(findColumn(columnLabel));
    }

    @Override
    public long getLong(String columnLabel) throws SQLException {
        return getLong(findColumn(columnLabel));
    }

    @Override
    public java.io.Reader getNCharacterStream(String columnLabel) throws SQLException {
        return getNCharacterStream(findColumn(columnLabel));
    }

    @Override
    public java.sql.NClob getNClob(String columnLabel) throws SQLException {
        return getNClob(findColumn(columnLabel));
    }

    @Override
    public String getNString(String columnLabel) throws SQLException {
        return getNString(findColumn(columnLabel));
    }

    @Override
    public <T> T getObject(String columnLabel, Class<T> a1) throws SQLException {
        return getObject(findColumn(columnLabel), a1);
    }

    @Override
    public Object getObject(String columnLabel, java.util.Map<String, Class<?>> a1) throws SQLException {
        return getObject(findColumn(columnLabel), a1);
    }

    @Override
    public Object getObject(String columnLabel) throws SQLException {
        return getObject(findColumn(columnLabel));
    }

    @Override
    public java.sql.Ref getRef(String columnLabel) throws SQLException {
        return getRef(findColumn(columnLabel));
    }

    @Override
    public java.sql.RowId getRowId(String columnLabel) throws SQLException {
        return getRowId(findColumn(columnLabel));
    }

    @Override
    public java.sql.SQLXML getSQLXML(String columnLabel) throws SQLException {
        return getSQLXML(findColumn(columnLabel));
    }

    @Override
    public short getShort(String columnLabel) throws SQLException {
        return getShort(findColumn(columnLabel));
    }

    @Override
    public String getString(String columnLabel) throws SQLException {
        return getString(findColumn(columnLabel));
    }

    @Override
    public java.sql.Time getTime(String columnLabel, java.util.Calendar a1) throws SQLException {
        return getTime(findColumn(columnLabel), a1);
    }

    @Override
    public java.sql.Time getTime(String columnLabel) throws SQLException {
        return getTime(findColumn(columnLabel));
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel, java.util.Calendar a1) throws SQLException {
        return getTimestamp(findColumn(columnLabel), a1);
    }

    @Override
    public java.sql.Timestamp getTimestamp(String columnLabel) throws SQLException {
        return getTimestamp(findColumn(columnLabel));
    }

    @Override
    public java.net.URL getURL(String columnLabel) throws SQLException {
        return getURL(findColumn(columnLabel));
    }

    @Deprecated
    @Override
    public java.io.InputStream getUnicodeStream(String columnLabel) throws SQLException {
        return getUnicodeStream(findColumn(columnLabel));
    }

    @Override
    public void cancelRowUpdates() throws SQLException {
        throw readOnly("cancelRowUpdates");
    }
    @Override
    public void deleteRow() throws SQLException {
        throw readOnly("deleteRow");
    }
    @Override
    public void insertRow() throws SQLException {
        throw readOnly("insertRow");
    }
    @Override
    public void moveToCurrentRow() throws SQLException {
        throw readOnly("moveToCurrentRow");
    }
    @Override
    public void moveToInsertRow() throws SQLException {
        throw readOnly("moveToInsertRow");
    }
    @Override
    public void refreshRow() throws SQLException {
        throw readOnly("refreshRow");
    }
    @Override
    public boolean rowDeleted() throws SQLException {
        throw readOnly("rowDeleted");
    }
    @Override
    public boolean rowInserted() throws SQLException {
        throw readOnly("rowInserted");
    }
    @Override
    public boolean rowUpdated() throws SQLException {
        throw readOnly("rowUpdated");
    }
    @Override
    public void updateArray(String a0, java.sql.Array a1) throws SQLException {
        throw readOnly("updateArray");
    }
    @Override
    public void updateArray(int a0, java.sql.Array a1) throws SQLException {
        throw readOnly("updateArray");
    }
    @Override
    public void updateAsciiStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateAsciiStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateAsciiStream(String a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateAsciiStream");
    }
    @Override
    public void updateBigDecimal(String a0, java.math.BigDecimal a1) throws SQLException {
        throw readOnly("updateBigDecimal");
    }
    @Override
    public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws SQLException {
        throw readOnly("updateBigDecimal");
    }
    @Override
    public void updateBinaryStream(String a0, java.io.InputStream a1, int a2) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBinaryStream(String a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBinaryStream(String a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1, int a2) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateBinaryStream");
    }
    @Override
    public void updateBlob(String a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBlob(String a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBlob(String a0, java.sql.Blob a1) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBlob(int a0, java.io.InputStream a1, long a2) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBlob(int a0, java.io.InputStream a1) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBlob(int a0, java.sql.Blob a1) throws SQLException {
        throw readOnly("updateBlob");
    }
    @Override
    public void updateBoolean(String a0, boolean a1) throws SQLException {
        throw readOnly("updateBoolean");
    }
    @Override
    public void updateBoolean(int a0, boolean a1) throws SQLException {
        throw readOnly("updateBoolean");
    }
    @Override
    public void updateByte(String a0, byte a1) throws SQLException {
        throw readOnly("updateByte");
    }
    @Override
    public void updateByte(int a0, byte a1) throws SQLException {
        throw readOnly("updateByte");
    }
    @Override
    public void updateBytes(String a0, byte[] a1) throws SQLException {
        throw readOnly("updateBytes");
    }
    @Override
    public void updateBytes(int a0, byte[] a1) throws SQLException {
        throw readOnly("updateBytes");
    }
    @Override
    public void updateCharacterStream(String a0, java.io.Reader a1, int a2) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateCharacterStream(String a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1, int a2) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateCharacterStream");
    }
    @Override
    public void updateClob(String a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateClob(String a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateClob(String a0, java.sql.Clob a1) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateClob(int a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateClob(int a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateClob(int a0, java.sql.Clob a1) throws SQLException {
        throw readOnly("updateClob");
    }
    @Override
    public void updateDate(String a0, java.sql.Date a1) throws SQLException {
        throw readOnly("updateDate");
    }
    @Override
    public void updateDate(int a0, java.sql.Date a1) throws SQLException {
        throw readOnly("updateDate");
    }
    @Override
    public void updateDouble(String a0, double a1) throws SQLException {
        throw readOnly("updateDouble");
    }
    @Override
    public void updateDouble(int a0, double a1) throws SQLException {
        throw readOnly("updateDouble");
    }
    @Override
    public void updateFloat(String a0, float a1) throws SQLException {
        throw readOnly("updateFloat");
    }
    @Override
    public void updateFloat(int a0, float a1) throws SQLException {
        throw readOnly("updateFloat");
    }
    @Override
    public void updateInt(String a0, int a1) throws SQLException {
        throw readOnly("updateInt");
    }
    @Override
    public void updateInt(int a0, int a1) throws SQLException {
        throw readOnly("updateInt");
    }
    @Override
    public void updateLong(String a0, long a1) throws SQLException {
        throw readOnly("updateLong");
    }
    @Override
    public void updateLong(int a0, long a1) throws SQLException {
        throw readOnly("updateLong");
    }
    @Override
    public void updateNCharacterStream(String a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }
    @Override
    public void updateNCharacterStream(String a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }
    @Override
    public void updateNCharacterStream(int a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }
    @Override
    public void updateNCharacterStream(int a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateNCharacterStream");
    }
    @Override
    public void updateNClob(String a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNClob(String a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNClob(String a0, java.sql.NClob a1) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNClob(int a0, java.io.Reader a1, long a2) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNClob(int a0, java.io.Reader a1) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNClob(int a0, java.sql.NClob a1) throws SQLException {
        throw readOnly("updateNClob");
    }
    @Override
    public void updateNString(String a0, String a1) throws SQLException {
        throw readOnly("updateNString");
    }
    @Override
    public void updateNString(int a0, String a1) throws SQLException {
        throw readOnly("updateNString");
    }
    @Override
    public void updateNull(String a0) throws SQLException {
        throw readOnly("updateNull");
    }
    @Override
    public void updateNull(int a0) throws SQLException {
        throw readOnly("updateNull");
    }
    @Override
    public void updateObject(String a0, Object a1, int a2) throws SQLException {
        throw readOnly("updateObject");
    }
    @Override
    public void updateObject(String a0, Object a1) throws SQLException {
        throw readOnly("updateObject");
    }
    @Override
    public void updateObject(int a0, Object a1, int a2) throws SQLException {
        throw readOnly("updateObject");
    }
    @Override
    public void updateObject(int a0, Object a1) throws SQLException {
        throw readOnly("updateObject");
    }
    @Override
    public void updateRef(String a0, java.sql.Ref a1) throws SQLException {
        throw readOnly("updateRef");
    }
    @Override
    public void updateRef(int a0, java.sql.Ref a1) throws SQLException {
        throw readOnly("updateRef");
    }
    @Override
    public void updateRow() throws SQLException {
        throw readOnly("updateRow");
    }
    @Override
    public void updateRowId(String a0, java.sql.RowId a1) throws SQLException {
        throw readOnly("updateRowId");
    }
    @Override
    public void updateRowId(int a0, java.sql.RowId a1) throws SQLException {
        throw readOnly("updateRowId");
    }
    @Override
    public void updateSQLXML(String a0, java.sql.SQLXML a1) throws SQLException {
        throw readOnly("updateSQLXML");
    }
    @Override
    public void updateSQLXML(int a0, java.sql.SQLXML a1) throws SQLException {
        throw readOnly("updateSQLXML");
    }
    @Override
    public void updateShort(String a0, short a1) throws SQLException {
        throw readOnly("updateShort");
    }
    @Override
    public void updateShort(int a0, short a1) throws SQLException {
        throw readOnly("updateShort");
    }
    @Override
    public void updateString(String a0, String a1) throws SQLException {
        throw readOnly("updateString");
    }
    @Override
    public void updateString(int a0, String a1) throws SQLException {
        throw readOnly("updateString");
    }
    @Override
    public void updateTime(String a0, java.sql.Time a1) throws SQLException {
        throw readOnly("updateTime");
    }
    @Override
    public void updateTime(int a0, java.sql.Time a1) throws SQLException {
        throw readOnly("updateTime");
    }
    @Override
    public void updateTimestamp(String a0, java.sql.Timestamp a1) throws SQLException {
        throw readOnly("updateTimestamp");
    }
    @Override
    public void updateTimestamp(int a0, java.sql.Timestamp a1) throws SQLException {
        throw readOnly("updateTimestamp");
    }
}
