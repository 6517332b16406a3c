package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StreamingTest {
    private static final int ROWS = 1_000_000;
    private static Shards shards;

    @BeforeAll
    static void createBackends() {
        shards = new Shards(1, Shards.SMALL_POOL);
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
    }

    @AfterEach
    void noConnectionIsLeftCheckedOut() {
        assertEquals(0, shards.pools.activeConnections());
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return rt.totalMemory() - rt.freeMemory();
    }

    @Test
    void aMillionRowResultStreamsWhileTheBackendStillWorksInBoundedMemory() {
        String d = "(SELECT 0 n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4 UNION ALL"
                + " SELECT 5 UNION ALL SELECT 6 UNION ALL SELECT 7 UNION ALL SELECT 8 UNION ALL SELECT 9)";
        // about 200 MB of row data: buffering it would show in the heap of a 1 GB test JVM
        String sql = "SELECT /* streaming_probe */ a.n + 10*b.n + 100*c.n + 1000*d.n + 10000*e.n + 100000*f.n, REPEAT('x', 200)"
                + " FROM " + d + " a, " + d + " b, " + d + " c, " + d + " d, " + d + " e, " + d + " f";
        long baseline = usedAfterGc();
        long peak = 0;
        long count = 0;
        try (ExecutionSession s = shards.session();
                ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0", sql))).getFirst()).cursor()) {
            assertTrue(c.next());
            count++;
            String running = shards.query(0, "SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE INFO LIKE '%streaming_probe%' AND INFO NOT LIKE '%PROCESSLIST%'");
            assertEquals("1", running, "the first row arrived while the backend was still sending");
            while (c.next()) {
                if (c.get(1).length != 200) {
                    throw new AssertionError("row " + count);
                }
                if (++count % 250_000 == 0) {
                    peak = Math.max(peak, usedAfterGc() - baseline);
                }
            }
        }
        assertEquals(ROWS, count);
        assertTrue(peak < 64L << 20, "heap grew by " + (peak >> 20) + " MB while streaming");
    }
}
