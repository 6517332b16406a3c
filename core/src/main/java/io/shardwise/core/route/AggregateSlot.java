package io.shardwise.core.route;

/**
 * One aggregate of a grouped merge: how the per-unit values in {@code column} combine.
 * <ul>
 *   <li>COUNT: sum of the units' counts (BIGINT).
 *   <li>SUM: sum, exact for integer and DECIMAL columns (DECIMAL result), floating for FLOAT/DOUBLE.
 *   <li>MIN, MAX: the least or greatest value as the column type compares (for strings, by
 *       {@code weightColumn}, which then holds WEIGHT_STRING of the argument).
 *   <li>AVG: {@code sumColumn} / {@code countColumn} (hidden SUM and COUNT of the argument), written
 *       with the scale the backend gave {@code column} itself (MySQL: argument scale +
 *       div_precision_increment), NULL when the count is 0.
 *   <li>COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT: each unit returns one row per distinct argument
 *       value in {@code column} (the units group by it); the merger de-duplicates them across units,
 *       comparing {@code weightColumn} when set, then counts, sums or averages.
 *   <li>BIT_AND, BIT_OR, BIT_XOR: the units' BIGINT UNSIGNED values combined bit by bit; a unit over
 *       no rows sends the identity (all ones for AND, 0 otherwise), as does a merge that saw no row.
 * </ul>
 * Unused indexes are -1.
 */
public record AggregateSlot(Kind kind, int column, int sumColumn, int countColumn, int weightColumn) {
    public enum Kind { COUNT, SUM, MIN, MAX, AVG, COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT, BIT_AND, BIT_OR, BIT_XOR }

    public AggregateSlot {
        if (column < 0) {
            throw new IllegalArgumentException("aggregate column " + column);
        }
        if (kind == Kind.AVG && (sumColumn < 0 || countColumn < 0)) {
            throw new IllegalArgumentException("AVG needs hidden SUM and COUNT columns");
        }
    }

    public static AggregateSlot of(Kind kind, int column) {
        return new AggregateSlot(kind, column, -1, -1, -1);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + "(#" + column
                + (sumColumn >= 0 ? " sum#" + sumColumn + " count#" + countColumn : "")
                + (weightColumn >= 0 ? " ~w#" + weightColumn : "") + ")";
    }
}
