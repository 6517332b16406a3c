package io.shardwise.core.session;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A cursor over rows computed in process (server variables, SHOW answers, a prepared statement's fetched rows). */
public final class ValuesCursor implements ResultCursor {
    private static final int VAR_STRING = 253;
    private static final int UTF8MB4_GENERAL_CI = 45;

    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int index = -1;

    public ValuesCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = List.copyOf(rows);
    }

    /** Text columns (VARCHAR, utf8mb4) with these labels over rows of strings (null for NULL): PREVIEW's answer. */
    public static ValuesCursor text(List<String> labels, List<String[]> rows) {
        List<Column> columns = new ArrayList<>(labels.size());
        for (String label : labels) {
            columns.add(new Column("", "", "", label, label, UTF8MB4_GENERAL_CI, 1024, VAR_STRING, 0, 0));
        }
        List<byte[][]> values = new ArrayList<>(rows.size());
        for (String[] row : rows) {
            byte[][] bytes = new byte[row.length][];
            for (int i = 0; i < row.length; i++) {
                bytes[i] = row[i] == null ? null : row[i].getBytes(StandardCharsets.UTF_8);
            }
            values.add(bytes);
        }
        return new ValuesCursor(columns, values);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        return ++index < rows.size();
    }

    @Override
    public byte[] get(int i) {
        return rows.get(index)[i];
    }

    @Override
    public void close() {
        index = rows.size();
    }
}
