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
 *     the statement with KILL QUERY on each backend still working and error 3024 (MySQL's for
 *     {@code max_execution_time}; a KILL QUERY or cancel by a client stays 1317).
 */
public record ExecutorOptions(Duration lockWaitTimeout, Duration statementTimeout) {
    public static final ExecutorOptions DEFAULT = of(io.shardwise.core.config.TimeoutsConfig.DEFAULT);

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

    /** The configuration's {@code timeouts} section. */
    public static ExecutorOptions of(io.shardwise.core.config.TimeoutsConfig timeouts) {
        return new ExecutorOptions(timeouts.lockWait(), timeouts.statement());
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
