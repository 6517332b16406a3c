package io.shardwise.core;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A small in-memory result of text columns (PREVIEW, SHOW-like answers Shardwise computes itself). */
final class RowsCursor implements ResultCursor {
    private static final int VAR_STRING = 253;
    private static final int UTF8MB4_GENERAL_CI = 45;

    private final List<Column> columns;
    private final List<String[]> rows;
    private int at = -1;

    RowsCursor(List<String> labels, List<String[]> rows) {
        List<Column> cs = new ArrayList<>();
        for (String label : labels) {
            cs.add(new Column("", "", "", label, label, UTF8MB4_GENERAL_CI, 1024, VAR_STRING, 0, 0));
        }
        this.columns = List.copyOf(cs);
        this.rows = List.copyOf(rows);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (at + 1 >= rows.size()) {
            at = rows.size();
            return false;
        }
        at++;
        return true;
    }

    @Override
    public byte[] get(int index) {
        String v = rows.get(at)[index];
        return v == null ? null : v.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        at = rows.size();
    }
}
