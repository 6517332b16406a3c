package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.SortKey;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The sorted merge streams: 8 units of generated, sorted rows (10 million in all, never stored) are
 * merged and counted while each unit checks, every time it is advanced, that the merger has already
 * taken every row it produced before. That is "no unit is ever more than one row ahead of the
 * output", which bounds the merger's memory by the number of units.
 */
class StreamingMemoryTest {
    private static final int UNITS = 8;
    private static final long TOTAL_ROWS = 10_000_000L;
    private static final List<Column> COLUMNS = List.of(Columns.bigint("k"), Columns.integer("unit"));

    /** Ascending keys with random gaps (ties across units included), built on the fly. */
    private static final class SyntheticUnit implements ResultCursor {
        private final int unit;
        private final long rows;
        private final long[] taken;
        private final SplittableRandom random;
        private final byte[] unitText;
        private long produced;
        private long key;
        private byte[] keyText;
        boolean closed;
        long violations;

        SyntheticUnit(int unit, long rows, long[] taken) {
            this.unit = unit;
            this.rows = rows;
            this.taken = taken;
            this.random = new SplittableRandom(unit);
            this.unitText = Integer.toString(unit).getBytes();
        }

        @Override
        public List<Column> columns() {
            return COLUMNS;
        }

        @Override
        public boolean next() {
            // Advancing past row n is allowed only once the merger has handed out all n rows so far.
            if (produced > taken[unit]) {
                violations++;
            }
            if (produced == rows) {
                return false;
            }
            produced++;
            key += random.nextInt(3); // 0 gives ties within and across units
            keyText = ascii(key);
            return true;
        }

        @Override
        public byte[] get(int index) {
            return index == 0 ? keyText : unitText;
        }

        @Override
        public void close() {
            closed = true;
        }

        private static byte[] ascii(long v) {
            int len = v == 0 ? 1 : (int) Math.log10(v) + 1;
            byte[] out = new byte[len];
            for (int i = len - 1; i >= 0; i--) {
                out[i] = (byte) ('0' + v % 10);
                v /= 10;
            }
            return out;
        }
    }

    @Test
    void tenMillionRowsMergeWithNoUnitMoreThanOneRowAheadOfTheOutput() {
        long[] taken = new long[UNITS];
        List<SyntheticUnit> units = new ArrayList<>();
        for (int u = 0; u < UNITS; u++) {
            units.add(new SyntheticUnit(u, TOTAL_ROWS / UNITS, taken));
        }
        long start = System.nanoTime();
        long count = 0;
        long previous = -1;
        boolean ordered = true;
        try (ResultCursor merged = Merger.merge(List.copyOf(units),
                new MergeSpec.SortedMerge(List.of(SortKey.ascending(0)), MergeSpec.Tail.NONE))) {
            while (merged.next()) {
                byte[] k = merged.get(0);
                long key = 0;
                for (byte b : k) {
                    key = key * 10 + (b - '0');
                }
                ordered &= key >= previous;
                previous = key;
                taken[merged.get(1)[0] - '0']++;
                count++;
            }
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(TOTAL_ROWS, count);
        assertTrue(ordered, "output is in key order");
        for (SyntheticUnit u : units) {
            assertEquals(0, u.violations, "unit " + u.unit + " was read ahead of the output");
            assertTrue(u.closed, "unit " + u.unit + " closed");
        }
        // informational only: speed is MergeBenchmark's business (jmh/), never a timed unit test on a shared machine
        System.out.printf("[merge] 10M rows from %d units in %d ms%n", UNITS, millis);
    }
}
