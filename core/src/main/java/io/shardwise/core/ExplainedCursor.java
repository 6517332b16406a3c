package io.shardwise.core;

import io.shardwise.core.execute.BackendMessages;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.ExecutionUnit;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A backend's EXPLAIN of one unit as the same EXPLAIN on one unsharded database reads: every column,
 * type and value as the backend sent them, but for the names the user never wrote. The {@code table}
 * column names the logical table (orders, not its node orders_1); {@code ref} and {@code Extra}, and
 * the whole document of FORMAT=JSON ({@code "table_name"}, {@code "attached_condition"} ...), read
 * physical databases and tables as the logical ones, as backend error messages do
 * ({@link BackendMessages}: whole identifiers only). Aliases and derived names ({@code <derived2>})
 * stay as they are.
 */
final class ExplainedCursor implements ResultCursor {
    /** The columns that name tables or databases: the tabular forms' and FORMAT=JSON's one column. */
    private static final Set<String> NAMING = Set.of("table", "ref", "extra", "explain");

    private final ResultCursor cursor;
    private final ExecutionUnit unit;
    private final BackendMessages messages;
    private final boolean[] naming;

    ExplainedCursor(ResultCursor cursor, ExecutionUnit unit, BackendMessages messages) {
        this.cursor = cursor;
        this.unit = unit;
        this.messages = messages;
        List<Column> columns = cursor.columns();
        this.naming = new boolean[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            naming[i] = NAMING.contains(columns.get(i).name().toLowerCase(Locale.ROOT));
        }
    }

    @Override
    public List<Column> columns() {
        return cursor.columns();
    }

    @Override
    public boolean next() {
        return cursor.next();
    }

    @Override
    public byte[] get(int index) {
        byte[] value = cursor.get(index);
        if (value == null || !naming[index]) {
            return value;
        }
        String text = new String(value, StandardCharsets.UTF_8);
        String mapped = messages.logical(unit.backend(), 0, unit.logicalTable(text)); // errno 0: no error's special cases
        return mapped.equals(text) ? value : mapped.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        cursor.close();
    }
}
