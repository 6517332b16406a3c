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
import java.util.Properties;

/**
 * The reference side: one Connector/J connection to the unsharded database, configured as Shardwise
 * configures its backend connections (client-side prepared statements so rows are text protocol,
 * matched-row counts, no jdbcCompliantTruncation), read with {@code getBytes} and the driver's raw
 * column definitions, so both sides are compared as MySQL sends them.
 */
final class DirectSide implements AutoCloseable {
    private final Connection connection;

    DirectSide(String host, int port, String user, String password, String database) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("sslMode", "DISABLED");
        p.setProperty("allowPublicKeyRetrieval", "true");
        p.setProperty("useServerPrepStmts", "false");
        p.setProperty("useAffectedRows", "false");
        p.setProperty("jdbcCompliantTruncation", "false");
        p.setProperty("characterSetResults", "UTF-8");
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        connection = DriverManager.getConnection("jdbc:mysql://" + h + ":" + port + "/" + database, p);
    }

    Outcome run(OracleCase c) {
        try {
            if (c.prepared()) {
                try (PreparedStatement ps = connection.prepareStatement(c.sql())) {
                    for (int i = 0; i < c.params().size(); i++) {
                        ps.setObject(i + 1, c.params().get(i));
                    }
                    return outcome(ps, ps.execute());
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

    private static Outcome outcome(Statement s, boolean hasRows) throws SQLException {
        if (!hasRows) {
            long lastInsertId = s.unwrap(StatementImpl.class).getLastInsertID();
            return new Outcome.Update(s.getLargeUpdateCount(), lastInsertId);
        }
        try (ResultSet rs = s.getResultSet()) {
            return rows(rs);
        }
    }

    static Outcome.Rows rows(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        Field[] fields = md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
        int width = md.getColumnCount();
        List<String> labels = new ArrayList<>(width);
        List<Integer> types = new ArrayList<>(width);
        for (int i = 0; i < width; i++) {
            labels.add(md.getColumnLabel(i + 1));
            types.add(fields[i].getMysqlTypeId());
        }
        List<Row> rows = new ArrayList<>();
        while (rs.next()) {
            byte[][] cells = new byte[width][];
            for (int i = 0; i < width; i++) {
                cells[i] = rs.getBytes(i + 1);
            }
            rows.add(new Row(cells));
        }
        return new Outcome.Rows(labels, types, rows);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
