package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.AggregateSlot;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The merge state of one aggregate slot within one group: it sees the units' partial results row by
 * row ({@link #add}) and finally writes the merged value into the group's output row
 * ({@link #writeTo}). A fresh accumulator that saw no row writes what MySQL returns over no rows:
 * COUNT 0, everything else NULL.
 */
sealed interface Accumulator permits Accumulator.Count, Accumulator.Sum, Accumulator.Extreme, Accumulator.Average,
        Accumulator.Distinct, BitAccumulator, ConcatAccumulator, VarianceAccumulator {
    void add(Row row);

    void writeTo(byte[][] out);

    /** Div_precision_increment at its default: AVG and division add 4 decimals. */
    int DIV_PRECISION_INCREMENT = 4;
    int MAX_DECIMAL_SCALE = 30;

    static Accumulator create(AggregateSlot slot, List<Column> columns, MergeWarnings warnings) {
        return switch (slot.kind()) {
            case COUNT -> new Count(slot.column());
            case SUM -> new Sum(slot.column(), columns.get(slot.column()));
            case MIN -> new Extreme(slot.column(), slot.weightColumn(), columns.get(slot.column()), false);
            case MAX -> new Extreme(slot.column(), slot.weightColumn(), columns.get(slot.column()), true);
            case AVG -> new Average(slot, columns);
            case COUNT_DISTINCT, SUM_DISTINCT, AVG_DISTINCT -> new Distinct(slot, columns.get(slot.column()));
            case BIT_AND, BIT_OR, BIT_XOR -> new BitAccumulator(slot.kind(), slot.column());
            case GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG -> new ConcatAccumulator(slot, columns, warnings);
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> new VarianceAccumulator(slot, columns);
        };
    }

    /** COUNT: the units' counts added (BIGINT). */
    final class Count implements Accumulator {
        private final int column;
        private long total;

        Count(int column) {
            this.column = column;
        }

        @Override
        public void add(Row row) {
            byte[] v = row.get(column);
            if (v != null) {
                total += NumberText.longValue(v);
            }
        }

        @Override
        public void writeTo(byte[][] out) {
            out[column] = NumberText.ascii(Long.toString(total));
        }
    }

    /** An exact (DECIMAL) or floating (DOUBLE) running sum that stays NULL until a non-NULL value arrives. */
    final class Total {
        private final boolean floating;
        private BigDecimal exact = BigDecimal.ZERO;
        private double approximate;
        private long values;

        Total(boolean floating) {
            this.floating = floating;
        }

        void add(byte[] v) {
            if (v == null) {
                return;
            }
            values++;
            if (floating) {
                approximate += ValueOrder.parseDouble(v);
            } else {
                exact = exact.add(NumberText.exact(v));
            }
        }

        boolean isNull() {
            return values == 0;
        }

        byte[] text(int decimals) {
            if (values == 0) {
                return null;
            }
            return floating ? NumberText.floating(approximate, decimals) : NumberText.decimal(exact, decimals);
        }

        /** This sum divided by {@code count} as MySQL's AVG gives it; NULL when the count is 0. */
        byte[] divideBy(long count, int decimals) {
            if (values == 0 || count == 0) {
                return null;
            }
            if (floating) {
                return NumberText.floating(approximate / count, decimals);
            }
            int scale = Math.min(Math.max(0, decimals), MAX_DECIMAL_SCALE);
            return NumberText.decimal(exact.divide(BigDecimal.valueOf(count), scale, RoundingMode.HALF_UP), scale);
        }
    }

    /** SUM: DECIMAL with the column's scale for exact inputs, a double for FLOAT/DOUBLE ones. */
    final class Sum implements Accumulator {
        private final int column;
        private final int decimals;
        private final Total total;

        Sum(int column, Column type) {
            this.column = column;
            this.decimals = type.decimals();
            this.total = new Total(ValueOrder.isFloating(type));
        }

        @Override
        public void add(Row row) {
            total.add(row.get(column));
        }

        @Override
        public void writeTo(byte[][] out) {
            out[column] = total.text(decimals);
        }
    }

    /** MIN or MAX by the column's type, or by its WEIGHT_STRING column; the first of equal values wins. */
    final class Extreme implements Accumulator {
        private final int column;
        private final int weightColumn;
        private final ValueOrder order;
        private final boolean max;
        private byte[] best;
        private byte[] bestWeight;

        Extreme(int column, int weightColumn, Column type, boolean max) {
            this.column = column;
            this.weightColumn = weightColumn;
            this.order = weightColumn >= 0 ? ValueOrder.BYTES : ValueOrder.of(type);
            this.max = max;
        }

        @Override
        public void add(Row row) {
            byte[] v = row.get(column);
            if (v == null) {
                return;
            }
            byte[] w = weightColumn >= 0 ? row.get(weightColumn) : null;
            if (best == null || better(v, w)) {
                best = v.clone();
                bestWeight = w == null ? null : w.clone();
            }
        }

        private boolean better(byte[] v, byte[] w) {
            int c = weightColumn >= 0 ? order.compare(w == null ? new byte[0] : w, bestWeight == null ? new byte[0] : bestWeight)
                    : order.compare(v, best);
            return max ? c > 0 : c < 0;
        }

        @Override
        public void writeTo(byte[][] out) {
            out[column] = best;
            if (weightColumn >= 0) {
                out[weightColumn] = bestWeight;
            }
        }
    }

    /**
     * AVG from the hidden SUM and COUNT columns, with the scale the backend reported for the AVG column.
     * The merged SUM and COUNT are written back too, so the hidden columns stay true to the group.
     */
    final class Average implements Accumulator {
        private final AggregateSlot slot;
        private final int decimals;
        private final int sumDecimals;
        private final Total sum;
        private long count;

        Average(AggregateSlot slot, List<Column> columns) {
            this.slot = slot;
            this.decimals = columns.get(slot.column()).decimals();
            Column sumType = columns.get(slot.sumColumn());
            this.sumDecimals = sumType.decimals();
            this.sum = new Total(ValueOrder.isFloating(sumType));
        }

        @Override
        public void add(Row row) {
            sum.add(row.get(slot.sumColumn()));
            byte[] c = row.get(slot.countColumn());
            if (c != null) {
                count += NumberText.longValue(c);
            }
        }

        @Override
        public void writeTo(byte[][] out) {
            out[slot.column()] = sum.divideBy(count, decimals);
            out[slot.sumColumn()] = sum.text(sumDecimals);
            out[slot.countColumn()] = NumberText.ascii(Long.toString(count));
        }
    }

    /**
     * COUNT/SUM/AVG(DISTINCT x): each unit sent one row per distinct x of the group; values equal
     * across units (by WEIGHT_STRING when given, else by bytes) count once. Memory: one entry per
     * distinct value of the group, which is inherent to the aggregate.
     */
    final class Distinct implements Accumulator {
        private final AggregateSlot slot;
        private final int argumentDecimals;
        private final Set<Key> seen = new HashSet<>();
        private final Total sum;

        Distinct(AggregateSlot slot, Column argument) {
            this.slot = slot;
            this.argumentDecimals = argument.decimals();
            this.sum = new Total(ValueOrder.isFloating(argument));
        }

        @Override
        public void add(Row row) {
            byte[] v = row.get(slot.column());
            if (v == null) {
                return;
            }
            byte[] identity = slot.weightColumn() >= 0 ? row.get(slot.weightColumn()) : v;
            if (seen.add(new Key(identity == null ? new byte[0] : identity.clone())) && slot.kind() != AggregateSlot.Kind.COUNT_DISTINCT) {
                sum.add(v);
            }
        }

        @Override
        public void writeTo(byte[][] out) {
            out[slot.column()] = switch (slot.kind()) {
                case SUM_DISTINCT -> sum.text(argumentDecimals);
                case AVG_DISTINCT -> sum.divideBy(seen.size(), AggregateColumns.averageDecimals(argumentDecimals));
                default -> NumberText.ascii(Integer.toString(seen.size()));
            };
        }
    }

    record Key(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && java.util.Arrays.equals(bytes, k.bytes);
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(bytes);
        }
    }
}
