package io.shardwise.core.config;

/**
 * The {@code federation} section: the third tier of a SELECT (statements the fast path and the
 * streaming merger refuse). {@code memoryBudget}: bytes of rows one statement may hold in Shardwise
 * while it copies tables to the coordinator backend; beyond it the statement fails with MySQL's 3170.
 */
public record FederationConfig(long memoryBudget) {
    public static final long MIN_BUDGET = 1L << 10;
    public static final long MAX_BUDGET = 64L << 30;
    public static final FederationConfig DEFAULT = new FederationConfig(256L << 20);

    public FederationConfig {
        if (memoryBudget < MIN_BUDGET || memoryBudget > MAX_BUDGET) {
            throw new IllegalArgumentException("memoryBudget out of range: " + memoryBudget);
        }
    }

    static final java.util.Set<String> KEYS = java.util.Set.of("memoryBudget");

    /** Reads the section: a mapping with {@code memoryBudget} (a size, e.g. 256M). */
    static FederationConfig parse(ConfigNode node) {
        if (!node.isMapping()) {
            node.problem("expected a mapping with memoryBudget (e.g. { memoryBudget: 256M })");
            return DEFAULT;
        }
        ConfigNode budget = node.entries(KEYS).get("memoryBudget");
        Long bytes = budget == null ? null : ServerParser.size(budget, MIN_BUDGET, MAX_BUDGET, "64G", "256M");
        return bytes == null ? DEFAULT : new FederationConfig(bytes);
    }
}
