package io.shardwise.it.oracle;

import com.mysql.cj.jdbc.StatementImpl;
import com.mysql.cj.result.Field;
import io.shardwise.it.oracle.Outcome.Row;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One Connector/J connection, configured as Shardwise configures its backend connections (matched-row
 * counts, no jdbcCompliantTruncation, UTF-8 results) and read with {@code getBytes} and the driver's
 * raw column definitions, so results are compared as MySQL sends them. Pointed at the unsharded
 * database it is the reference; pointed at a Shardwise server it is the server side.
 *
 * <p>With {@code serverPrepared} the corpus' prepared statements go out as COM_STMT_PREPARE/EXECUTE
 * and their rows come back in the binary protocol; the reference of such a side must be prepared the
 * same way, so both are decoded by the same code. Column types read either as protocol type codes or,
 * for comparison with the Shardwise driver, as {@link java.sql.Types} (see {@link #jdbcType}).
 */
final class ConnectorJSide implements Side {
    /** {@link java.sql.Types} codes are reported offset by this, so they never read as protocol codes. */
    static final int JDBC_TYPES = 100_000;

    private final Connection connection;
    private final boolean jdbcTypes;
    private final boolean serverPrepared;

    private ConnectorJSide(String url, String user, String password, boolean serverPrepared, boolean jdbcTypes)
            throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("sslMode", "DISABLED");
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("useServerPrepStmts", Boolean.toString(serverPrepared));
        p.setProperty("useAffectedRows", "false");
        p.setProperty("jdbcCompliantTruncation", "false");
        p.setProperty("characterSetResults", "UTF-8");
        connection = DriverManager.getConnection(url, p);
        this.jdbcTypes = jdbcTypes;
        this.serverPrepared = serverPrepared;
    }

    /** A connection to {@code database} on a MySQL-compatible server (the unsharded reference, or a Shardwise server's schema). */
    static ConnectorJSide connect(String host, int port, String user, String password, String database,
                                  boolean serverPrepared, boolean jdbcTypes) throws SQLException {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return new ConnectorJSide("jdbc:mysql://" + h + ":" + port + "/" + database, user, password, serverPrepared, jdbcTypes);
    }

    /** A {@link java.sql.Types} code as it appears in {@link Outcome.Rows#types()}. */
    static int jdbcType(int type) {
        return JDBC_TYPES + type;
    }

    @Override
    public Outcome run(OracleCase c) {
        try {
            if (c.prepared()) {
                try (PreparedStatement ps = connection.prepareStatement(c.sql())) {
                    for (int i = 0; i < c.params().size(); i++) {
                        ps.setObject(i + 1, c.params().get(i));
                    }
                    // a server-side prepare answers with its own column definitions, before any value is bound
                    Field[] prepared = serverPrepared ? fields(ps.getMetaData()) : null;
                    Outcome outcome = outcome(ps, ps.execute());
                    return prepared == null || !(outcome instanceof Outcome.Rows rows) ? outcome : withPrepared(rows, prepared);
                }
            }
            try (Statement s = connection.createStatement()) {
                return outcome(s, s.execute(c.sql()));
            }
        } catch (SQLException e) {
            return new Outcome.Failure(e.getErrorCode(), e.getSQLState(), e.getMessage());
        } catch (RuntimeException e) {
            return new Outcome.Crash(e);
        }
    }

    /**
     * The MySQL protocol reports one last insert id per statement, so a Shardwise server cannot hand
     * out several generated keys through it: they are read back with {@code keysQuery}.
     */
    @Override
    public Inserted insertGeneratingKeys(String sql, String keysQuery) throws SQLException {
        try (Statement s = connection.createStatement()) {
            long affected = s.executeLargeUpdate(sql);
            List<Object> keys = new ArrayList<>();
            try (ResultSet rs = s.executeQuery(keysQuery)) {
                while (rs.next()) {
                    keys.add(rs.getObject(1));
                }
            }
            return new Inserted(affected, keys);
        }
    }

    private static Field[] fields(ResultSetMetaData md) throws SQLException {
        return md == null ? new Field[0] : md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
    }

    /** The execute's columns, each with the prepare's definition of it beside ({@link Outcome.Meta#prepared}). */
    private static Outcome.Rows withPrepared(Outcome.Rows rows, Field[] prepared) {
        List<Map<String, Object>> meta = new ArrayList<>(rows.meta().size());
        for (int i = 0; i < rows.meta().size(); i++) {
            Map<String, Object> m = new java.util.LinkedHashMap<>(rows.meta().get(i));
            Field f = i < prepared.length ? prepared[i] : null;
            m.put(Outcome.Meta.PREPARED, f == null ? prepared.length + " columns"
                    : java.util.Arrays.asList(f.getName(), f.getCollationIndex(), f.getLength(), f.getMysqlTypeId(), f.getFlags() & 0xFFFF, f.getDecimals()));
            meta.add(m);
        }
        return new Outcome.Rows(rows.labels(), rows.types(), rows.rows(), meta);
    }

    private Outcome outcome(Statement s, boolean hasRows) throws SQLException {
        if (!hasRows) {
            long lastInsertId = s.unwrap(StatementImpl.class).getLastInsertID();
            return new Outcome.Update(s.getLargeUpdateCount(), lastInsertId);
        }
        try (ResultSet rs = s.getResultSet()) {
            return rows(rs);
        }
    }

    private Outcome.Rows rows(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        Field[] fields = md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
        int width = md.getColumnCount();
        List<String> labels = new ArrayList<>(width);
        List<Integer> types = new ArrayList<>(width);
        List<Map<String, Object>> meta = new ArrayList<>(width);
        for (int i = 0; i < width; i++) {
            Field f = fields[i];
            labels.add(md.getColumnLabel(i + 1));
            types.add(jdbcTypes ? jdbcType(md.getColumnType(i + 1)) : f.getMysqlTypeId());
            // the column-definition packet as Connector/J decoded it (a DECIMAL's length as its precision), and JDBC's view of it
            meta.add(Outcome.Meta.jdbc(Outcome.Meta.packet(f.getDatabaseName(), f.getTableName(), f.getOriginalTableName(),
                    f.getOriginalName(), f.getCollationIndex(), f.getLength(), f.getDecimals(), f.getFlags()), md, i + 1));
        }
        return new Outcome.Rows(labels, types, cells(rs, width), meta);
    }

    static List<Row> cells(ResultSet rs, int width) throws SQLException {
        List<Row> rows = new ArrayList<>();
        while (rs.next()) {
            byte[][] cells = new byte[width][];
            for (int i = 0; i < width; i++) {
                cells[i] = rs.getBytes(i + 1);
            }
            rows.add(new Row(cells));
        }
        return rows;
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
