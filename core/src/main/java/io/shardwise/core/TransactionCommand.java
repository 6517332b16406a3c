package io.shardwise.core;

import io.shardwise.core.execute.NativeTransaction;

/**
 * What a face does for a transaction's own statement (BEGIN, START TRANSACTION, COMMIT, ROLLBACK)
 * that its session let it answer without the session's thread ({@link RelaySession#transactionCommand}):
 * the session has already done its part when it answers one.
 *
 * @param action {@link Action#ANSWERED}: nothing is left to do but the OK (a BEGIN, which reaches no
 *     backend: each joins when a statement first needs it; or an end with nothing on a backend);
 *     {@link Action#COMMIT}: the face commits {@code transaction} on its connections, then, if it is no
 *     longer open (committed, or failed on some backend), tells the session ({@link RelaySession#nativeEnded});
 *     a doomed one stays open until ROLLBACK, as on the session's thread; {@link Action#ROLLBACK}: the
 *     session is out of the transaction already, the face rolls {@code transaction} back on its connections
 *     {@link Action#SAVEPOINT}, {@link Action#ROLLBACK_TO_SAVEPOINT}, {@link Action#RELEASE_SAVEPOINT}: the
 *     face runs that statement for {@code savepoint} on {@code transaction}'s connections and records it there
 *     (1305 when the transaction holds no such savepoint, as MySQL); {@link Action#NO_SUCH_SAVEPOINT}: the
 *     face answers 1305 for {@code savepoint} (ROLLBACK TO or RELEASE of one the session does not hold, with no
 *     backend holding its transaction: nothing changed), the error the session's thread would report
 * @param transaction the native transaction to end, null for {@link Action#ANSWERED} and {@link Action#NO_SUCH_SAVEPOINT}
 * @param savepoint the savepoint's name (unquoted) for the savepoint actions, else null
 */
public record TransactionCommand(Action action, NativeTransaction transaction, String savepoint) {
    public enum Action { ANSWERED, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT, NO_SUCH_SAVEPOINT }

    static final TransactionCommand ANSWERED = new TransactionCommand(Action.ANSWERED, null);

    public TransactionCommand(Action action, NativeTransaction transaction) {
        this(action, transaction, null);
    }

    public TransactionCommand {
        if ((action == Action.ANSWERED || action == Action.NO_SUCH_SAVEPOINT) != (transaction == null)) {
            throw new IllegalArgumentException(action + " with transaction " + transaction);
        }
        boolean named = action == Action.SAVEPOINT || action == Action.ROLLBACK_TO_SAVEPOINT || action == Action.RELEASE_SAVEPOINT
                || action == Action.NO_SUCH_SAVEPOINT;
        if (named != (savepoint != null)) {
            throw new IllegalArgumentException(action + " with savepoint " + savepoint);
        }
    }
}
