package io.shardwise.server.session;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.session.ValuesCursor;
import io.shardwise.server.protocol.BinaryRow;
import io.shardwise.server.protocol.ServerStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The cursor a COM_STMT_EXECUTE with CURSOR_TYPE_READ_ONLY opened: COM_STMT_FETCH sends its rows in
 * batches. Rows stream from the engine's cursor, so memory stays bounded whatever the result size;
 * the backend work (and, outside a transaction, its pooled connection) stays open between fetches.
 *
 * <p>Hazard: a cursor opened inside a transaction streams on the transaction's connection, which the
 * session's next statement needs. {@link #detach} then reads the rest into memory first (MySQL
 * materializes every cursor; this one does only when it must), so the cursor keeps all its rows.
 * Called serially by the connection's command thread; not thread-safe.
 */
final class StatementCursor implements AutoCloseable {
    private ResultCursor rows;
    private final BinaryRow encoder;
    private final byte[][] cells;
    private final boolean inTransaction;
    /** The engine cursor stands on a row not sent yet (looked ahead to tell whether rows are left). */
    private boolean positioned;
    private boolean exhausted;
    /** A failure met while detaching, reported by the next fetch. */
    private ShardwiseException failure;

    StatementCursor(ResultCursor rows, BinaryRow encoder, boolean inTransaction) {
        this.rows = rows;
        this.encoder = encoder;
        this.cells = new byte[rows.columns().size()][];
        this.inTransaction = inTransaction;
    }

    boolean inTransaction() {
        return inTransaction;
    }

    /**
     * Sends up to {@code limit} rows, then EOF/OK with CURSOR_EXISTS while rows are left, or with
     * LAST_ROW_SENT (and closes) once the last was sent. False when the cursor is done (the caller
     * drops it): its end was sent, it failed (ERR sent) or the client left.
     */
    boolean fetch(long limit, ResponseWriter out, ServerStatus status) {
        try {
            if (failure != null) {
                throw failure;
            }
            for (long sent = 0; sent < limit; sent++) {
                if (!positioned && (exhausted || !rows.next())) {
                    exhausted = true;
                    break;
                }
                positioned = false;
                for (int i = 0; i < cells.length; i++) {
                    cells[i] = rows.get(i);
                }
                if (!out.sendPaced(encoder.encode(out.alloc(), cells))) {
                    close();
                    return false;
                }
            }
            if (!positioned && !exhausted) {
                positioned = rows.next();
                exhausted = !positioned;
            }
        } catch (ShardwiseException e) {
            close();
            out.error(e.errno(), e.sqlState(), e.wireMessage());
            return false;
        }
        if (exhausted) {
            close();
            out.endOfRows(status.with(ServerStatus.LAST_ROW_SENT), 0);
            return false;
        }
        out.endOfRows(status.with(ServerStatus.CURSOR_EXISTS), 0);
        return true;
    }

    /** Reads the rows left into memory and ends the engine cursor, freeing the connection it streams on. */
    void detach() {
        if (exhausted || failure != null || rows instanceof ValuesCursor) {
            return;
        }
        int width = cells.length;
        List<byte[][]> left = new ArrayList<>();
        try (ResultCursor source = rows) {
            for (boolean more = positioned || source.next(); more; more = source.next()) {
                byte[][] row = new byte[width][];
                for (int i = 0; i < width; i++) {
                    byte[] cell = source.get(i);
                    row[i] = cell == null ? null : cell.clone();
                }
                left.add(row);
            }
        } catch (ShardwiseException e) {
            failure = e;
        }
        rows = new ValuesCursor(rows.columns(), left);
        positioned = false;
    }

    @Override
    public void close() {
        exhausted = true;
        rows.close();
    }
}
