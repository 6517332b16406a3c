package io.shardwise.server.relay;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/** A native unit's result set, read whole off the wire ({@link ResponseReader}): it holds no connection. */
final class RowsCursor implements ResultCursor {
    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int next;
    private byte[][] current;

    RowsCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        current = next < rows.size() ? rows.get(next++) : null;
        return current != null;
    }

    @Override
    public byte[] get(int index) {
        return current[index];
    }

    /** Each row was decoded into arrays of its own, which stay in {@code rows}. */
    @Override
    public boolean keepsCells() {
        return true;
    }

    @Override
    public void close() {
        next = rows.size();
    }
}
