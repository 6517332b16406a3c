package io.shardwise.server.relay;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;
import io.shardwise.core.NativeOpener;
import io.shardwise.core.RelaySession;
import io.shardwise.core.execute.NativeTransaction;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Native transactions opened from the session's thread ({@link NativeOpener}): a transaction whose
 * first statement missed the plan cache pins relay connections as the loop would have for a relayed
 * one, so its later statements relay instead of the whole transaction staying on the JDBC executor.
 *
 * <p>Only a reservation the loop can make at once is taken: a waiting one would park the session's
 * thread where KILL QUERY cannot reach it (the loop's own admission answers a kill with 1317), so
 * under pressure the transaction runs on the JDBC executor, bounded by its own admission, as before.
 * The reservation is made on the client's event loop (Relays and PinnedTransaction are confined to
 * it); the session's thread waits for that one task.
 */
final class SessionThreadPins implements NativeOpener {
    private final Relays relays;
    private final EventLoop loop;
    private final boolean foundRows;
    private final RelaySession session;

    SessionThreadPins(Relays relays, EventLoop loop, boolean foundRows, RelaySession session) {
        this.relays = relays;
        this.loop = loop;
        this.foundRows = foundRows;
        this.session = session;
    }

    @Override
    public NativeTransaction open(String setup, List<String> begin, String logicalSchema) {
        if (loop.inEventLoop() || relays.closed()) {
            return null; // never blocks a loop; a closing server starts nothing new
        }
        CompletableFuture<NativeTransaction> opened = new CompletableFuture<>();
        try {
            loop.execute(() -> {
                Future<Relays.Reservation> admitted = relays.admit(loop, foundRows, setup);
                if (admitted.isDone() && admitted.isSuccess()) {
                    opened.complete(new PinnedTransaction(relays, admitted.getNow(), loop, foundRows, setup, begin, session,
                            logicalSchema));
                } else {
                    relays.abandon(loop, admitted); // out of the queue, nothing held
                    opened.complete(null);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return null; // the loop is shutting down
        }
        return opened.join();
    }
}
