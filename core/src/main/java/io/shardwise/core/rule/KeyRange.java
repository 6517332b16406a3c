package io.shardwise.core.rule;

/**
 * A range of sharding-key values, as a WHERE clause bounds it ({@code BETWEEN}, {@code <}, ...).
 * A null bound is unbounded on that side.
 */
public record KeyRange(Object lower, boolean lowerInclusive, Object upper, boolean upperInclusive) {
    public static KeyRange closed(Object lower, Object upper) {
        return new KeyRange(lower, true, upper, true);
    }

    public static KeyRange atLeast(Object lower) {
        return new KeyRange(lower, true, null, false);
    }

    public static KeyRange below(Object upper) {
        return new KeyRange(null, false, upper, false);
    }
}
