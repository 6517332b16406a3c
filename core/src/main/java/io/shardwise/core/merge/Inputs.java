package io.shardwise.core.merge;

import io.shardwise.core.execute.ResultCursor;
import java.util.List;

/**
 * The units' cursors of one statement, owned by the merger from the moment it receives them: it
 * closes every one of them exactly once, on error, on an early end (LIMIT reached) and on close.
 */
final class Inputs {
    private final List<ResultCursor> cursors;
    private final boolean[] closedOne;
    private boolean closed;

    Inputs(List<ResultCursor> cursors) {
        this.cursors = List.copyOf(cursors);
        this.closedOne = new boolean[this.cursors.size()];
    }

    /** Releases one exhausted unit early (its connection goes back to the pool); idempotent. */
    void closeOne(int index) {
        if (!closedOne[index]) {
            closedOne[index] = true;
            closeQuietly(cursors.get(index));
        }
    }

    List<ResultCursor> cursors() {
        return cursors;
    }

    /** Whether every unit's cursor {@linkplain ResultCursor#keepsCells keeps its cells}: a kept row may share them. */
    boolean keepCells() {
        for (int i = 0; i < cursors.size(); i++) {
            if (!cursors.get(i).keepsCells()) {
                return false;
            }
        }
        return true;
    }

    boolean closed() {
        return closed;
    }

    /** Idempotent and never throws: a failing close must not hide the statement's own outcome. */
    void closeAll() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < cursors.size(); i++) {
            closeOne(i);
        }
    }

    private static void closeQuietly(ResultCursor cursor) {
        try {
            cursor.close();
        } catch (RuntimeException ignored) {
            // close() must not throw; one bad cursor must not keep the others open
        }
    }
}
