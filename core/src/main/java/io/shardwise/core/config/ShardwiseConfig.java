package io.shardwise.core.config;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A validated configuration: one logical schema spread over backends. Immutable; maps keep the
 * file's order. Table names are matched case-insensitively (as MySQL with lower_case_table_names=1
 * and as ShardingSphere do), so the configuration may not hold two names that differ only in case.
 */
public record ShardwiseConfig(String schema, Map<String, BackendConfig> backends, String defaultBackend,
                              Map<String, TableConfig> tables, ServerConfig server,
                              TransactionConfig transaction, FederationConfig federation, TimeoutsConfig timeouts) {
    public ShardwiseConfig {
        Objects.requireNonNull(schema, "schema");
        backends = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(backends));
        Objects.requireNonNull(defaultBackend, "defaultBackend");
        tables = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tables));
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(transaction, "transaction");
        Objects.requireNonNull(federation, "federation");
        Objects.requireNonNull(timeouts, "timeouts");
    }

    /** A configuration with the default federation settings and timeouts. */
    public ShardwiseConfig(String schema, Map<String, BackendConfig> backends, String defaultBackend,
                           Map<String, TableConfig> tables, ServerConfig server, TransactionConfig transaction) {
        this(schema, backends, defaultBackend, tables, server, transaction, FederationConfig.DEFAULT, TimeoutsConfig.DEFAULT);
    }

    /** The configured table of that name, ignoring case, or null. */
    public TableConfig table(String name) {
        TableConfig exact = tables.get(name);
        if (exact != null) {
            return exact;
        }
        for (TableConfig t : tables.values()) {
            if (t.name().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        return null;
    }
}
