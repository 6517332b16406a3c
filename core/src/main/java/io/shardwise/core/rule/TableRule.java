package io.shardwise.core.rule;

import io.shardwise.core.config.DataNode;
import java.util.List;
import java.util.Objects;

/** The resolved layout of one logical table, with its algorithm and key generator instantiated. */
public sealed interface TableRule permits TableRule.Sharded, TableRule.Broadcast, TableRule.Single {
    String name();

    List<DataNode> nodes();

    /** The generator for an omitted key column, or null. */
    GeneratedKey generatedKey();

    /**
     * Rows spread over {@code nodes} by {@code algorithm} on {@code keyColumn}. Tables with the same
     * {@code bindingRoot} (a root table and the tables bound to it) hold matching keys on matching
     * node indexes, so a join on their keys stays on one node.
     */
    record Sharded(String name, List<DataNode> nodes, String keyColumn, ShardingAlgorithm algorithm,
                   String bindingRoot, GeneratedKey generatedKey) implements TableRule {
        public Sharded {
            nodes = List.copyOf(nodes);
            Objects.requireNonNull(keyColumn, "keyColumn");
            Objects.requireNonNull(algorithm, "algorithm");
            Objects.requireNonNull(bindingRoot, "bindingRoot");
        }

        /** The node holding {@code key}, or null when no node can. */
        public DataNode nodeFor(Object key) {
            int index = algorithm.nodeFor(key);
            if (index == ShardingAlgorithm.NO_NODE) {
                return null;
            }
            if (index < 0 || index >= nodes.size()) {
                throw new IllegalStateException(algorithm + " returned node " + index + " of " + nodes.size() + " for " + key);
            }
            return nodes.get(index);
        }

        public boolean isBoundTo(Sharded other) {
            return bindingRoot.equals(other.bindingRoot);
        }
    }

    /** A full copy on each node (one per backend). */
    record Broadcast(String name, List<DataNode> nodes, GeneratedKey generatedKey) implements TableRule {
        public Broadcast {
            nodes = List.copyOf(nodes);
        }
    }

    /** The whole table in one physical table. */
    record Single(String name, DataNode node, GeneratedKey generatedKey) implements TableRule {
        @Override
        public List<DataNode> nodes() {
            return List.of(node);
        }
    }

    /** A key column filled by a generator when an INSERT omits it. */
    record GeneratedKey(String column, KeyGenerator generator) {
        public GeneratedKey {
            Objects.requireNonNull(column, "column");
            Objects.requireNonNull(generator, "generator");
        }
    }
}
