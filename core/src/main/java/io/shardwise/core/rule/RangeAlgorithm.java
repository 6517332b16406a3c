package io.shardwise.core.rule;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Set;

/**
 * {@code type: range, boundaries: [b1, b2, ...]}: node 0 holds keys below b1, node i keys in
 * [b(i), b(i+1)), the last node keys from the last boundary up. There is one boundary fewer than
 * nodes, strictly ascending. Narrows ranges to the nodes they overlap.
 */
public final class RangeAlgorithm implements ShardingAlgorithm {
    private final BigDecimal[] boundaries;

    public RangeAlgorithm(List<BigDecimal> boundaries) {
        this.boundaries = boundaries.toArray(new BigDecimal[0]);
        for (int i = 1; i < this.boundaries.length; i++) {
            if (this.boundaries[i - 1].compareTo(this.boundaries[i]) >= 0) {
                throw new IllegalArgumentException("boundaries must ascend: " + boundaries);
            }
        }
    }

    @Override
    public int nodeFor(Object key) {
        return indexOf(Keys.decimal(key));
    }

    /** The number of boundaries at or below {@code key}. */
    private int indexOf(BigDecimal key) {
        int lo = 0;
        int hi = boundaries.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (boundaries[mid].compareTo(key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public boolean supportsRanges() {
        return true;
    }

    @Override
    public void nodesFor(KeyRange range, BitSet out) {
        if (range.lower() != null && range.upper() != null
                && Keys.decimal(range.lower()).compareTo(Keys.decimal(range.upper())) > 0) {
            return; // an empty range, such as BETWEEN 150 AND 120
        }
        int first = range.lower() == null ? 0 : indexOf(Keys.decimal(range.lower()));
        int last = range.upper() == null ? boundaries.length : indexOf(Keys.decimal(range.upper()));
        if (range.upper() != null && !range.upperInclusive() && last > 0
                && boundaries[last - 1].compareTo(Keys.decimal(range.upper())) == 0) {
            last--; // "< b" stops before the node that starts at b
        }
        if (first <= last) {
            out.set(first, last + 1);
        }
    }

    @Override
    public String toString() {
        return "range" + Arrays.toString(boundaries);
    }

    /** ServiceLoader entry for {@code type: range}. */
    public static final class Provider implements ShardingAlgorithmProvider {
        @Override
        public String type() {
            return "range";
        }

        @Override
        public Set<String> propertyNames() {
            return Set.of("boundaries");
        }

        @Override
        public ShardingAlgorithm create(AlgorithmContext context) {
            Object raw = context.property("boundaries");
            int expected = context.nodeCount() - 1;
            String example = "boundaries: [1000000, 2000000] for 3 nodes";
            if (!(raw instanceof List<?> list)) {
                context.reject("boundaries", (raw == null ? "missing" : "'" + raw + "' is not a list")
                        + "; expected " + expected + " ascending numbers (one fewer than the " + context.nodeCount()
                        + " nodes), e.g. " + example);
                return null;
            }
            List<BigDecimal> values = new ArrayList<>();
            for (Object o : list) {
                try {
                    values.add(Keys.decimal(o == null ? "" : o));
                } catch (IllegalArgumentException e) {
                    context.reject("boundaries", "'" + o + "' is not a number; expected " + expected + " ascending numbers");
                    return null;
                }
            }
            if (values.size() != expected) {
                context.reject("boundaries", list + " has " + values.size() + " boundaries, but table '" + context.table()
                        + "' has " + context.nodeCount() + " nodes; expected " + expected + " (one fewer than nodes)");
                return null;
            }
            for (int i = 1; i < values.size(); i++) {
                if (values.get(i - 1).compareTo(values.get(i)) >= 0) {
                    context.reject("boundaries", list + " is not strictly ascending at " + values.get(i)
                            + "; each boundary must be greater than the one before");
                    return null;
                }
            }
            return new RangeAlgorithm(values);
        }
    }
}
