package io.shardwise.core.rule;

import java.util.Set;

/** A custom algorithm plugged in through ServiceLoader, as users do (see the test resources). */
public final class TestModuloTenAlgorithmProvider implements ShardingAlgorithmProvider {
    @Override
    public String type() {
        return "last-digit";
    }

    @Override
    public Set<String> propertyNames() {
        return Set.of("offset");
    }

    @Override
    public ShardingAlgorithm create(AlgorithmContext context) {
        if (context.nodeCount() != 10) {
            context.reject("type", "last-digit needs exactly 10 nodes, table '" + context.table() + "' has " + context.nodeCount());
            return null;
        }
        long offset = context.property("offset") instanceof Long l ? l : 0;
        return key -> (int) Math.floorMod(Long.parseLong(key.toString()) + offset, 10L);
    }
}
