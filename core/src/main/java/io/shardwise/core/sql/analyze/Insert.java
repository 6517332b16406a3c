package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * INSERT or REPLACE with a VALUES list. {@code columns} as written (empty: the table's own order,
 * which the router cannot see, so a sharded table then needs an explicit list); {@code rows} the
 * values (null entries are expressions other than a literal, parameter or NULL); {@code rowSpans}
 * each row's {@code (...)} text span, for splitting the rows per node; {@code onDuplicateUpdate}
 * the columns an ON DUPLICATE KEY UPDATE assigns.
 */
public record Insert(SqlTemplate template, List<TableRef> tables, boolean replace, List<String> columns,
                     List<List<ValueRef>> rows, List<int[]> rowSpans, int columnsEnd, List<String> onDuplicateUpdate)
        implements Statement {
    public Insert {
        tables = List.copyOf(tables);
        columns = List.copyOf(columns);
        rows = rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
        rowSpans = List.copyOf(rowSpans);
        onDuplicateUpdate = List.copyOf(onDuplicateUpdate);
    }

    public TableRef table() {
        return tables.get(0);
    }
}
