package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An in-memory unit result for merger tests: rows given as strings (null for NULL), optionally
 * failing at a given row, counting how far it was read and how often it was closed.
 */
final class TestCursor implements ResultCursor {
    private final List<Column> columns;
    private final List<byte[][]> rows;
    private int position = -1;
    private RuntimeException failAt;
    private int failIndex = -1;
    int closeCount;
    int rowsRead;

    TestCursor(List<Column> columns, List<byte[][]> rows) {
        this.columns = List.copyOf(columns);
        this.rows = rows;
    }

    /** Each row as strings, one per column; null is NULL. */
    @SafeVarargs
    static TestCursor of(List<Column> columns, List<String>... rows) {
        List<byte[][]> bytes = new ArrayList<>();
        for (List<String> row : rows) {
            byte[][] cells = new byte[row.size()][];
            for (int i = 0; i < cells.length; i++) {
                cells[i] = row.get(i) == null ? null : row.get(i).getBytes(StandardCharsets.UTF_8);
            }
            bytes.add(cells);
        }
        return new TestCursor(columns, bytes);
    }

    private boolean keepsCells;

    /** Promises {@link ResultCursor#keepsCells} (its rows are never changed). */
    TestCursor keepingCells() {
        this.keepsCells = true;
        return this;
    }

    @Override
    public boolean keepsCells() {
        return keepsCells;
    }

    /** Cell by cell, as they are now: to check later that nobody wrote into them. */
    List<List<String>> snapshot() {
        List<List<String>> out = new ArrayList<>();
        for (byte[][] row : rows) {
            List<String> cells = new ArrayList<>();
            for (byte[] c : row) {
                cells.add(c == null ? null : new String(c, StandardCharsets.UTF_8));
            }
            out.add(cells);
        }
        return out;
    }

    /** next() throws {@code e} when asked for row {@code index} (0-based). */
    TestCursor failingAt(int index, RuntimeException e) {
        this.failIndex = index;
        this.failAt = e;
        return this;
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public boolean next() {
        if (closeCount > 0) {
            throw new IllegalStateException("next() after close()");
        }
        if (position + 1 == failIndex) {
            throw failAt;
        }
        if (position + 1 >= rows.size()) {
            position = rows.size();
            return false;
        }
        position++;
        rowsRead++;
        return true;
    }

    @Override
    public byte[] get(int index) {
        byte[] v = rows.get(position)[index];
        return v == null ? null : Arrays.copyOf(v, v.length); // fresh arrays: a merger must not rely on identity
    }

    @Override
    public void close() {
        closeCount++;
    }

    boolean closed() {
        return closeCount > 0;
    }
}
