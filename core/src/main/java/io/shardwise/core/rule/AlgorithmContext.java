package io.shardwise.core.rule;

import io.shardwise.core.config.DataNode;
import java.util.List;

/** What a {@link ShardingAlgorithmProvider} sees of the table it makes an algorithm for. */
public interface AlgorithmContext {
    String table();

    /** The nodes in index order; an algorithm must return indexes below {@code nodes().size()}. */
    List<DataNode> nodes();

    default int nodeCount() {
        return nodes().size();
    }

    /**
     * A property as written in YAML: String, Long, BigDecimal, Boolean, List or Map, or null when
     * absent. {@code ${env:...}} references are already expanded.
     */
    Object property(String name);

    /** Reports a mistake in a property: what was wrong and what would be valid. */
    void reject(String property, String message);
}
