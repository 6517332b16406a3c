package io.shardwise.core.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code timeouts} section: limits on statements towards slow backends, for both faces. How long
 * to wait for a backend connection is each backend's {@code pool.connectionTimeout} (it also bounds
 * the TCP connect).
 *
 * @param statement the longest a statement may run, streaming its rows included, before it is
 *     killed on every backend still working (MySQL's error 3024, as for {@code max_execution_time});
 *     {@link Duration#ZERO} for no limit
 * @param lockWait {@code innodb_lock_wait_timeout} on every connection a transaction holds (whole
 *     seconds, rounded up): a lock cycle over several backends, which no single InnoDB detects,
 *     ends with 1205 after this long
 */
public record TimeoutsConfig(Duration statement, Duration lockWait) {
    public static final Duration MIN_LOCK_WAIT = Duration.ofSeconds(1);
    /** InnoDB's own upper bound of innodb_lock_wait_timeout (1073741824 s), kept well inside it. */
    public static final Duration MAX_LOCK_WAIT = Duration.ofDays(365);
    /** After the bounds above: the constructor reads them. */
    public static final TimeoutsConfig DEFAULT = new TimeoutsConfig(Duration.ZERO, Duration.ofSeconds(10));

    public TimeoutsConfig {
        Objects.requireNonNull(statement, "statement");
        Objects.requireNonNull(lockWait, "lockWait");
        if (statement.isNegative()) {
            throw new IllegalArgumentException("statement must not be negative: " + statement);
        }
        if (lockWait.compareTo(MIN_LOCK_WAIT) < 0 || lockWait.compareTo(MAX_LOCK_WAIT) > 0) {
            throw new IllegalArgumentException("lockWait must be between 1 s and 365 days: " + lockWait);
        }
    }
}
