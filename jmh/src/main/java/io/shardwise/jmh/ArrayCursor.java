package io.shardwise.jmh;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * A unit's result already in memory: the stub backend of the merge benchmarks, so they measure the
 * merger and nothing of a driver or a network. The rows are shared and never copied; a cursor is a
 * position over them, cheap enough to make one per unit per invocation.
 */
final class ArrayCursor implements ResultCursor {
    private final List<Column> columns;
    private final byte[][][] rows;
    private int position = -1;

    ArrayCursor(List<Column> columns, byte[][][] rows) {
        this.columns = columns;
        this.rows = rows;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        return ++position < rows.length;
    }

    @Override
    public byte[] get(int index) {
        return rows[position][index];
    }

    /** The rows are never changed, as a native unit's result read whole ({@code RowsCursor}). */
    @Override
    public boolean keepsCells() {
        return true;
    }

    @Override
    public void close() {
        position = rows.length;
    }
}
