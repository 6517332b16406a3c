package io.shardwise.core.execute;

import java.util.List;

/**
 * A forward-only stream of rows. Cell values are MySQL's text-protocol bytes, exactly as a server
 * sends them ({@code 1.500}, {@code 2025-01-02 03:04:05.600}, {@code 0000-00-00}); null is SQL NULL.
 * Streaming: a cursor holds at most a bounded number of rows in memory, whatever the result size.
 *
 * <p>Buffer lifetime: the array {@link #get} returns belongs to the cursor and is valid only until
 * the next call to {@link #next}; copy what you keep. Not thread-safe: one consumer.
 *
 * <p>Errors: {@link #next} throws {@link io.shardwise.core.error.ShardwiseException} (a backend's
 * own errno and SQLSTATE for backend errors). {@link #close} releases backend resources and never
 * throws; closing early (a client that stops reading) cancels the backend work.
 */
public interface ResultCursor extends AutoCloseable {
    List<Column> columns();

    /** Advances to the next row; false at the end. */
    boolean next();

    /** The value of column {@code index} (0-based) of the current row, or null for NULL. */
    byte[] get(int index);

    /**
     * Whether every row's cell arrays are its own, valid and unchanged after {@link #next} and {@link #close}
     * (a result read whole, no array reused), so a consumer may keep them without copying. False unless a
     * cursor promises it.
     */
    default boolean keepsCells() {
        return false;
    }

    @Override
    void close();
}
