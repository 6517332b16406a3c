package io.shardwise.testkit;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting in tests: poll a condition until it holds or a deadline passes, never sleep a fixed time
 * (STYLE 25). A timeout fails with what was awaited and, where given, what was last seen.
 */
public final class Await {
    /** Long enough for a loaded machine (two cores shared by several builds), short enough to fail a hang. */
    public static final Duration DEFAULT = Duration.ofSeconds(15);
    private static final long POLL_MILLIS = 10;

    private Await() {}

    /** Waits until {@code condition} holds, at most {@link #DEFAULT}. */
    public static void until(String what, BooleanSupplier condition) {
        until(what, DEFAULT, condition, () -> "");
    }

    /**
     * @param seen what the condition looked at last, for the failure message
     * @throws AssertionError when {@code timeout} passes first
     */
    public static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> seen) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                String last = seen.get();
                throw new AssertionError("timed out after " + timeout + " waiting until " + what + (last.isEmpty() ? "" : "; last seen: " + last));
            }
            try {
                Thread.sleep(POLL_MILLIS); // a poll interval, not a wait for the condition
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what, e);
            }
        }
    }
}
