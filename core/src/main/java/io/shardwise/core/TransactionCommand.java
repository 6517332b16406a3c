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
 * @param transaction the native transaction to end, null for {@link Action#ANSWERED}
 */
public record TransactionCommand(Action action, NativeTransaction transaction) {
    public enum Action { ANSWERED, COMMIT, ROLLBACK }

    static final TransactionCommand ANSWERED = new TransactionCommand(Action.ANSWERED, null);

    public TransactionCommand {
        if ((action == Action.ANSWERED) != (transaction == null)) {
            throw new IllegalArgumentException(action + " with transaction " + transaction);
        }
    }
}
