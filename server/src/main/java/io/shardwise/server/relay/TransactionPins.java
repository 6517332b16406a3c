package io.shardwise.server.relay;

import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;

/**
 * What the text and the prepared relay share about the native transaction a transactional relay plan
 * ({@link RelayPlan#transactional}) runs in: whether it begins with the statement, and a deadlock's end
 * of it. On the loop.
 */
final class TransactionPins {
    /** ER_LOCK_DEADLOCK: the backend rolled back the whole transaction there. */
    static final int DEADLOCK = 1213;

    private TransactionPins() {}

    /** {@code pinned} was made for this statement (admitted with it) and is not the session's yet. */
    static boolean fresh(RelaySession session, PinnedTransaction pinned) {
        return pinned != null && session.nativeTransaction() == null;
    }

    /** After a relayed statement of {@code pinned} ended: a deadlock ends the whole transaction, as on one MySQL. */
    static void ended(RelaySession session, PinnedTransaction pinned, int failedWith) {
        if (pinned != null && failedWith == DEADLOCK && session.nativeTransaction() == pinned) {
            pinned.deadlocked();
        }
    }
}
