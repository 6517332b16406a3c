package io.shardwise.core.session;

import com.mysql.cj.result.Field;
import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.execute.BackendConnections;
import io.shardwise.core.execute.BackendMessages;
import io.shardwise.core.execute.Column;
import io.shardwise.core.rule.ShardingRule;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one metadata statement (SHOW ..., SELECT ... LIMIT 0) on a backend over a short-lived
 * Connector/J connection and keeps its whole, small answer: the column definitions as the backend
 * sent them (Connector/J's {@link Field}s) and the rows as text-protocol bytes, in each column's own
 * character set ({@link BackendConnections#openUnpooledRaw}). Metadata is a cold path and the engine
 * lends no raw connections, hence a connection of its own per call, with the pool's timeouts and TLS.
 *
 * <p>Hazard: names in the answer are physical; callers rename them ({@link Answer#rename}) before a
 * client sees them. Backend errors are rethrown with their errno and SQLSTATE, and their message
 * in logical names as the executor reports them ({@link BackendMessages}).
 */
final class BackendCatalog {
    private final ShardingRule rule;
    private BackendMessages messages;

    BackendCatalog(ShardingRule rule) {
        this.rule = rule;
    }

    /** A backend's answer. {@code database} is the physical database the connection used. */
    record Answer(String database, List<Column> columns, List<byte[][]> rows) {
        /** The columns with the physical database and {@code physicalTable} named logically. */
        List<Column> rename(String logicalSchema, String physicalTable, String logicalTable) {
            List<Column> out = new ArrayList<>(columns.size());
            for (Column c : columns) {
                out.add(new Column(c.schema().equalsIgnoreCase(database) ? logicalSchema : c.schema(),
                        renamed(c.table(), physicalTable, logicalTable), renamed(c.orgTable(), physicalTable, logicalTable),
                        c.name(), c.orgName(), c.collation(), c.length(), c.mysqlType(), c.flags(), c.decimals()));
            }
            return out;
        }

        private static String renamed(String name, String physical, String logical) {
            return physical != null && name.equalsIgnoreCase(physical) ? logical : name;
        }

        int index(String label) {
            for (int i = 0; i < columns.size(); i++) {
                if (columns.get(i).name().equalsIgnoreCase(label)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** Runs {@code sql} on {@code backend}. */
    Answer query(String backend, String sql) {
        BackendConfig config = rule.config().backends().get(backend);
        try (Connection c = BackendConnections.openUnpooledRaw(config)) {
            String database = c.getCatalog();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
                List<Column> columns = columns(rs);
                List<byte[][]> rows = new ArrayList<>();
                while (rs.next()) {
                    byte[][] row = new byte[columns.size()][];
                    for (int i = 0; i < row.length; i++) {
                        row[i] = rs.getBytes(i + 1);
                    }
                    rows.add(row);
                }
                return new Answer(database, columns, rows);
            } catch (SQLException e) {
                throw new BackendException(backend, logical(backend, e));
            }
        } catch (SQLException e) {
            throw new BackendException(backend, e);
        }
    }

    /** The backend's error with logical names, as the engine's executor reports backend errors. */
    private SQLException logical(String backend, SQLException e) {
        if (messages == null) {
            messages = BackendMessages.of(rule); // built on the first error: most sessions never see one
        }
        return new SQLException(messages.logical(backend, e.getErrorCode(), e.getMessage()), e.getSQLState(), e.getErrorCode());
    }

    private static List<Column> columns(ResultSet rs) throws SQLException {
        Field[] fields = rs.getMetaData().unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
        List<Column> columns = new ArrayList<>(fields.length);
        for (Field f : fields) {
            columns.add(new Column(f.getDatabaseName(), f.getTableName(), f.getOriginalTableName(), f.getName(),
                    f.getOriginalName(), f.getCollationIndex(), f.getLength(), f.getMysqlTypeId(), f.getFlags() & 0xFFFF,
                    f.getDecimals()));
        }
        return List.copyOf(columns);
    }
}
