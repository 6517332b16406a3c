package io.shardwise.core.execute;

import java.util.ArrayList;
import java.util.List;

/**
 * A result read whole into memory. Used inside a transaction, for every unit but the last
 * on a backend: they share the transaction's one connection, which a streaming result would
 * block; and for each result set of a CALL ({@link UnitRunner#runAll}), read before the next one.
 * Hazard: its memory is the size of the result.
 */
final class BufferedCursor implements ResultCursor {
    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int position = -1;
    private boolean closed;

    private BufferedCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = columns;
        this.rows = rows;
    }

    /** Rows already read (one result set of a CALL). */
    static BufferedCursor of(List<Column> columns, List<byte[][]> rows) {
        return new BufferedCursor(columns, rows);
    }

    /** Reads {@code source} to its end, which also ends its unit; a failure propagates as the source reports it. */
    static BufferedCursor drain(ResultCursor source) {
        List<Column> columns = source.columns();
        List<byte[][]> rows = new ArrayList<>();
        try (source) {
            while (source.next()) {
                byte[][] row = new byte[columns.size()][];
                for (int i = 0; i < row.length; i++) {
                    row[i] = source.get(i);
                }
                rows.add(row);
            }
        }
        return new BufferedCursor(columns, rows);
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (closed || position + 1 >= rows.size()) {
            position = rows.size();
            return false;
        }
        position++;
        return true;
    }

    @Override
    public byte[] get(int index) {
        return rows.get(position)[index];
    }

    @Override
    public void close() {
        closed = true;
    }
}
