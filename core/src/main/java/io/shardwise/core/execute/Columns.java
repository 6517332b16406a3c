package io.shardwise.core.execute;

import com.mysql.cj.result.Field;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Result metadata as the backend sent it in its column definitions (Connector/J's {@link Field}s,
 * not JDBC's reinterpretation), with physical names replaced by logical ones: the schema becomes
 * the logical schema, and a table or original table the unit's SQL names physically becomes its
 * logical table. Aliases and derived tables (names the map does not hold) stay as they are.
 */
final class Columns {
    private Columns() {}

    static List<Column> of(ResultSetMetaData md, Map<String, String> logicalTables, String logicalSchema)
            throws SQLException {
        Field[] fields = md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
        List<Column> columns = new ArrayList<>(fields.length);
        for (Field f : fields) {
            String schema = f.getDatabaseName();
            columns.add(new Column(
                    schema == null || schema.isEmpty() ? schema : logicalSchema,
                    ExecutionUnit.logical(f.getTableName(), logicalTables),
                    ExecutionUnit.logical(f.getOriginalTableName(), logicalTables),
                    f.getName(),
                    f.getOriginalName(),
                    f.getCollationIndex(),
                    f.getLength(),
                    f.getMysqlTypeId(),
                    f.getFlags() & 0xFFFF,
                    f.getDecimals()));
        }
        return List.copyOf(columns);
    }
}
