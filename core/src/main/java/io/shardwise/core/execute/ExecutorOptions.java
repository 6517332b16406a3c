package io.shardwise.core.execute;

import java.time.Duration;
import java.util.Objects;

/**
 * Executor-wide settings.
 *
 * @param lockWaitTimeout sent as {@code SET SESSION innodb_lock_wait_timeout} to every connection a
 *     transaction holds (whole seconds, rounded up), so a lock cycle that spans backends, which no
 *     single InnoDB can detect, ends with MySQL's own error 1205 after this long instead of after
 *     the server's default 50 s. A session's own {@code SET SESSION innodb_lock_wait_timeout} wins.
 * @param statementTimeout default per-statement limit for new sessions, {@link Duration#ZERO} for
 *     none; it covers execution and the streaming of rows until every cursor is closed, and ends
 *     the statement with KILL QUERY (error 1317) on each backend still working.
 */
public record ExecutorOptions(Duration lockWaitTimeout, Duration statementTimeout) {
    public static final ExecutorOptions DEFAULT = new ExecutorOptions(Duration.ofSeconds(10), Duration.ZERO);

    public ExecutorOptions {
        Objects.requireNonNull(lockWaitTimeout, "lockWaitTimeout");
        Objects.requireNonNull(statementTimeout, "statementTimeout");
        if (lockWaitTimeout.compareTo(Duration.ofSeconds(1)) < 0 || lockWaitTimeout.compareTo(Duration.ofDays(365)) > 0) {
            throw new IllegalArgumentException("lockWaitTimeout must be between 1 s and 365 days: " + lockWaitTimeout);
        }
        if (statementTimeout.isNegative()) {
            throw new IllegalArgumentException("statementTimeout must not be negative: " + statementTimeout);
        }
    }

    public ExecutorOptions withLockWaitTimeout(Duration timeout) {
        return new ExecutorOptions(timeout, statementTimeout);
    }

    public ExecutorOptions withStatementTimeout(Duration timeout) {
        return new ExecutorOptions(lockWaitTimeout, timeout);
    }

    /** innodb_lock_wait_timeout takes whole seconds; never round a limit down. */
    long lockWaitSeconds() {
        long s = lockWaitTimeout.toSeconds();
        return lockWaitTimeout.toNanosPart() == 0 ? s : s + 1;
    }
}
