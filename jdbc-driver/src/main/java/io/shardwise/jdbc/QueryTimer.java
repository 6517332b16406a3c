package io.shardwise.jdbc;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Statement timeouts: one daemon thread per JVM that cancels a statement still executing when its
 * {@code setQueryTimeout} expires (the session's KILL QUERY, as Connector/J's CancelTask).
 */
final class QueryTimer {
    private static final ScheduledThreadPoolExecutor TIMER = create();

    private QueryTimer() {}

    private static ScheduledThreadPoolExecutor create() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread thread = new Thread(r, "shardwise-jdbc-query-timeout");
            thread.setDaemon(true);
            return thread;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }

    static ScheduledFuture<?> schedule(Runnable cancel, int seconds) {
        return TIMER.schedule(cancel, seconds, TimeUnit.SECONDS);
    }
}
