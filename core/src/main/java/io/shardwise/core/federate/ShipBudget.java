package io.shardwise.core.federate;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;

/**
 * The memory one federated statement may hold in this process: the rows it ships to the coordinator,
 * counted as their cells' bytes plus a per-row overhead, before they are written there. Exceeding it
 * ends the statement with MySQL's 3170 naming the setting, never an {@code OutOfMemoryError}. One per
 * statement execution; not thread-safe.
 */
public final class ShipBudget {
    /** The setting's name, as errors and docs spell it. */
    public static final String SETTING = "federation.memoryBudget";
    /** What a kept row costs beyond its cells: the array, the boxed values, the list slot. */
    static final int ROW_OVERHEAD = 64;
    static final int CELL_OVERHEAD = 24;

    private final long limit;
    private long used;
    private long rows;
    private long cells;

    public ShipBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException(SETTING + " must be positive: " + limit);
        }
        this.limit = limit;
    }

    /** Counts one row of {@code cells} cells holding {@code bytes} bytes. */
    public void row(int cells, long bytes) {
        this.rows++;
        this.cells += cells;
        used += ROW_OVERHEAD + (long) cells * CELL_OVERHEAD + bytes;
        if (used > limit) {
            throw new ShardwiseException(ErrorCode.CAPACITY_EXCEEDED, limit, SETTING,
                    "The statement's copy of rows from other shards is larger; raise the budget or narrow the statement.");
        }
    }

    /** Rows counted so far. */
    public long rows() {
        return rows;
    }

    /** Cells counted so far. */
    public long cells() {
        return cells;
    }

    public long used() {
        return used;
    }
}
