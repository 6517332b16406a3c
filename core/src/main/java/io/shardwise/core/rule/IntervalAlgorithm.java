package io.shardwise.core.rule;

import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Locale;
import java.util.Set;

/**
 * {@code type: interval, unit: day|month|year, from: 2025-01-01, amount: 1}: node i holds keys in
 * [from + i·amount units, from + (i+1)·amount units), where adding months to a month end gives the
 * last day of the target month (Jan 31 + 1 month = Feb 28), as MySQL's DATE_ADD does. Keys before {@code from} or past the last
 * node have {@link #NO_NODE}. For DATE, DATETIME and TIMESTAMP columns. Narrows ranges.
 */
public final class IntervalAlgorithm implements ShardingAlgorithm {
    private final LocalDateTime from;
    private final ChronoUnit unit;
    private final long amount;
    private final int nodeCount;

    public IntervalAlgorithm(LocalDateTime from, ChronoUnit unit, long amount, int nodeCount) {
        if (amount < 1 || nodeCount < 1) {
            throw new IllegalArgumentException("amount " + amount + ", nodeCount " + nodeCount);
        }
        this.from = from;
        this.unit = unit;
        this.amount = amount;
        this.nodeCount = nodeCount;
    }

    @Override
    public int nodeFor(Object key) {
        long index = unbounded(Keys.dateTime(key));
        return index < 0 || index >= nodeCount ? NO_NODE : (int) index;
    }

    /** The node index the key would have with infinitely many nodes; negative before {@code from}. */
    private long unbounded(LocalDateTime key) {
        if (key.isBefore(from)) {
            return -1;
        }
        // the largest n with from + n units <= key; between() alone disagrees with plus() at month
        // ends (from Jan 31, plus one month is Feb 28, yet between(Jan 31, Feb 28) is 0)
        long n = unit.between(from, key);
        if (!from.plus(n + 1, unit).isAfter(key)) {
            n++;
        }
        return n / amount;
    }

    @Override
    public boolean supportsRanges() {
        return true;
    }

    @Override
    public void nodesFor(KeyRange range, BitSet out) {
        long first = range.lower() == null ? 0 : Math.max(0, unbounded(Keys.dateTime(range.lower())));
        long last = nodeCount - 1;
        if (range.upper() != null) {
            LocalDateTime upper = Keys.dateTime(range.upper());
            long node = unbounded(upper);
            // "< start of node n" stops before node n
            if (!range.upperInclusive() && node >= 0 && from.plus(node * amount, unit).equals(upper)) {
                node--;
            }
            last = Math.min(last, node);
        }
        if (first <= last && last >= 0) {
            out.set((int) first, (int) last + 1);
        }
    }

    /** ServiceLoader entry for {@code type: interval}. */
    public static final class Provider implements ShardingAlgorithmProvider {
        @Override
        public String type() {
            return "interval";
        }

        @Override
        public Set<String> propertyNames() {
            return Set.of("unit", "from", "amount");
        }

        @Override
        public ShardingAlgorithm create(AlgorithmContext context) {
            ChronoUnit unit = null;
            Object rawUnit = context.property("unit");
            if (rawUnit == null) {
                context.reject("unit", "missing; expected day, month or year");
            } else {
                unit = switch (rawUnit.toString().toLowerCase(Locale.ROOT)) {
                    case "day", "days" -> ChronoUnit.DAYS;
                    case "month", "months" -> ChronoUnit.MONTHS;
                    case "year", "years" -> ChronoUnit.YEARS;
                    default -> {
                        context.reject("unit", "'" + rawUnit + "' is not a unit; expected day, month or year");
                        yield null;
                    }
                };
            }
            LocalDateTime from = null;
            Object rawFrom = context.property("from");
            if (rawFrom == null) {
                context.reject("from", "missing; expected the first node's start, e.g. from: \"2025-01-01\"");
            } else {
                try {
                    from = Keys.dateTime(rawFrom.toString());
                } catch (IllegalArgumentException e) {
                    context.reject("from", "'" + rawFrom + "' is not a date; expected YYYY-MM-DD or YYYY-MM-DD HH:MM:SS");
                }
            }
            long amount = 1;
            Object rawAmount = context.property("amount");
            if (rawAmount != null) {
                Long l = null;
                try {
                    l = Long.valueOf(rawAmount.toString().trim());
                } catch (NumberFormatException e) {
                    // reported below
                }
                if (l != null && l >= 1 && l <= 1_000_000) {
                    amount = l;
                } else {
                    context.reject("amount", "'" + rawAmount + "' is not valid; expected a whole number of units from 1");
                    return null;
                }
            }
            return unit == null || from == null ? null : new IntervalAlgorithm(from, unit, amount, context.nodeCount());
        }
    }
}
