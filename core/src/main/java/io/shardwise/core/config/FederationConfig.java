package io.shardwise.core.config;

/**
 * The {@code federation} section: the third tier of a SELECT (statements the fast path and the
 * streaming merger refuse). {@code memoryBudget}: bytes of rows one statement may hold in Shardwise
 * while it copies tables to the coordinator backend; beyond it the statement fails with MySQL's 3170.
 * {@code joinKeys}: distinct join keys of a copied table at most sent as {@code IN} batches to the scans
 * of the table joined to it (federate.JoinKeys); a larger key set leaves that table's scan whole; 0 turns
 * the reduction off.
 */
public record FederationConfig(long memoryBudget, int joinKeys) {
    public static final long MIN_BUDGET = 1L << 10;
    public static final long MAX_BUDGET = 64L << 30;
    /** Distinct keys of a join's source at most sent to the other table's scans (0 turns the reduction off). */
    public static final int DEFAULT_JOIN_KEYS = 10_000;
    public static final int MAX_JOIN_KEYS = 1_000_000;
    public static final FederationConfig DEFAULT = new FederationConfig(256L << 20, DEFAULT_JOIN_KEYS);

    public FederationConfig {
        if (memoryBudget < MIN_BUDGET || memoryBudget > MAX_BUDGET) {
            throw new IllegalArgumentException("memoryBudget out of range: " + memoryBudget);
        }
        if (joinKeys < 0 || joinKeys > MAX_JOIN_KEYS) {
            throw new IllegalArgumentException("joinKeys out of range: " + joinKeys);
        }
    }

    public FederationConfig(long memoryBudget) {
        this(memoryBudget, DEFAULT_JOIN_KEYS);
    }

    static final java.util.Set<String> KEYS = java.util.Set.of("memoryBudget", "joinKeys");

    /** Reads the section: a mapping with {@code memoryBudget} (a size, e.g. 256M). */
    static FederationConfig parse(ConfigNode node) {
        if (!node.isMapping()) {
            node.problem("expected a mapping with memoryBudget and joinKeys (e.g. { memoryBudget: 256M, joinKeys: 10000 })");
            return DEFAULT;
        }
        java.util.Map<String, ConfigNode> entries = node.entries(KEYS);
        ConfigNode budget = entries.get("memoryBudget");
        Long bytes = budget == null ? null : ServerParser.size(budget, MIN_BUDGET, MAX_BUDGET, "64G", "256M");
        ConfigNode keys = entries.get("joinKeys");
        Integer joinKeys = keys == null ? null : keys.integer(0, MAX_JOIN_KEYS);
        return new FederationConfig(bytes == null ? DEFAULT.memoryBudget() : bytes, joinKeys == null ? DEFAULT_JOIN_KEYS : joinKeys);
    }
}
