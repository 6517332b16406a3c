package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP from each unit's COUNT(x), SUM(x) and VAR_POP(x),
 * combined by Chan, Golub and LeVeque's pairwise update of (n, mean, M2), which stays accurate where a
 * sum of squares would cancel. The backend computes its own answer with Welford's recurrence in the
 * order it reads the rows, so the two agree to a few units in the last place of a double, not bit for
 * bit (nor does the backend with itself when its scan order changes); at MySQL's printed scale (the
 * argument's + 4) they agree. The planner's caller refuses arguments without a fixed scale
 * ({@link AggregateColumns}), where the text would show all 17 digits.
 */
final class VarianceAccumulator implements Accumulator {
    private final AggregateSlot slot;
    private final boolean floatingSum;
    private final boolean sample;
    private final boolean root;
    private final int decimals;
    private long count;
    private double mean;
    private double m2;

    VarianceAccumulator(AggregateSlot slot, List<Column> columns) {
        this.slot = slot;
        this.floatingSum = ValueOrder.isFloating(columns.get(slot.sumColumn()));
        this.sample = slot.kind() == AggregateSlot.Kind.VAR_SAMP || slot.kind() == AggregateSlot.Kind.STDDEV_SAMP;
        this.root = slot.kind() == AggregateSlot.Kind.STDDEV_POP || slot.kind() == AggregateSlot.Kind.STDDEV_SAMP;
        this.decimals = columns.get(slot.column()).decimals();
    }

    @Override
    public void add(Row row) {
        byte[] c = row.get(slot.countColumn());
        long n = c == null ? 0 : NumberText.longValue(c);
        byte[] s = row.get(slot.sumColumn());
        byte[] v = row.get(slot.varianceColumn());
        if (n == 0 || s == null || v == null) {
            return; // a unit (or a group on it) without a non-NULL value adds nothing
        }
        // the mean from the unit's exact sum: AVG's text would be rounded to 4 more decimals
        double unitMean = floatingSum ? ValueOrder.parseDouble(s) / n
                : NumberText.exact(s).divide(BigDecimal.valueOf(n), MathContext.DECIMAL64).doubleValue();
        double unitM2 = ValueOrder.parseDouble(v) * n;
        if (count == 0) {
            count = n;
            mean = unitMean;
            m2 = unitM2;
            return;
        }
        long total = count + n;
        double delta = unitMean - mean;
        mean += delta * n / total;
        m2 += unitM2 + delta * delta * ((double) count * n / total);
        count = total;
    }

    /**
     * Writes the value with all its digits, as MySQL's DOUBLE enters the expressions over it
     * ({@code STDDEV(x) * 2}); {@link #settle} then rounds it to the scale the column shows.
     */
    @Override
    public void writeTo(byte[][] out) {
        out[slot.column()] = count == 0 || sample && count == 1 ? null
                : NumberText.floating(value(), NumberText.NOT_FIXED_DECIMALS);
    }

    /** The merged value at the column's printed scale (the argument's + 4), once expressions over it are computed. */
    void settle(byte[][] out) {
        if (out[slot.column()] != null) {
            out[slot.column()] = NumberText.floating(value(), decimals);
        }
    }

    private double value() {
        double variance = m2 / (sample ? count - 1 : count);
        return root ? Math.sqrt(variance) : variance;
    }
}
