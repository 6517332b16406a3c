package io.shardwise.core.merge;

/** Read access to the cells of one row: a cursor's current row or a copied one. Null is SQL NULL. */
@FunctionalInterface
interface Row {
    byte[] get(int column);

    /** A copy of the first {@code width} cells, safe to keep after the source moves on. */
    static byte[][] copy(Row row, int width) {
        byte[][] cells = new byte[width][];
        for (int i = 0; i < width; i++) {
            byte[] v = row.get(i);
            cells[i] = v == null ? null : v.clone();
        }
        return cells;
    }

    /** As {@link #copy}, sharing the cells themselves when {@code shared} (the source {@linkplain io.shardwise.core.execute.ResultCursor#keepsCells keeps them}). */
    static byte[][] copy(Row row, int width, boolean shared) {
        if (!shared) {
            return copy(row, width);
        }
        byte[][] cells = new byte[width][];
        for (int i = 0; i < width; i++) {
            cells[i] = row.get(i);
        }
        return cells;
    }

    static Row of(byte[][] cells) {
        return i -> cells[i];
    }
}
