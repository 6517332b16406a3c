package io.shardwise.core.config;

import java.util.Map;
import java.util.Objects;

/**
 * A sharding algorithm as configured: its type and its type-specific properties, checked by the
 * algorithm's provider when the rule is built ({@code location} is where to point at then).
 */
public record AlgorithmConfig(String type, Map<String, Object> properties, Location location) {
    public AlgorithmConfig {
        Objects.requireNonNull(type, "type");
        // null-tolerant: an empty YAML value (boundaries:) is a mistake the provider reports
        properties = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
        Objects.requireNonNull(location, "location");
    }
}
