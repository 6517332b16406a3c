package io.shardwise.core.route;

/**
 * One ordering key of a merge. Values of {@code column} are compared as MySQL compares them for the
 * column's type: numbers as numbers, temporal values in time order, binary strings by bytes; NULL
 * sorts first ascending (last descending). For strings under a non-binary collation,
 * {@code weightColumn} is a hidden column holding {@code WEIGHT_STRING(expr)}, whose bytes compare
 * as the collation does ('apple' = 'Apple' under utf8mb4_general_ci); -1 when not needed.
 */
public record SortKey(int column, boolean descending, int weightColumn) {
    public SortKey {
        if (column < 0 || weightColumn < -1) {
            throw new IllegalArgumentException("sort key " + column + ", " + weightColumn);
        }
    }

    public static SortKey ascending(int column) {
        return new SortKey(column, false, -1);
    }

    /** The column whose bytes decide the order. */
    public int compareColumn() {
        return weightColumn >= 0 ? weightColumn : column;
    }

    @Override
    public String toString() {
        return "#" + column + (weightColumn >= 0 ? "~w#" + weightColumn : "") + (descending ? " desc" : "");
    }
}
