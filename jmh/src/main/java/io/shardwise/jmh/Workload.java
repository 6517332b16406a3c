package io.shardwise.jmh;

import io.shardwise.core.route.RouteKind;
import java.util.Random;

/**
 * The statements the benchmarks run, each with the route kind it must take on the sample rule (a
 * benchmark checks this in its setup, so a routing change cannot silently turn a point select into
 * a scatter and make the numbers incomparable), and their key distribution.
 */
enum Workload {
    /** sysbench oltp_point_select's statement, sent as text. */
    SBTEST_POINT(RouteKind.POINT, "SELECT c FROM sbtest1 WHERE id=%d"),
    /** HSCALE's comment-heavy statement with the key condition its {@code small} table is sharded by. */
    SMALL_POINT(RouteKind.POINT, "SELECT id, category FROM small WHERE small.id=%d" + Workload.HSCALE_COMMENTS),
    /** HSCALE's statement as published: {@code small} is sharded by id, so category='books' reads both shards. */
    SMALL_SCATTER(RouteKind.SCATTER, "SELECT id, category FROM small WHERE small.category='books'" + Workload.HSCALE_COMMENTS),
    /** A reporting query: grouping, aggregates, ORDER BY an aggregate and LIMIT, merged from both shards. */
    HEAVY_SCATTER(RouteKind.SCATTER, "SELECT k, COUNT(*), SUM(id), AVG(id), MAX(c) FROM sbtest1 WHERE pad LIKE '%d%%'"
            + " GROUP BY k ORDER BY COUNT(*) DESC, k LIMIT 10");

    /** Statement strings per benchmark; a power of two, so the next index is a mask away. */
    static final int STATEMENTS = 1024;
    static final int MASK = STATEMENTS - 1;

    private static final String HSCALE_COMMENTS = " /* Added */ /* some */ /* comments */ /* to */ /* produce */ /* a */"
            + " /* higher */ /* tokenizer */ /* load */";
    /** Keys follow a Zipf law (s = 0.99, as YCSB) over sysbench's default table size. */
    private static final int KEY_SPACE = 10_000;
    private static final double ZIPF_EXPONENT = 0.99;

    final RouteKind expectedKind;
    private final String format;

    Workload(RouteKind expectedKind, String format) {
        this.expectedKind = expectedKind;
        this.format = format;
    }

    /** The benchmark {@code @Param} spelling, such as {@code sbtest_point}. */
    static Workload of(String param) {
        return valueOf(param.toUpperCase(java.util.Locale.ROOT));
    }

    /**
     * {@link #STATEMENTS} statements with Zipf-distributed keys, each a distinct String (a statement
     * with no key still gets fresh copies, so no per-instance cache such as String's hash carries
     * over from one statement to the next).
     */
    String[] statements(long seed) {
        long[] keys = zipfKeys(new Random(seed));
        String[] out = new String[STATEMENTS];
        for (int i = 0; i < STATEMENTS; i++) {
            out[i] = new String(format.contains("%d") ? String.format(java.util.Locale.ROOT, format, keys[i]) : format);
        }
        return out;
    }

    private static long[] zipfKeys(Random random) {
        double[] cdf = new double[KEY_SPACE];
        double sum = 0;
        for (int k = 1; k <= KEY_SPACE; k++) {
            sum += 1 / Math.pow(k, ZIPF_EXPONENT);
            cdf[k - 1] = sum;
        }
        // rank 1 is the hottest key; scatter ranks over the id space so hot keys are not all small
        long[] ids = new long[KEY_SPACE];
        for (int i = 0; i < KEY_SPACE; i++) {
            ids[i] = i + 1;
        }
        for (int i = KEY_SPACE - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            long t = ids[i];
            ids[i] = ids[j];
            ids[j] = t;
        }
        long[] out = new long[STATEMENTS];
        for (int i = 0; i < STATEMENTS; i++) {
            int rank = java.util.Arrays.binarySearch(cdf, random.nextDouble() * sum);
            out[i] = ids[rank >= 0 ? rank : Math.min(-rank - 1, KEY_SPACE - 1)];
        }
        return out;
    }
}
