package io.shardwise.it.oracle;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JDBC face: one connection of the Shardwise driver ({@code jdbc:shardwise:<config>}), read as
 * an application reads it: labels and {@link java.sql.Types} from the result set metadata, cells with
 * {@code getBytes}, the last insert id as the first of {@code getGeneratedKeys} (Connector/J's rule:
 * the keys are the last insert id and its successors, or the keys Shardwise generated).
 */
final class DriverSide implements Side {
    private final Connection connection;

    DriverSide(String url) throws SQLException {
        connection = DriverManager.getConnection(url);
    }

    @Override
    public Outcome run(OracleCase c) {
        try {
            if (c.prepared()) {
                try (PreparedStatement ps = connection.prepareStatement(c.sql(), Statement.RETURN_GENERATED_KEYS)) {
                    for (int i = 0; i < c.params().size(); i++) {
                        ps.setObject(i + 1, c.params().get(i));
                    }
                    return outcome(ps, ps.execute());
                }
            }
            try (Statement s = connection.createStatement()) {
                return outcome(s, s.execute(c.sql(), Statement.RETURN_GENERATED_KEYS));
            }
        } catch (SQLException e) {
            return new Outcome.Failure(e.getErrorCode(), e.getSQLState(), e.getMessage());
        } catch (RuntimeException e) {
            return new Outcome.Crash(e);
        }
    }

    @Override
    public Inserted insertGeneratingKeys(String sql, String keysQuery) throws SQLException {
        try (Statement s = connection.createStatement()) {
            long affected = s.executeLargeUpdate(sql, Statement.RETURN_GENERATED_KEYS);
            return new Inserted(affected, keys(s));
        }
    }

    private static List<Object> keys(Statement s) throws SQLException {
        List<Object> keys = new ArrayList<>();
        try (ResultSet rs = s.getGeneratedKeys()) {
            while (rs.next()) {
                keys.add(rs.getObject(1));
            }
        }
        return keys;
    }

    private static Outcome outcome(Statement s, boolean hasRows) throws SQLException {
        if (!hasRows) {
            List<Object> keys = keys(s);
            long lastInsertId = keys.isEmpty() ? 0 : ((Number) keys.getFirst()).longValue();
            return new Outcome.Update(s.getLargeUpdateCount(), lastInsertId);
        }
        try (ResultSet rs = s.getResultSet()) {
            ResultSetMetaData md = rs.getMetaData();
            int width = md.getColumnCount();
            List<String> labels = new ArrayList<>(width);
            List<Integer> types = new ArrayList<>(width);
            List<Map<String, Object>> meta = new ArrayList<>(width);
            for (int i = 1; i <= width; i++) {
                labels.add(md.getColumnLabel(i));
                types.add(ConnectorJSide.jdbcType(md.getColumnType(i)));
                meta.add(Outcome.Meta.jdbc(new LinkedHashMap<>(), md, i));
            }
            return new Outcome.Rows(labels, types, ConnectorJSide.cells(rs, width), meta);
        }
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
