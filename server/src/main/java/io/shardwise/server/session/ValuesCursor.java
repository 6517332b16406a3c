package io.shardwise.server.session;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/** A cursor over rows the session computed itself (server variables). */
final class ValuesCursor implements ResultCursor {
    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int index = -1;

    ValuesCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = List.copyOf(rows);
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
