package io.shardwise.jmh.proxy;

import java.util.List;

/**
 * The paths a proxy experiment measures, as the script names them, in report order. Ratios are
 * taken to {@link #DIRECT} (what the extra hop and Shardwise cost together) and to {@link #RELAY}
 * (what Shardwise costs beyond the hop any proxy pays).
 */
enum Variant {
    DIRECT("direct", "direct MariaDB"),
    RELAY("relay", "relay (HAProxy mode tcp)"),
    RELAY_TLS("relay-tls", "relay (HAProxy mode tcp), TLS to the backend"),
    SW_NORULES("sw-norules", "Shardwise, no rules"),
    SW_UNPARTITIONED("sw-unpartitioned", "Shardwise, small unpartitioned"),
    SW_PARTITIONED("sw-partitioned", "Shardwise, small partitioned"),
    SW_SHARDED("sw-sharded", "Shardwise, sbtest sharded"),
    SW_TLS("sw-tls", "Shardwise, no rules, TLS (OpenSSL engine)"),
    SW_TLS_JDK("sw-tls-jdk", "Shardwise, no rules, TLS (JDK engine)"),
    SW_BASE("sw-base", "Shardwise baseline build (SHARDWISE_BASELINE_JAR), no rules"),
    SW_BASE_TLS("sw-base-tls", "Shardwise baseline build (SHARDWISE_BASELINE_JAR), no rules, TLS (OpenSSL engine)"),
    SW_BASELINE("sw-baseline", "Shardwise baseline build (SHARDWISE_BASELINE_JAR), sbtest sharded");

    final String id;
    final String label;

    Variant(String id, String label) {
        this.id = id;
        this.label = label;
    }

    static Variant of(String id) {
        for (Variant v : values()) {
            if (v.id.equals(id)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + id + "'; known: " + List.of(values()));
    }

    @Override
    public String toString() {
        return id;
    }
}
