package io.shardwise.core.config;

import java.time.Duration;
import java.util.Objects;

/** Connection-pool limits of one backend (HikariCP's meaning for each). */
public record PoolConfig(int max, int minIdle, Duration connectionTimeout, Duration idleTimeout, Duration maxLifetime) {
    public static final PoolConfig DEFAULT =
            new PoolConfig(32, 4, Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofMinutes(30));

    public PoolConfig {
        if (max < 1 || minIdle < 0 || minIdle > max) {
            throw new IllegalArgumentException("pool needs 1 <= max and 0 <= minIdle <= max: " + max + ", " + minIdle);
        }
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(maxLifetime, "maxLifetime");
    }
}
