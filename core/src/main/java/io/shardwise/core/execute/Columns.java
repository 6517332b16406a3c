package io.shardwise.core.execute;

import com.mysql.cj.result.Field;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
        return of(fields(md), logicalTables, logicalSchema);
    }

    static Field[] fields(ResultSetMetaData md) throws SQLException {
        return md.unwrap(com.mysql.cj.jdbc.result.ResultSetMetaData.class).getFields();
    }

    /**
     * The columns of one statement's last result, with the backend's own schema and table names
     * they were made from, so the next result of the same statement can reuse them when the backend
     * describes exactly the same columns ({@link #sameAs}).
     */
    record Shape(List<Column> columns, String[] physical, Map<String, String> logicalTables, String logicalSchema) {
        static Shape of(Field[] fields, Map<String, String> logicalTables, String logicalSchema) {
            String[] physical = new String[3 * fields.length];
            for (int i = 0; i < fields.length; i++) {
                physical[3 * i] = fields[i].getDatabaseName();
                physical[3 * i + 1] = fields[i].getTableName();
                physical[3 * i + 2] = fields[i].getOriginalTableName();
            }
            return new Shape(Columns.of(fields, logicalTables, logicalSchema), physical, logicalTables, logicalSchema);
        }

        /**
         * Whether these columns are what {@code fields} would give: every name and number of every
         * column definition compared (a table altered outside Shardwise, a session charset changed,
         * a {@code *} widened all show in them), and the same name maps.
         */
        boolean sameAs(Field[] fields, Map<String, String> tables, String schema) {
            if (fields.length != columns.size() || !schema.equals(logicalSchema)
                    || tables != logicalTables && !tables.equals(logicalTables)) {
                return false;
            }
            for (int i = 0; i < fields.length; i++) {
                Field f = fields[i];
                Column c = columns.get(i);
                if (f.getCollationIndex() != c.collation() || f.getLength() != c.length() || f.getMysqlTypeId() != c.mysqlType()
                        || (f.getFlags() & 0xFFFF) != c.flags() || f.getDecimals() != c.decimals()
                        || !Objects.equals(f.getName(), c.name()) || !Objects.equals(orEmpty(f.getOriginalName()), c.orgName())
                        || !Objects.equals(f.getDatabaseName(), physical[3 * i])
                        || !Objects.equals(f.getTableName(), physical[3 * i + 1])
                        || !Objects.equals(f.getOriginalTableName(), physical[3 * i + 2])) {
                    return false;
                }
            }
            return true;
        }

        private static String orEmpty(String s) {
            return s == null ? "" : s;
        }
    }

    static List<Column> of(Field[] fields, Map<String, String> logicalTables, String logicalSchema) {
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
