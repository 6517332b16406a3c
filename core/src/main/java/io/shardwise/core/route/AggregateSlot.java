package io.shardwise.core.route;

import java.util.List;

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
 *   <li>GROUP_CONCAT: the units group by the arguments and ORDER BY keys too, so each unit row's
 *       {@code column} is the GROUP_CONCAT of rows equal in all of them (a piece); the merger sorts the
 *       pieces by {@link Concat#order}, for DISTINCT keeps the first piece per {@link Concat#identity},
 *       and joins them with the separator (see {@link Concat}).
 *   <li>JSON_ARRAYAGG, JSON_OBJECTAGG: as GROUP_CONCAT, each piece a unit's JSON array (object) over rows
 *       equal in the arguments and ORDER BY keys; the merger joins the pieces' members with MariaDB's
 *       separators ({@code ,} in an array, {@code ", "} in an object) inside one pair of brackets (braces).
 *   <li>VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP: per unit, {@code countColumn} = COUNT(x),
 *       {@code sumColumn} = SUM(x) and {@code varianceColumn} = VAR_POP(x) as an unrounded DOUBLE,
 *       combined with Chan, Golub and LeVeque's pairwise formula (stable, unlike a sum of squares);
 *       NULL over no values, and for the sample kinds over one value.
 * </ul>
 * Unused indexes are -1; {@code concat} is set for GROUP_CONCAT only.
 */
public record AggregateSlot(Kind kind, int column, int sumColumn, int countColumn, int weightColumn, Concat concat,
                            int varianceColumn) {
    public enum Kind {
        COUNT, SUM, MIN, MAX, AVG, COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT, BIT_AND, BIT_OR, BIT_XOR, GROUP_CONCAT,
        VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, JSON_ARRAYAGG, JSON_OBJECTAGG;

        /** Merged by joining the units' pieces with a {@link Concat}. */
        public boolean isConcat() {
            return this == GROUP_CONCAT || this == JSON_ARRAYAGG || this == JSON_OBJECTAGG;
        }

        /** One of the variance family, merged from COUNT, SUM and VAR_POP per unit. */
        public boolean isVariance() {
            return this == VAR_POP || this == VAR_SAMP || this == STDDEV_POP || this == STDDEV_SAMP;
        }
    }

    /**
     * How GROUP_CONCAT pieces merge: {@code order} sorts them (hidden columns of the ORDER BY keys, with
     * weights); {@code identity} (for DISTINCT: the arguments' columns, with weights, compared for
     * equality) de-duplicates them; {@code separatorColumn} holds the SEPARATOR literal as the units
     * return it (in the result's character set), -1 for MySQL's default ','; {@code lengthColumn} holds the
     * units' {@code @@group_concat_max_len} (the session's, pushed to them), -1 for no limit.
     */
    public record Concat(List<SortKey> order, List<SortKey> identity, boolean distinct, int separatorColumn, int lengthColumn) {
        public Concat {
            order = List.copyOf(order);
            identity = List.copyOf(identity);
        }

        @Override
        public String toString() {
            return (distinct ? " distinct " + identity : "") + (order.isEmpty() ? "" : " order " + order)
                    + (separatorColumn >= 0 ? " sep#" + separatorColumn : "") + (lengthColumn >= 0 ? " max#" + lengthColumn : "");
        }
    }

    public AggregateSlot(Kind kind, int column, int sumColumn, int countColumn, int weightColumn) {
        this(kind, column, sumColumn, countColumn, weightColumn, null, -1);
    }

    public AggregateSlot(Kind kind, int column, int sumColumn, int countColumn, int weightColumn, Concat concat) {
        this(kind, column, sumColumn, countColumn, weightColumn, concat, -1);
    }

    public AggregateSlot {
        if (kind.isConcat() != (concat != null)) {
            throw new IllegalArgumentException("GROUP_CONCAT and the JSON aggregates need their Concat, others none: " + kind);
        }
        if (column < 0) {
            throw new IllegalArgumentException("aggregate column " + column);
        }
        if (kind == Kind.AVG && (sumColumn < 0 || countColumn < 0)) {
            throw new IllegalArgumentException("AVG needs hidden SUM and COUNT columns");
        }
        if (kind.isVariance() != (varianceColumn >= 0) || kind.isVariance() && (sumColumn < 0 || countColumn < 0)) {
            throw new IllegalArgumentException(kind + ": the variance family, and only it, needs hidden COUNT, SUM and VAR_POP columns");
        }
    }

    public static AggregateSlot of(Kind kind, int column) {
        return new AggregateSlot(kind, column, -1, -1, -1);
    }

    @Override
    public String toString() {
        return kind.name().toLowerCase(java.util.Locale.ROOT) + "(#" + column
                + (sumColumn >= 0 ? " sum#" + sumColumn + " count#" + countColumn : "")
                + (weightColumn >= 0 ? " ~w#" + weightColumn : "") + (concat != null ? concat.toString() : "")
                + (varianceColumn >= 0 ? " var#" + varianceColumn : "") + ")";
    }
}
