package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.util.Iterator;
import java.util.List;

/** Rows already merged in memory (hashed groups, groups sorted by an aggregate); closing closes the units. */
final class BufferedCursor implements ResultCursor {
    private final List<Column> columns;
    private final Iterator<byte[][]> rows;
    private final Inputs inputs;
    private byte[][] current;

    BufferedCursor(List<Column> columns, List<byte[][]> rows, Inputs inputs) {
        this.columns = columns;
        this.rows = rows.iterator();
        this.inputs = inputs;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        current = rows.hasNext() ? rows.next() : null;
        return current != null;
    }

    @Override
    public byte[] get(int index) {
        return current[index];
    }

    @Override
    public void close() {
        inputs.closeAll();
    }
}
