package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * What a multi-table UPDATE or DELETE (MySQL's {@code UPDATE a JOIN b ON … SET …}, {@code UPDATE a, b SET …},
 * {@code DELETE a, b FROM a JOIN b …}, {@code DELETE FROM a USING a JOIN b …}) adds to its record: the
 * references of its FROM ({@code top}: these narrow the route and must meet on one node), their key joins, and
 * the references it writes ({@code targets}; every top reference when {@code targetsKnown} is false: a SET
 * column without a qualifier, or a DELETE target no reference exposes, which only the backend resolves).
 *
 * <p>Invariant: {@code targets} are elements of {@code top} (by identity). Hazard: such a write is exact per
 * node only when every row a target row meets lives on that node (the router's co-location); otherwise it is
 * the third tier's, which handles one target; several targets are written one by one from {@code spans}
 * (the session's {@code MultiTargetWrites}).
 */
public record MultiTable(List<TableRef> top, List<Select.KeyJoin> keyJoins, List<TableRef> targets, boolean targetsKnown, Spans spans,
                         List<Derived> derived) {
    /**
     * Why a multi-table UPDATE with ORDER BY or LIMIT whose target rows span several nodes is refused: MariaDB 11.4 documents
     * that it sorts the join's rows, LIMIT counting join rows, and writes each target row once, from the first of them meeting
     * it; but where its plan sorts the join through a temporary table it writes other rows, with other rows' values (MDEV-35955,
     * seen on 11.4: MultiTableWriteTest#mariadbsOwnMultiTableUpdateWithOrderByAndLimitWritesRowsOutsideItsChosenJoinRows), so a
     * choice of the join rows made across nodes would not be one MariaDB's result (one tried: commit 808ba30, reverted).
     */
    public static final String LIMITED_ACROSS_NODES = "ORDER BY or LIMIT in a multi-table UPDATE whose target rows span shards (MariaDB"
            + " sorts the join's rows, LIMIT counting join rows, and writes each target row once from the first join row meeting it;"
            + " but where it sorts through a temporary table it writes other rows, MDEV-35955, so no choice of the join rows made"
            + " across nodes gives its result)";

    public MultiTable {
        top = List.copyOf(top);
        keyJoins = List.copyOf(keyJoins);
        targets = List.copyOf(targets);
        derived = List.copyOf(derived);
    }

    /**
     * A derived table of the FROM ({@code JOIN (SELECT …) AS d}): its alias, its parenthesised query spanning [{@code
     * start}, {@code end}) (digest offsets; -1 when the analyzer could not place it), and the column names it gives them ({@code AS d (a, b)}), or null when its
     * select list names them (only a query of it says how).
     */
    public record Derived(String alias, int start, int end, List<String> columns) {
        public Derived {
            columns = columns == null ? null : List.copyOf(columns);
        }
    }

    /**
     * Where the parts of the statement stand (digest offsets), so that each target's write, or the SELECT that
     * chooses its rows, can be written again from the user's own text: the FROM's references span [{@code
     * refsStart}, {@code refsEnd}) (an UPDATE's end at its SET), the rest (WHERE, ORDER BY, LIMIT) starts at
     * {@code tailStart}; an UPDATE's assignments in order (none for a DELETE).
     */
    public record Spans(int refsStart, int refsEnd, int tailStart, List<Assigned> assignments) {
        public Spans {
            assignments = List.copyOf(assignments);
        }
    }

    /**
     * One {@code column = value} of an UPDATE, spanning [{@code start}, {@code end}), its column ending at
     * {@code columnEnd}; {@code target} its qualifier's reference, null when unqualified (only the tables' columns
     * say which it is).
     */
    public record Assigned(TableRef target, String column, int start, int columnEnd, int end) {}
}
