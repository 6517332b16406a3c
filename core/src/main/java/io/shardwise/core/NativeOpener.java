package io.shardwise.core;

import io.shardwise.core.execute.NativeTransaction;
import java.util.List;

/**
 * A face's way to open a native transaction from the session's own thread: the transaction's first
 * statement missed the plan cache (the event loop cannot plan it, so it reached the session's thread),
 * and rather than leave the whole transaction on the JDBC executor the session asks the face for the
 * connections the loop would have pinned, then runs the statement on them; the transaction's next
 * statements relay from the loop.
 *
 * <p>Threads: called on the session's thread (never an event loop) while no statement runs; may block
 * briefly for the loop's answer.
 */
@FunctionalInterface
public interface NativeOpener {
    /**
     * A native transaction attached to nothing yet whose connections carry {@code setup} and run
     * {@code begin} as they join, or null when the face cannot open one now (no reservation at once):
     * the JDBC executor runs the transaction as before.
     */
    NativeTransaction open(String setup, List<String> begin, String logicalSchema);
}
