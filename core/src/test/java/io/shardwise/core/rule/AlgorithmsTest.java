package io.shardwise.core.rule;

import static io.shardwise.core.rule.ShardingAlgorithm.NO_NODE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlgorithmsTest {
    private static BitSet nodes(ShardingAlgorithm a, KeyRange range) {
        BitSet out = new BitSet();
        a.nodesFor(range, out);
        return out;
    }

    private static BitSet bits(int... indexes) {
        BitSet b = new BitSet();
        for (int i : indexes) {
            b.set(i);
        }
        return b;
    }

    @Test
    void modMapsKeysInNodeOrderAndNegativeKeysIntoRange() {
        ModAlgorithm mod = new ModAlgorithm(4);
        assertEquals(0, mod.nodeFor(8L));
        assertEquals(3, mod.nodeFor(7));
        assertEquals(3, mod.nodeFor(-1L), "floor modulo keeps negative keys on a real node");
        assertEquals(2, mod.nodeFor(new BigInteger("18446744073709551614")));
        assertEquals(1, mod.nodeFor("41"), "a numeric string compares as its number");
        assertEquals(1, mod.nodeFor(new BigDecimal("41.000")));
        assertEquals(NO_NODE, mod.nodeFor(new BigDecimal("41.5")), "no integer row equals 41.5");
        assertThrows(IllegalArgumentException.class, () -> mod.nodeFor("abc"));
    }

    @Test
    void modNarrowsOnlyRangesShorterThanTheNodeCount() {
        ModAlgorithm mod = new ModAlgorithm(4);
        assertEquals(bits(1, 2), nodes(mod, KeyRange.closed(5L, 6L)));
        assertEquals(bits(2), nodes(mod, new KeyRange(5L, false, 7L, false)));
        assertEquals(bits(), nodes(mod, new KeyRange(5L, false, 6L, false)));
        assertEquals(bits(0, 1, 2, 3), nodes(mod, KeyRange.closed(1L, 100L)));
        assertEquals(bits(0, 1, 2, 3), nodes(mod, KeyRange.atLeast(3L)));
        assertEquals(bits(2, 3), nodes(mod, KeyRange.closed(new BigDecimal("1.5"), new BigDecimal("3.5"))));
    }

    @Test
    void hashAgreesAcrossNumericSpellingsOfOneValue() {
        HashAlgorithm hash = new HashAlgorithm(7);
        int expected = hash.nodeFor(42L);
        for (Object same : List.of(42, "42", new BigDecimal("42.00"), BigInteger.valueOf(42), 42.0d)) {
            assertEquals(expected, hash.nodeFor(same), () -> same.getClass().getSimpleName());
        }
        assertEquals(hash.nodeFor("2025-03-01"), hash.nodeFor(LocalDate.of(2025, 3, 1)));
        assertEquals(hash.nodeFor("2025-03-01 10:00:00"), hash.nodeFor(LocalDateTime.of(2025, 3, 1, 10, 0)));
        assertEquals(hash.nodeFor("2025-03-01 10:00:00.5"), hash.nodeFor(LocalDateTime.of(2025, 3, 1, 10, 0, 0, 500_000_000)));
        assertEquals(hash.nodeFor("2025-03-01 10:00:00.5"), hash.nodeFor(java.sql.Timestamp.valueOf("2025-03-01 10:00:00.5")));
        assertEquals(hash.nodeFor("2025-03-01"), hash.nodeFor(java.sql.Date.valueOf("2025-03-01")));
    }

    @Test
    void hashPlacementIsPinnedSoDataPlacedTodayIsFoundTomorrow() {
        // node = unsigned murmur3_32(utf8(canonical text)) mod n, computed from the reference vectors:
        // murmur3_32("hello") = 0x248bfa47 = 613153351, and 613153351 mod 4 = 3
        assertEquals(613153351 % 4, new HashAlgorithm(4).nodeFor("hello"));
        int h = Murmur3.hash32("12345".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals((int) (Integer.toUnsignedLong(h) % 10), new HashAlgorithm(10).nodeFor(12345L));
    }

    @Test
    void hashSpreadsSequentialKeysEvenly() {
        HashAlgorithm hash = new HashAlgorithm(4);
        int[] counts = new int[4];
        for (long id = 1; id <= 40_000; id++) {
            counts[hash.nodeFor(id)]++;
        }
        for (int c : counts) {
            assertTrue(c > 9_000 && c < 11_000, () -> java.util.Arrays.toString(counts));
        }
    }

    @Test
    void rangeSendsKeysBelowTheFirstBoundaryToNodeZeroAndAtABoundaryToTheNextNode() {
        RangeAlgorithm range = new RangeAlgorithm(List.of(BigDecimal.valueOf(100), BigDecimal.valueOf(200)));
        assertEquals(0, range.nodeFor(-5L));
        assertEquals(0, range.nodeFor(99L));
        assertEquals(1, range.nodeFor(100L));
        assertEquals(1, range.nodeFor(new BigDecimal("199.99")));
        assertEquals(2, range.nodeFor(200));
        assertEquals(2, range.nodeFor(Long.MAX_VALUE));
    }

    @Test
    void rangeNarrowsRangesToTheNodesTheyOverlap() {
        RangeAlgorithm range = new RangeAlgorithm(List.of(BigDecimal.valueOf(100), BigDecimal.valueOf(200)));
        assertEquals(bits(0, 1), nodes(range, KeyRange.closed(50L, 150L)));
        assertEquals(bits(0), nodes(range, KeyRange.below(100L)), "< 100 stops before the node starting at 100");
        assertEquals(bits(0, 1), nodes(range, KeyRange.closed(50L, 100L)));
        assertEquals(bits(1, 2), nodes(range, KeyRange.atLeast(150L)));
        assertEquals(bits(), nodes(range, KeyRange.closed(150L, 120L)));
    }

    @Test
    void intervalMapsDatesToTheirPeriodAndOutsideDatesToNoNode() {
        IntervalAlgorithm years = new IntervalAlgorithm(LocalDateTime.of(2025, 1, 1, 0, 0), ChronoUnit.YEARS, 1, 2);
        assertEquals(0, years.nodeFor(LocalDate.of(2025, 1, 1)));
        assertEquals(0, years.nodeFor("2025-12-31 23:59:59"));
        assertEquals(1, years.nodeFor("2026-01-01"));
        assertEquals(1, years.nodeFor(java.sql.Timestamp.valueOf("2026-06-30 12:00:00")));
        assertEquals(NO_NODE, years.nodeFor("2024-12-31 23:59:59"));
        assertEquals(NO_NODE, years.nodeFor("2027-01-01"));
        assertThrows(IllegalArgumentException.class, () -> years.nodeFor("not a date"));

        IntervalAlgorithm quarters = new IntervalAlgorithm(LocalDateTime.of(2025, 1, 1, 0, 0), ChronoUnit.MONTHS, 3, 4);
        assertEquals(0, quarters.nodeFor("2025-03-31"));
        assertEquals(1, quarters.nodeFor("2025-04-01"));
        assertEquals(3, quarters.nodeFor("2025-12-01"));

        IntervalAlgorithm days = new IntervalAlgorithm(LocalDateTime.of(2025, 1, 1, 0, 0), ChronoUnit.DAYS, 1, 31);
        assertEquals(30, days.nodeFor("2025-01-31T08:00"));
    }

    @Test
    void monthIntervalsStartingAtAMonthEndFollowDateAddition() {
        // from Jan 31, node 1 starts at Jan 31 + 1 month = Feb 28 (as DATE_ADD computes it)
        IntervalAlgorithm months = new IntervalAlgorithm(LocalDateTime.of(2025, 1, 31, 0, 0), ChronoUnit.MONTHS, 1, 3);
        assertEquals(0, months.nodeFor("2025-02-27 23:59:59"));
        assertEquals(1, months.nodeFor("2025-02-28"));
        assertEquals(1, months.nodeFor("2025-03-30"));
        assertEquals(2, months.nodeFor("2025-03-31"));
    }

    @Test
    void intervalNarrowsRangesAndClampsToExistingNodes() {
        IntervalAlgorithm months = new IntervalAlgorithm(LocalDateTime.of(2025, 1, 1, 0, 0), ChronoUnit.MONTHS, 1, 12);
        assertEquals(bits(1, 2), nodes(months, KeyRange.closed("2025-02-10", "2025-03-05")));
        assertEquals(bits(0, 1), nodes(months, KeyRange.closed("2020-01-01", "2025-02-01")));
        assertEquals(bits(10, 11), nodes(months, KeyRange.atLeast("2025-11-15")));
        assertEquals(bits(), nodes(months, KeyRange.atLeast("2030-01-01")));
        assertEquals(bits(), nodes(months, KeyRange.below("2024-01-01")));
        assertEquals(bits(0), nodes(months, KeyRange.below("2025-02-01")), "< the start of node 1 stops before node 1");
        assertEquals(bits(0, 1), nodes(months, KeyRange.closed("2025-01-05", "2025-02-01")));
    }
}
