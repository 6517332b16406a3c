package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A forward-only, read-only result over an engine {@link ResultCursor}: rows stream from the
 * backends as the application reads them. Values are decoded from MySQL's text-protocol bytes by
 * {@link TextValues} into the classes Connector/J returns ({@link ColumnType}).
 *
 * <p>Size: over the ~300-line guide because JDBC asks for every getter; each is one line over
 * {@link #raw}.
 *
 * <p>Hazard: a cursor's bytes are valid only until its next row; getters decode or copy them at
 * once and never keep them.
 */
final class ShardwiseResultSet extends ResultSetBase {
    private static final byte[][] NO_ROW = new byte[0][];

    private final ShardwiseStatement statement;
    private final ShardwiseConnection connection;
    private ResultCursor cursor;
    private final List<Column> columns;
    private final ColumnType[] types;
    private final long maxRows;
    private Map<String, Integer> labels;
    private long row;
    private boolean onRow;
    private boolean after;
    private boolean closed;
    private boolean wasNull;
    private int fetchSize;

    ShardwiseResultSet(ShardwiseStatement statement, ShardwiseConnection connection, ResultCursor cursor, long maxRows) {
        this.statement = statement;
        this.connection = connection;
        this.cursor = cursor;
        this.columns = cursor.columns();
        this.types = new ColumnType[columns.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = ColumnType.of(columns.get(i));
        }
        this.maxRows = maxRows;
        if (connection != null) {
            connection.opened(this);
        }
    }

    static ShardwiseResultSet empty(ShardwiseStatement statement, ShardwiseConnection connection) {
        return new ShardwiseResultSet(statement, connection, new ListCursor(List.of(), List.of()), 0);
    }

    /** Connector/J's shape: one BIGINT UNSIGNED column named GENERATED_KEY. */
    static ShardwiseResultSet generatedKeys(ShardwiseStatement statement, ShardwiseConnection connection, List<Object> keys) {
        Column key = new Column("", "", "", "GENERATED_KEY", "", Column.BINARY_COLLATION, 20, 8,
                Column.FLAG_UNSIGNED | Column.FLAG_BINARY, 0);
        List<byte[][]> rows = new ArrayList<>(keys.size());
        for (Object k : keys) {
            rows.add(new byte[][] {k == null ? null : k.toString().getBytes(StandardCharsets.UTF_8)});
        }
        return new ShardwiseResultSet(statement, connection, new ListCursor(List.of(key), rows), 0);
    }

    /** A metadata result: the given columns, text rows. */
    static ShardwiseResultSet ofRows(ShardwiseConnection connection, List<Column> columns, List<String[]> rows) {
        List<byte[][]> out = new ArrayList<>(rows.size());
        for (String[] r : rows) {
            byte[][] b = new byte[r.length][];
            for (int i = 0; i < r.length; i++) {
                b[i] = r[i] == null ? null : r[i].getBytes(StandardCharsets.UTF_8);
            }
            out.add(b);
        }
        return new ShardwiseResultSet(null, connection, new ListCursor(columns, out), 0);
    }

    /**
     * Reads the rest of the rows (and the current one) into memory, so the connection can run its
     * next statement on the transaction connection this result streams from.
     */
    void bufferRemainingRows() {
        if (closed || cursor instanceof ListCursor) {
            return;
        }
        List<byte[][]> rest = new ArrayList<>();
        if (onRow) {
            rest.add(copyRow());
        }
        long limit = maxRows > 0 ? maxRows - row : Long.MAX_VALUE;
        while (rest.size() - (onRow ? 1 : 0) < limit && cursor.next()) {
            rest.add(copyRow());
        }
        cursor.close();
        cursor = new ListCursor(columns, rest);
        if (onRow) {
            cursor.next();
        }
    }

    private byte[][] copyRow() {
        byte[][] r = new byte[columns.size()][];
        for (int i = 0; i < r.length; i++) {
            byte[] v = cursor.get(i);
            r[i] = v == null ? null : v.clone();
        }
        return r;
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("Operation not allowed after ResultSet closed", "S1000");
        }
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (after) {
            return false;
        }
        if (maxRows > 0 && row >= maxRows) {
            onRow = false;
            after = true;
            return false;
        }
        boolean has;
        try {
            has = cursor.next();
        } catch (RuntimeException e) {
            onRow = false;
            after = true;
            SQLException translated = SqlErrors.translate(e);
            throw statement == null ? translated : statement.explain(translated);
        }
        onRow = has;
        after = !has;
        if (!has && statement != null) {
            statement.stopTimer();
        }
        if (has) {
            row++;
        }
        return has;
    }

    /** The current row's value of a 1-based column; sets {@link #wasNull}. */
    private byte[] raw(int column) throws SQLException {
        checkOpen();
        if (!onRow) {
            throw new SQLException(after ? "After end of result set" : "Before start of result set", "S1100");
        }
        if (column < 1 || column > types.length) {
            throw SqlErrors.illegal("Column Index out of range, " + column + " > " + types.length + ".");
        }
        byte[] v = cursor.get(column - 1);
        wasNull = v == null;
        return v;
    }

    private ColumnType type(int column) {
        return types[column - 1];
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closeFromStatement();
        if (statement != null) {
            statement.resultClosed(this);
        }
    }

    void closeFromStatement() {
        if (closed) {
            return;
        }
        closed = true;
        onRow = false;
        try {
            cursor.close();
        } finally {
            if (connection != null) {
                connection.closed(this);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    // --- getters by index

    @Override
    public String getString(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? null : TextValues.string(v, type(columnIndex));
    }

    @Override
    public boolean getBoolean(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v != null && TextValues.bool(v, type(columnIndex));
    }

    @Override
    public byte getByte(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : (byte) TextValues.whole(v, type(columnIndex), Byte.MIN_VALUE, Byte.MAX_VALUE, "java.lang.Byte");
    }

    @Override
    public short getShort(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : (short) TextValues.whole(v, type(columnIndex), Short.MIN_VALUE, Short.MAX_VALUE, "java.lang.Short");
    }

    @Override
    public int getInt(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : (int) TextValues.whole(v, type(columnIndex), Integer.MIN_VALUE, Integer.MAX_VALUE, "java.lang.Integer");
    }

    @Override
    public long getLong(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : TextValues.whole(v, type(columnIndex), Long.MIN_VALUE, Long.MAX_VALUE, "java.lang.Long");
    }

    @Override
    public float getFloat(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : TextValues.single(v, type(columnIndex));
    }

    @Override
    public double getDouble(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? 0 : TextValues.real(v, type(columnIndex), "java.lang.Double");
    }

    @Override
    public BigDecimal getBigDecimal(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? null : TextValues.decimal(v, type(columnIndex));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int columnIndex, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(columnIndex);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? null : v.clone();
    }

    @Override
    public Date getDate(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? null : Date.valueOf(TextValues.date(v, type(columnIndex)));
    }

    @Override
    public Date getDate(int columnIndex, Calendar cal) throws SQLException {
        byte[] v = raw(columnIndex);
        if (v == null) {
            return null;
        }
        LocalDate d = TextValues.date(v, type(columnIndex));
        return cal == null ? Date.valueOf(d) : new Date(d.atStartOfDay(cal.getTimeZone().toZoneId()).toInstant().toEpochMilli());
    }

    @Override
    public Time getTime(int columnIndex) throws SQLException {
        return getTime(columnIndex, null);
    }

    /** Keeps milliseconds, as Connector/J does (Time.valueOf would drop them). */
    @Override
    public Time getTime(int columnIndex, Calendar cal) throws SQLException {
        byte[] v = raw(columnIndex);
        if (v == null) {
            return null;
        }
        LocalTime t = TextValues.time(v, type(columnIndex));
        ZoneId zone = cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
        return new Time(LocalDate.of(1970, 1, 1).atTime(t).atZone(zone).toInstant().toEpochMilli());
    }

    @Override
    public Timestamp getTimestamp(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        return v == null ? null : Timestamp.valueOf(TextValues.dateTime(v, type(columnIndex)));
    }

    @Override
    public Timestamp getTimestamp(int columnIndex, Calendar cal) throws SQLException {
        byte[] v = raw(columnIndex);
        if (v == null) {
            return null;
        }
        LocalDateTime t = TextValues.dateTime(v, type(columnIndex));
        return cal == null ? Timestamp.valueOf(t) : Timestamp.from(t.atZone(cal.getTimeZone().toZoneId()).toInstant());
    }

    /** The class Connector/J returns for the column's type; see {@link ColumnType#className}. */
    @Override
    public Object getObject(int columnIndex) throws SQLException {
        byte[] v = raw(columnIndex);
        if (v == null) {
            return null;
        }
        ColumnType t = type(columnIndex);
        return switch (t.family) {
            case INTEGER -> (int) TextValues.whole(v, t, Integer.MIN_VALUE, Integer.MAX_VALUE, "java.lang.Integer");
            case LONG -> TextValues.whole(v, t, Long.MIN_VALUE, Long.MAX_VALUE, "java.lang.Long");
            case BIG_INTEGER -> TextValues.bigInteger(v, t);
            case BOOLEAN -> TextValues.bool(v, t);
            case BIT -> columns.get(columnIndex - 1).length() <= 1 ? TextValues.bool(v, t) : v.clone();
            case DECIMAL -> TextValues.decimal(v, t);
            case FLOAT -> TextValues.single(v, t);
            case DOUBLE -> TextValues.real(v, t, "java.lang.Double");
            case DATE, YEAR -> Date.valueOf(TextValues.date(v, t));
            case TIME -> getTime(columnIndex);
            case DATETIME -> TextValues.dateTime(v, t);
            case TIMESTAMP -> Timestamp.valueOf(TextValues.dateTime(v, t));
            case TEXT -> TextValues.text(v);
            case BYTES -> v.clone();
        };
    }

    @Override
    public Object getObject(int columnIndex, Map<String, Class<?>> map) throws SQLException {
        return getObject(columnIndex);
    }

    @Override
    public <T> T getObject(int columnIndex, Class<T> type) throws SQLException {
        if (type == null) {
            throw SqlErrors.illegal("Type parameter can not be null");
        }
        Object value = objectAs(columnIndex, type);
        return wasNull ? null : type.cast(value);
    }

    private Object objectAs(int columnIndex, Class<?> type) throws SQLException {
        if (type == String.class) {
            return getString(columnIndex);
        } else if (type == BigDecimal.class) {
            return getBigDecimal(columnIndex);
        } else if (type == BigInteger.class) {
            byte[] v = raw(columnIndex);
            return v == null ? null : TextValues.bigInteger(v, type(columnIndex));
        } else if (type == Boolean.class) {
            return getBoolean(columnIndex);
        } else if (type == Integer.class) {
            return getInt(columnIndex);
        } else if (type == Long.class) {
            return getLong(columnIndex);
        } else if (type == Short.class) {
            return getShort(columnIndex);
        } else if (type == Byte.class) {
            return getByte(columnIndex);
        } else if (type == Float.class) {
            return getFloat(columnIndex);
        } else if (type == Double.class) {
            return getDouble(columnIndex);
        } else if (type == byte[].class) {
            return getBytes(columnIndex);
        } else if (type == Date.class) {
            return getDate(columnIndex);
        } else if (type == Time.class) {
            return getTime(columnIndex);
        } else if (type == Timestamp.class || type == java.util.Date.class) {
            return getTimestamp(columnIndex);
        } else if (type == LocalDate.class) {
            byte[] v = raw(columnIndex);
            return v == null ? null : TextValues.date(v, type(columnIndex));
        } else if (type == LocalDateTime.class) {
            byte[] v = raw(columnIndex);
            return v == null ? null : TextValues.dateTime(v, type(columnIndex));
        } else if (type == LocalTime.class) {
            byte[] v = raw(columnIndex);
            return v == null ? null : TextValues.time(v, type(columnIndex));
        } else if (type == OffsetDateTime.class || type == ZonedDateTime.class || type == Instant.class) {
            byte[] v = raw(columnIndex);
            if (v == null) {
                return null;
            }
            ZonedDateTime z = TextValues.dateTime(v, type(columnIndex)).atZone(ZoneId.systemDefault());
            return type == ZonedDateTime.class ? z : type == Instant.class ? z.toInstant() : z.toOffsetDateTime();
        } else if (type == Blob.class) {
            return getBlob(columnIndex);
        } else if (type == Clob.class) {
            return getClob(columnIndex);
        } else if (type == Object.class) {
            return getObject(columnIndex);
        }
        throw SqlErrors.illegal("Conversion not supported for type " + type.getName());
    }

    @Override
    public InputStream getAsciiStream(int columnIndex) throws SQLException {
        return getBinaryStream(columnIndex);
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_16BE));
    }

    @Override
    public InputStream getBinaryStream(int columnIndex) throws SQLException {
        byte[] v = getBytes(columnIndex);
        return v == null ? null : new ByteArrayInputStream(v);
    }

    @Override
    public Reader getCharacterStream(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getNCharacterStream(int columnIndex) throws SQLException {
        return getCharacterStream(columnIndex);
    }

    @Override
    public String getNString(int columnIndex) throws SQLException {
        return getString(columnIndex);
    }

    @Override
    public Blob getBlob(int columnIndex) throws SQLException {
        byte[] v = getBytes(columnIndex);
        return v == null ? null : new javax.sql.rowset.serial.SerialBlob(v);
    }

    @Override
    public Clob getClob(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        return s == null ? null : new javax.sql.rowset.serial.SerialClob(s.toCharArray());
    }

    @Override
    public NClob getNClob(int columnIndex) throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getNClob");
    }

    @Override
    public URL getURL(int columnIndex) throws SQLException {
        String s = getString(columnIndex);
        if (s == null) {
            return null;
        }
        try {
            return URI.create(s).toURL();
        } catch (MalformedURLException | IllegalArgumentException e) {
            throw new SQLException("Malformed URL '" + s + "'", "S1009", e);
        }
    }

    @Override
    public Ref getRef(int columnIndex) throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getRef");
    }

    @Override
    public Array getArray(int columnIndex) throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getArray (MySQL has no ARRAY type)");
    }

    @Override
    public RowId getRowId(int columnIndex) throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getRowId");
    }

    @Override
    public SQLXML getSQLXML(int columnIndex) throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getSQLXML");
    }

    // --- description and position

    /** By label, ignoring case; the first column of that label wins, as in Connector/J. */
    @Override
    public int findColumn(String columnLabel) throws SQLException {
        checkOpen();
        if (labels == null) {
            Map<String, Integer> m = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) {
                Column c = columns.get(i);
                if (!c.orgName().isEmpty()) {
                    m.put(c.orgName().toLowerCase(Locale.ROOT), i + 1);
                }
                if (!c.table().isEmpty()) {
                    m.put((c.table() + "." + c.name()).toLowerCase(Locale.ROOT), i + 1);
                }
            }
            for (int i = columns.size() - 1; i >= 0; i--) {
                m.put(columns.get(i).name().toLowerCase(Locale.ROOT), i + 1);
            }
            labels = m;
        }
        Integer index = columnLabel == null ? null : labels.get(columnLabel.toLowerCase(Locale.ROOT));
        if (index == null) {
            throw new SQLException("Column '" + columnLabel + "' not found.", "S0022");
        }
        return index;
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new ShardwiseResultSetMetaData(columns, types);
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw SqlErrors.unsupported("ResultSet.getCursorName (positioned updates)");
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return !onRow && !after && row == 0;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return after && row > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return onRow && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        throw SqlErrors.unsupported("ResultSet.isLast on a streaming forward-only result");
    }

    private static SQLException forwardOnly() {
        return new SQLException("Operation not allowed for a result set of type ResultSet.TYPE_FORWARD_ONLY.", "S1009");
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return onRow ? (int) row : 0;
    }

    @Override
    public boolean absolute(int row) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean relative(int rows) throws SQLException {
        throw forwardOnly();
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly();
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw forwardOnly();
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0 && rows != Integer.MIN_VALUE) {
            throw SqlErrors.illegal("Value must be between 0 and getMaxRows()");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SqlErrors.unwrapSelf(this, iface, "Shardwise result set");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

}
