package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.shardwise.core.RelayPlan;
import io.shardwise.core.RelaySession;

/**
 * The native transaction a transactional relay plan ({@link RelayPlan#transactional}) runs in: the
 * session's pinned one, or a new one that has reserved a relay connection of every backend and that
 * the session attaches once the statement starts. Null when the session thread must run the
 * statement: its transaction is on another executor, it SET something inside the transaction that
 * the pinned connections do not carry yet, or some backend has no relay connection to reserve (the
 * JDBC executor's admission makes it wait). Shared by the text and the prepared relay. On the loop.
 */
final class TransactionPins {
    /** ER_LOCK_DEADLOCK: the backend rolled back the whole transaction there. */
    static final int DEADLOCK = 1213;

    private TransactionPins() {}

    static PinnedTransaction pin(Relays relays, RelaySession session, EventLoop loop, boolean foundRows, RelayPlan plan) {
        if (session.nativeTransaction() instanceof PinnedTransaction pinned) {
            return pinned.carries(plan.setup()) ? pinned : null;
        }
        if (session.nativeTransaction() != null) {
            return null;
        }
        Relays.Reservation reservation = relays.reserve(loop, foundRows, plan.setup());
        return reservation == null ? null
                : new PinnedTransaction(relays, reservation, loop, foundRows, plan.setup(), plan.begin(), session, plan.logicalSchema());
    }

    /** {@code pinned} was made by {@link #pin} for this statement and is not the session's yet. */
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
