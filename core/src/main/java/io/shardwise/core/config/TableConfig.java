package io.shardwise.core.config;

import java.util.List;

/**
 * How one logical table is laid out. Tables the configuration does not name are single tables on
 * the default backend.
 */
public sealed interface TableConfig
        permits TableConfig.Sharded, TableConfig.Bound, TableConfig.Broadcast, TableConfig.Single {

    String name();

    /** The key generator for a column of this table, or null. */
    KeyGeneratorConfig generate();

    /** Every physical table this logical table occupies. */
    List<DataNode> nodes();

    /** Rows spread over {@code nodes} by {@code algorithm} applied to column {@code key}. */
    record Sharded(String name, List<DataNode> nodes, String key, AlgorithmConfig algorithm,
                   KeyGeneratorConfig generate) implements TableConfig {
        public Sharded {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("sharded table " + name + " has no nodes");
            }
        }
    }

    /**
     * Co-located with {@code bindTo}: node i of this table holds the rows whose {@code key} maps to
     * node i of {@code bindTo}, so joins on the key stay on one shard.
     */
    record Bound(String name, String bindTo, List<DataNode> nodes, String key, KeyGeneratorConfig generate)
            implements TableConfig {
        public Bound {
            nodes = List.copyOf(nodes);
        }
    }

    /** A full copy on every backend: reads go to one, writes to all. */
    record Broadcast(String name, List<DataNode> nodes, KeyGeneratorConfig generate) implements TableConfig {
        public Broadcast {
            nodes = List.copyOf(nodes);
        }
    }

    /** Lives whole in one physical table, possibly under another name. */
    record Single(String name, DataNode node, KeyGeneratorConfig generate) implements TableConfig {
        @Override
        public List<DataNode> nodes() {
            return List.of(node);
        }
    }
}
