package io.shardwise.core.rule;

import java.util.Set;

/**
 * Makes sharding algorithms of one {@code type} from their configured properties. Built-in and
 * custom providers are found by {@link java.util.ServiceLoader}: a custom algorithm is a jar on the
 * classpath with a provider class named in
 * {@code META-INF/services/io.shardwise.core.rule.ShardingAlgorithmProvider}. See
 * docs/configuration.md, "Custom algorithms".
 */
public interface ShardingAlgorithmProvider {
    /** The name used in {@code algorithm: { type: ... }}; unique among providers. */
    String type();

    /** Every property this type accepts; others are reported as unknown, with a suggestion. */
    Set<String> propertyNames();

    /**
     * Validates the properties and makes the algorithm. Reports each mistake through
     * {@link AlgorithmContext#reject} and returns null if there was any.
     */
    ShardingAlgorithm create(AlgorithmContext context);
}
