package io.shardwise.core.rule;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.BitSet;
import java.util.Set;

/**
 * {@code type: mod}: node = key mod nodeCount (floor modulo, so negative keys map into range too).
 * For integer key columns. A key that is not a whole number can equal no row of an integer column,
 * so it maps to {@link #NO_NODE}. Ranges narrow only when they span fewer keys than there are nodes.
 */
public final class ModAlgorithm implements ShardingAlgorithm {
    private final int nodeCount;

    public ModAlgorithm(int nodeCount) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("nodeCount " + nodeCount);
        }
        this.nodeCount = nodeCount;
    }

    @Override
    public int nodeFor(Object key) {
        if (key instanceof Long l) {
            return (int) Math.floorMod(l, (long) nodeCount);
        }
        if (key instanceof Integer i) {
            return Math.floorMod(i, nodeCount);
        }
        BigInteger whole = whole(key);
        return whole == null ? NO_NODE : whole.mod(BigInteger.valueOf(nodeCount)).intValue();
    }

    private static BigInteger whole(Object key) {
        if (key instanceof BigInteger b) {
            return b;
        }
        BigDecimal d = Keys.decimal(key);
        try {
            return d.toBigIntegerExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    @Override
    public boolean supportsRanges() {
        return true;
    }

    @Override
    public void nodesFor(KeyRange range, BitSet out) {
        if (range.lower() == null || range.upper() == null) {
            out.set(0, nodeCount);
            return;
        }
        BigDecimal lo = Keys.decimal(range.lower());
        BigDecimal hi = Keys.decimal(range.upper());
        BigInteger first = lo.setScale(0, java.math.RoundingMode.CEILING).toBigInteger();
        BigInteger last = hi.setScale(0, java.math.RoundingMode.FLOOR).toBigInteger();
        if (!range.lowerInclusive() && lo.compareTo(new BigDecimal(first)) == 0) {
            first = first.add(BigInteger.ONE);
        }
        if (!range.upperInclusive() && hi.compareTo(new BigDecimal(last)) == 0) {
            last = last.subtract(BigInteger.ONE);
        }
        BigInteger span = last.subtract(first);
        if (span.signum() < 0) {
            return;
        }
        if (span.compareTo(BigInteger.valueOf(nodeCount)) >= 0) {
            out.set(0, nodeCount);
            return;
        }
        for (BigInteger k = first; k.compareTo(last) <= 0; k = k.add(BigInteger.ONE)) {
            out.set(k.mod(BigInteger.valueOf(nodeCount)).intValue());
        }
    }

    /** ServiceLoader entry for {@code type: mod}. */
    public static final class Provider implements ShardingAlgorithmProvider {
        @Override
        public String type() {
            return "mod";
        }

        @Override
        public Set<String> propertyNames() {
            return Set.of();
        }

        @Override
        public ShardingAlgorithm create(AlgorithmContext context) {
            return new ModAlgorithm(context.nodeCount());
        }
    }
}
