package io.shardwise.core.rule;

import java.util.BitSet;

/**
 * Maps a sharding-key value to the index of the node that holds it, in the order the table's node
 * expression lists nodes. Implementations are immutable and thread-safe; {@link #nodeFor} is on
 * the hot path of every routed statement, so it must not allocate more than it has to.
 *
 * <p>Keys arrive as the router converted them for the column: {@code Long}/{@code Integer}/
 * {@code BigInteger} for integer columns, {@code BigDecimal} or {@code Double} for other numbers,
 * {@code String} for text, {@code LocalDate}/{@code LocalDateTime} for temporal columns (strings in
 * MySQL's date formats are accepted too). Never null: the router handles {@code IS NULL} itself.
 */
public interface ShardingAlgorithm {
    /** Returned when no node can hold the key (an interval before the first node, say). */
    int NO_NODE = -1;

    /**
     * The node index in {@code [0, nodeCount)}, or {@link #NO_NODE}.
     *
     * @throws IllegalArgumentException when the value cannot be read as this algorithm's key type;
     *     the router then scatters a read and refuses a write
     */
    int nodeFor(Object key);

    /** Whether {@link #nodesFor} narrows ranges; when false the router scatters range conditions. */
    default boolean supportsRanges() {
        return false;
    }

    /**
     * Sets in {@code out} the bit of every node that may hold a key in {@code range}. Requires:
     * {@link #supportsRanges()}. May over-approximate, never under-approximate.
     */
    default void nodesFor(KeyRange range, BitSet out) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not narrow ranges");
    }
}
