package io.shardwise.core.config;

import java.util.Objects;

/**
 * One mistake in a configuration: where it is (YAML path and line, when known) and a message that
 * names the bad value and what would be valid.
 */
public record ConfigProblem(Location location, String message) {
    public ConfigProblem {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(message, "message");
    }

    @Override
    public String toString() {
        return location + ": " + message;
    }
}
