package io.shardwise.jdbc;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * Rows held in memory: generated keys, metadata results, and the rest of a streaming result that
 * had to be read out before its connection ran another statement in a transaction.
 */
final class ListCursor implements ResultCursor {
    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int at = -1;

    ListCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (at < rows.size()) {
            at++;
        }
        return at < rows.size();
    }

    @Override
    public byte[] get(int index) {
        return rows.get(at)[index];
    }

    @Override
    public void close() {
        at = rows.size();
    }
}
