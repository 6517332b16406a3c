package io.shardwise.core.rule;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Set;

/**
 * {@code type: hash}: node = unsigned MurmurHash3 (x86, 32-bit, seed 0) of the key's canonical
 * UTF-8 text, modulo nodeCount. The canonical text of a whole number is its decimal digits (so 42,
 * 42.0 and '42' agree), of a string the string itself (case-sensitive: use a case-sensitive
 * collation for hashed text keys), of a date {@code YYYY-MM-DD}, of a datetime
 * {@code YYYY-MM-DD HH:MM:SS[.fraction without trailing zeros]}. This definition is stable: data placed by one version is
 * found by every later one.
 */
public final class HashAlgorithm implements ShardingAlgorithm {
    private final int nodeCount;

    public HashAlgorithm(int nodeCount) {
        if (nodeCount < 1) {
            throw new IllegalArgumentException("nodeCount " + nodeCount);
        }
        this.nodeCount = nodeCount;
    }

    @Override
    public int nodeFor(Object key) {
        int hash = key instanceof Long l ? Murmur3.hash32Decimal(l)
                : key instanceof Integer i ? Murmur3.hash32Decimal(i)
                : Murmur3.hash32(canonical(key).getBytes(StandardCharsets.UTF_8));
        return (int) (Integer.toUnsignedLong(hash) % nodeCount);
    }

    static String canonical(Object key) {
        return switch (key) {
            case Long l -> Long.toString(l);
            case Integer i -> Integer.toString(i);
            case Short s -> Short.toString(s);
            case Byte b -> Byte.toString(b);
            case BigInteger b -> b.toString();
            case String s -> s;
            case LocalDate d -> d.toString();
            case LocalDateTime t -> canonicalDateTime(t);
            case java.sql.Timestamp t -> canonicalDateTime(t.toLocalDateTime());
            case java.sql.Date d -> d.toLocalDate().toString();
            case BigDecimal d -> canonicalDecimal(d);
            case Double d -> canonicalDecimal(BigDecimal.valueOf(d));
            case Float f -> canonicalDecimal(BigDecimal.valueOf(f));
            default -> throw new IllegalArgumentException(key.getClass().getSimpleName() + " " + key + " cannot be hashed");
        };
    }

    private static String canonicalDateTime(LocalDateTime t) {
        String base = String.format("%s %02d:%02d:%02d", t.toLocalDate(), t.getHour(), t.getMinute(), t.getSecond());
        if (t.getNano() == 0) {
            return base;
        }
        String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
        return base + "." + fraction;
    }

    private static String canonicalDecimal(BigDecimal d) {
        BigDecimal stripped = d.stripTrailingZeros();
        return stripped.scale() <= 0 ? stripped.toBigInteger().toString() : stripped.toPlainString();
    }

    /** ServiceLoader entry for {@code type: hash}. */
    public static final class Provider implements ShardingAlgorithmProvider {
        @Override
        public String type() {
            return "hash";
        }

        @Override
        public Set<String> propertyNames() {
            return Set.of();
        }

        @Override
        public ShardingAlgorithm create(AlgorithmContext context) {
            return new HashAlgorithm(context.nodeCount());
        }
    }
}
