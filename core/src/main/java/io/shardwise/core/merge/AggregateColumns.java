package io.shardwise.core.merge;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import java.util.ArrayList;
import java.util.List;

/**
 * The column definitions of a grouped merge's output. They are the units' columns, except for
 * COUNT/SUM/AVG(DISTINCT x): there the units return x itself (they group by it), so the merger
 * describes the aggregate's own type as MySQL would: COUNT BIGINT; SUM DECIMAL with x's scale; AVG
 * DECIMAL with x's scale + 4. SUM and AVG (DISTINCT or not) of a FLOAT or DOUBLE are refused: the
 * federated tier answers them. The label stays the one the unit sent, which
 * the rewriter sets to the user's text.
 */
final class AggregateColumns {
    private static final int BIGINT = 8;
    private static final int NEWDECIMAL = 246;
    /**
     * COUNT's length as core's columns hold lengths: as Connector/J reports them, an integer's being its
     * type's digit count (BIGINT 19; MySQL's wire says 21, which the server's encoder restores by type).
     */
    static final int COUNT_LENGTH = 19;

    private AggregateColumns() {}

    static List<Column> of(List<Column> columns, List<AggregateSlot> slots) {
        List<Column> out = new ArrayList<>(columns);
        for (AggregateSlot slot : slots) {
            Column arg = columns.get(slot.column());
            Column summed = slot.kind() == AggregateSlot.Kind.AVG ? columns.get(slot.sumColumn()) : arg;
            boolean inexact = switch (slot.kind()) {
                case SUM, AVG -> ValueOrder.isFloating(summed);
                // the units sent x itself: a string or temporal x sums as a DOUBLE too (MySQL converts it)
                case SUM_DISTINCT, AVG_DISTINCT -> ValueOrder.isFloating(arg) || !ValueOrder.isExactNumber(arg);
                default -> false;
            };
            if (inexact) {
                // MySQL adds a DOUBLE sum in the order it reads the rows (AVG(DISTINCT): in its sorted
                // distinct values) and prints all 17 digits; a merge adds the nodes' partial sums in
                // another order, so the last digits differ. Refused here, the statement moves to the
                // federated tier (PlanRunner), where one MySQL adds the copied rows itself.
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, arg.name()
                        + " (a SUM or AVG in FLOAT or DOUBLE) across shards: a merge adds in another order than MySQL");
            }
            switch (slot.kind()) {
                case COUNT_DISTINCT -> out.set(slot.column(), numeric(arg, BIGINT, COUNT_LENGTH,
                        Column.FLAG_NOT_NULL | Column.FLAG_BINARY, 0));
                // FLOAT/DOUBLE arguments were refused above: these are exact (DECIMAL) results
                case SUM_DISTINCT -> out.set(slot.column(), numeric(arg, NEWDECIMAL, arg.length() + 22, Column.FLAG_BINARY,
                        arg.decimals()));
                case AVG_DISTINCT -> out.set(slot.column(), numeric(arg, NEWDECIMAL,
                        arg.length() + Accumulator.DIV_PRECISION_INCREMENT, Column.FLAG_BINARY, averageDecimals(arg.decimals())));
                case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> {
                    if (arg.decimals() <= 0 || arg.decimals() >= NumberText.NOT_FIXED_DECIMALS) {
                        // a fixed scale is the argument's + 4, so never 0; 0 and 31/39 both come for "not
                        // fixed". MySQL prints such a variance to 17 digits, whose last ones depend on the
                        // order it read the rows in (Welford's recurrence): a merge cannot promise them.
                        // With a fixed scale (integer and DECIMAL arguments) they are rounded away.
                        throw new ShardwiseException(ErrorCode.UNSUPPORTED, arg.name()
                                + " of a FLOAT, DOUBLE or string argument across shards (no fixed scale to round to)");
                    }
                }
                case COUNT, SUM, MIN, MAX, AVG, BIT_AND, BIT_OR, BIT_XOR, GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG -> {
                    // the units computed these themselves: their column definitions are already right
                }
            }
        }
        return List.copyOf(out);
    }

    /** MySQL's AVG scale: the argument's scale plus div_precision_increment, at most 30. */
    static int averageDecimals(int argumentDecimals) {
        if (argumentDecimals >= NumberText.NOT_FIXED_DECIMALS) {
            return argumentDecimals;
        }
        return Math.min(argumentDecimals + Accumulator.DIV_PRECISION_INCREMENT, Accumulator.MAX_DECIMAL_SCALE);
    }

    private static Column numeric(Column arg, int type, long length, int flags, int decimals) {
        return new Column("", "", "", arg.name(), "", Column.BINARY_COLLATION, length, type, flags, decimals);
    }
}
