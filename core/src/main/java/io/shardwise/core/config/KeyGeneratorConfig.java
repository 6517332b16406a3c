package io.shardwise.core.config;

import java.util.Map;
import java.util.Objects;

/** Fills {@code column} on INSERTs that omit it, with keys of the given type (snowflake, uuid). */
public record KeyGeneratorConfig(String column, String type, Map<String, Object> properties, Location location) {
    public KeyGeneratorConfig {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(type, "type");
        // null-tolerant: an empty YAML value (boundaries:) is a mistake the provider reports
        properties = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(properties));
        Objects.requireNonNull(location, "location");
    }
}
