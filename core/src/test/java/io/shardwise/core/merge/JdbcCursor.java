package io.shardwise.core.merge;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.testkit.MysqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A unit result read from a real server over Connector/J: cells are {@code getBytes} (the text
 * protocol's bytes), columns come from the driver's own column definitions (type code, flags,
 * collation, decimals), as the executor will build them.
 */
final class JdbcCursor implements ResultCursor {
    private final String where;
    private final Connection connection;
    private final Statement statement;
    private final ResultSet rs;
    private final List<Column> columns;
    boolean closed;

    private JdbcCursor(String where, Connection connection, Statement statement, ResultSet rs, List<Column> columns) {
        this.where = where;
        this.connection = connection;
        this.statement = statement;
        this.rs = rs;
        this.columns = columns;
    }

    static JdbcCursor open(MysqlServer server, String database, String sql) {
        Connection c = null;
        try {
            c = server.connect(database);
            Statement s = c.createStatement();
            ResultSet rs = s.executeQuery(sql);
            return new JdbcCursor(database, c, s, rs, columns(rs));
        } catch (SQLException e) {
            closeQuietly(c);
            throw new AssertionError(database + ": " + sql + ": " + e.getMessage(), e);
        }
    }

    private static List<Column> columns(ResultSet rs) throws SQLException {
        com.mysql.cj.result.Field[] fields = rs.getMetaData().unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
        List<Column> out = new ArrayList<>(fields.length);
        for (com.mysql.cj.result.Field f : fields) {
            out.add(new Column(f.getDatabaseName(), f.getTableName(), f.getOriginalTableName(), f.getColumnLabel(),
                    f.getOriginalName(), f.getCollationIndex(), f.getLength(), f.getMysqlTypeId(), f.getFlags() & 0xffff,
                    f.getDecimals()));
        }
        return List.copyOf(out);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        try {
            return rs.next();
        } catch (SQLException e) {
            throw new BackendException(where, e);
        }
    }

    @Override
    public byte[] get(int index) {
        try {
            return rs.getBytes(index + 1);
        } catch (SQLException e) {
            throw new BackendException(where, e);
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // test helper: nothing to report
            }
        }
    }
}
