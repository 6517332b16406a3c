package io.shardwise.core.sample;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One logical table of the sample: its columns, its DDL with the physical name left open, and its
 * rows. Row values have the Java types Connector/J's {@code getObject} returns for the column
 * (Long for BIGINT and INT UNSIGNED, Integer for INT, BigDecimal at the column's scale, LocalDateTime
 * for DATETIME, String otherwise), so rows read back compare equal to the generated ones. Rows may
 * hold nulls, which is why they are not {@code List.of}.
 */
record SampleTable(String name, List<String> columns, String ddl, List<List<Object>> rows) {
    /** Where {@link #ddl} names the table; replaced by the quoted physical name. */
    static final String NAME_SLOT = "{table}";

    SampleTable {
        Objects.requireNonNull(name, "name");
        columns = List.copyOf(columns);
        if (!ddl.contains(NAME_SLOT)) {
            throw new IllegalArgumentException("DDL of " + name + " lacks " + NAME_SLOT);
        }
        List<List<Object>> copy = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            if (row.size() != columns.size()) {
                throw new IllegalArgumentException(name + " row " + row + " has " + row.size() + " values for " + columns);
            }
            copy.add(Collections.unmodifiableList(new ArrayList<>(row)));
        }
        rows = Collections.unmodifiableList(copy);
    }

    /** The index of a column, ignoring case as MySQL does; -1 when absent. */
    int columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    String createSql(String physicalName) {
        return ddl.replace(NAME_SLOT, quote(physicalName));
    }

    String dropSql(String physicalName) {
        return "DROP TABLE IF EXISTS " + quote(physicalName);
    }

    /** An INSERT naming every column, so no value is left to a default or a key generator. */
    String insertSql(String physicalName) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(quote(physicalName)).append(" (");
        StringBuilder marks = new StringBuilder();
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(quote(columns.get(i)));
            marks.append(i == 0 ? "?" : ", ?");
        }
        return sql.append(") VALUES (").append(marks).append(')').toString();
    }

    static String quote(String identifier) {
        if (identifier.indexOf('`') >= 0) {
            throw new IllegalArgumentException("identifier with a backtick: " + identifier);
        }
        return "`" + identifier + "`";
    }
}
