package io.shardwise.server.relay;

import io.netty.channel.Channel;
import io.shardwise.core.RelaySession;
import io.shardwise.core.TransactionCommand;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import java.util.concurrent.CompletableFuture;

/**
 * BEGIN, COMMIT and ROLLBACK, and SAVEPOINT, ROLLBACK TO and RELEASE SAVEPOINT, answered on the client's
 * event loop ({@link RelaySession#transactionCommand}), so a transaction of relayed statements never wakes
 * the session's thread: BEGIN reaches no backend (each joins at its first statement), and the end of a
 * native transaction, or a savepoint statement in it, goes to all its connections at once from the loop
 * and is answered from there (a savepoint is recorded for the backends that join later). The answer is the session thread's
 * byte for byte: an OK with the session's status flags after the statement, or the ERR of a COMMIT
 * that failed (recorded for SHOW ERRORS).
 *
 * <p>Only while the session's transaction is none, or native and idle ({@link #mayAnswer}): units a
 * merged read sent ahead are the session thread's to settle first. On the loop.
 */
final class TransactionStatements {
    private TransactionStatements() {}

    /** The session has no transaction, or a native one with nothing sent ahead: its end may run here. */
    static boolean mayAnswer(RelaySession session) {
        return switch (session.nativeTransaction()) {
            case null -> true;
            case PinnedTransaction p -> !p.prefetching();
            default -> false;
        };
    }

    /**
     * Answers {@code command}, the session's part done; {@code ended} runs once the answer is written.
     * Returns the transaction whose end is under way (KILL QUERY reaches its backends), or null when
     * the answer went out at once.
     */
    static PinnedTransaction answer(Channel client, RelaySession session, int sequenceId, TransactionCommand command, Runnable ended) {
        PinnedTransaction pinned = (PinnedTransaction) command.transaction();
        switch (command.action()) {
            case ANSWERED -> {
                ok(client, session, sequenceId);
                ended.run();
                return null;
            }
            case NO_SUCH_SAVEPOINT -> {
                failed(client, session, sequenceId, new ShardwiseException(ErrorCode.SAVEPOINT_DOES_NOT_EXIST, command.savepoint()));
                ended.run();
                return null;
            }
            case COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT -> {
                CompletableFuture<Object> done = new CompletableFuture<>();
                // completes on the loop: the connections' answers are read there
                done.whenComplete((result, failure) -> {
                    if (command.action() == TransactionCommand.Action.COMMIT && !pinned.open()) {
                        session.nativeEnded(); // committed, or failed on a backend; a doomed one stays until ROLLBACK
                    }
                    if (failure == null) {
                        ok(client, session, sequenceId);
                    } else {
                        failed(client, session, sequenceId, failure instanceof ShardwiseException s ? s
                                : ShardwiseException.bug("a native transaction's own statement", failure));
                    }
                    ended.run();
                });
                switch (command.action()) {
                    case COMMIT -> pinned.commitNow(done);
                    case ROLLBACK -> pinned.rollbackNow(done);
                    case SAVEPOINT -> pinned.savepointNow(command.savepoint(), done);
                    case ROLLBACK_TO_SAVEPOINT -> pinned.rollbackToSavepointNow(command.savepoint(), done);
                    default -> pinned.releaseSavepointNow(command.savepoint(), done);
                }
                return done.isDone() ? null : pinned;
            }
        }
        throw new IllegalStateException(command.action().name()); // unreachable: the switch covers every action
    }

    /** The ERR the session's thread writes for {@code e}, recorded for SHOW ERRORS. */
    private static void failed(Channel client, RelaySession session, int sequenceId, ShardwiseException e) {
        session.failed(e.errno(), e.wireMessage());
        client.writeAndFlush(new Packet(sequenceId, new ErrPacket(e.errno(), e.sqlState(), e.wireMessage()).encode(client.alloc())),
                client.voidPromise());
    }

    private static void ok(Channel client, RelaySession session, int sequenceId) {
        ServerStatus status = ServerStatus.of(session.inTransaction(), session.autocommit());
        if (session.noBackslashEscapes()) {
            status = status.with(ServerStatus.NO_BACKSLASH_ESCAPES);
        }
        client.writeAndFlush(new Packet(sequenceId, new OkPacket(0, 0, status, 0, "").encode(client.alloc(), false)),
                client.voidPromise());
    }
}
