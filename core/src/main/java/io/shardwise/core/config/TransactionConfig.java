package io.shardwise.core.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * How a transaction that touched several backends commits (the {@code transaction} section).
 *
 * <p>{@link Mode#LOCAL}: each backend commits its own local transaction, one after another; not
 * atomic across backends. {@link Mode#XA}: two-phase commit over MySQL XA with a durable decision
 * log ({@code log}) and recovery of in-doubt transactions at start and every
 * {@code recoveryInterval}. The XIDs carry {@code instanceId}, so that two Shardwise instances in
 * front of the same backends never resolve each other's transactions.
 *
 * @param log the decision log; its absolute form names the instance when no id is configured
 * @param instanceId the configured id, or null to derive one from the log's path ({@link #instance()})
 */
public record TransactionConfig(Mode mode, Path log, String instanceId, Duration recoveryInterval) {
    public static final Path DEFAULT_LOG = Path.of("shardwise-xa.log");
    public static final Duration DEFAULT_RECOVERY_INTERVAL = Duration.ofSeconds(30);
    public static final TransactionConfig DEFAULT = new TransactionConfig(Mode.LOCAL, DEFAULT_LOG, null, DEFAULT_RECOVERY_INTERVAL);
    /** Letters, digits and underscore, so that an XID's instance part is never ambiguous (the separator is '.'). */
    public static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9_]{1,24}");

    public enum Mode { LOCAL, XA }

    public TransactionConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(recoveryInterval, "recoveryInterval");
        if (instanceId != null && !INSTANCE_ID.matcher(instanceId).matches()) {
            throw new IllegalArgumentException("not an instance id: '" + instanceId + "'");
        }
    }

    public static TransactionConfig xa(Path log, String instanceId) {
        return new TransactionConfig(Mode.XA, log, instanceId, DEFAULT_RECOVERY_INTERVAL);
    }

    /**
     * The instance's id in XIDs: the configured one, else {@code p} and the CRC-32 of the log's
     * absolute path in hex. Two instances that share a log would share an id, which the log's file
     * lock forbids; two with different logs get different ids.
     */
    public String instance() {
        if (instanceId != null) {
            return instanceId;
        }
        CRC32 crc = new CRC32();
        crc.update(log.toAbsolutePath().normalize().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        return "p" + Long.toHexString(crc.getValue());
    }
}
