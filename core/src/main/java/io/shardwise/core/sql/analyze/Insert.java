package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * INSERT or REPLACE with a VALUES list. {@code columns} as written (empty: the table's own order,
 * which the router cannot see, so a sharded table then needs an explicit list); {@code rows} the
 * values (null entries are expressions other than a literal, parameter or NULL); {@code rowSpans}
 * each row's {@code (...)} text span, for splitting the rows per node; {@code onDuplicateUpdate}
 * the columns an ON DUPLICATE KEY UPDATE assigns a value other than their own ({@code c = c},
 * {@code c = VALUES(c)} are left out: they keep a sharding column's row on its node). {@code rewritten}: the template is
 * not the user's digest but MySQL's equivalent VALUES form of it (INSERT ... SET), so it renders from
 * its own text and the literals' texts, not through the user's token offsets. {@code source}: the
 * SELECT of an INSERT ... SELECT (then {@code rows} is empty and {@code tables} names the target
 * first, then the SELECT's tables; {@code onDuplicateUpdate} is its clause's, after the SELECT), or null.
 */
public record Insert(SqlTemplate template, List<TableRef> tables, boolean replace, List<String> columns,
                     List<List<ValueRef>> rows, List<int[]> rowSpans, int columnsEnd, List<String> onDuplicateUpdate,
                     boolean rewritten, InsertSource source) implements Statement {
    public Insert {
        tables = List.copyOf(tables);
        columns = List.copyOf(columns);
        rows = rows.stream().map(r -> java.util.Collections.unmodifiableList(new java.util.ArrayList<>(r))).toList();
        rowSpans = List.copyOf(rowSpans);
        onDuplicateUpdate = List.copyOf(onDuplicateUpdate);
    }

    public Insert(SqlTemplate template, List<TableRef> tables, boolean replace, List<String> columns, List<List<ValueRef>> rows,
                  List<int[]> rowSpans, int columnsEnd, List<String> onDuplicateUpdate) {
        this(template, tables, replace, columns, rows, rowSpans, columnsEnd, onDuplicateUpdate, false, null);
    }

    /** This statement with its template marked as rewritten (not the user's digest). */
    Insert asRewritten() {
        return new Insert(template, tables, replace, columns, rows, rowSpans, columnsEnd, onDuplicateUpdate, true, source);
    }

    public TableRef table() {
        return tables.get(0);
    }
}
