package io.shardwise.core.execute;

import java.util.List;

/**
 * What one XA recovery pass did: prepared branches of this instance committed (their decision was
 * logged) and rolled back (it was not), and what it could not reach or resolve (retried next pass).
 */
public record RecoveryReport(int committed, int rolledBack, List<String> failures) {
    public RecoveryReport {
        failures = List.copyOf(failures);
    }

    public static final RecoveryReport NONE = new RecoveryReport(0, 0, List.of());
}
