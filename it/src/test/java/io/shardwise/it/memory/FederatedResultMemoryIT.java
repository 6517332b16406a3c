package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.execute.ResultCursor;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A federated statement whose result is larger than the heap streams from its coordinator to the client:
 * the copies are small (1,600 rows of {@code big}, shipped within the budget), but joining them on a
 * column that is not the sharding key gives 1.28 million rows of about 105 bytes (some 135 MB on the
 * wire) in a JVM of 96 MB. Read whole before the first row, as the tier once did, it fails with an
 * {@code OutOfMemoryError}.
 *
 * <p>Heap is sampled every 250,000 rows right after {@code System.gc()} (see {@link OrderedScatterMemoryIT}
 * for why). Hazard: only the failsafe execution {@code memory} ({@code -Xmx96m}) proves anything; the
 * test fails fast in a larger JVM. Run it alone with
 * {@code ./mvnw -B -o -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=FederatedResultMemoryIT}.
 */
@Tag("memory")
class FederatedResultMemoryIT {
    private static final int ROWS = 1_600;
    private static final int GROUPS = 2;
    private static final long RESULT_ROWS = (long) ROWS * ROWS / GROUPS;
    private static final int PAYLOAD_LENGTH = 100;
    private static final long SAMPLE_EVERY = 250_000L;
    private static final long LIVE_HEAP_LIMIT = 48L * 1024 * 1024;
    /** Federated: a join of a sharded table with itself on a column that is not its key. */
    private static final String JOIN = "SELECT a.id, b.id, a.payload FROM big a JOIN big b ON b.grp = a.grp";
    private static final BigTables TABLES = new BigTables();
    private static Engine engine;

    @BeforeAll
    static void loadAndStart() throws SQLException {
        TABLES.createSchemas("fedmem_ds");
        // node n (ds0.big_0, ds0.big_1, ds1.big_0, ds1.big_1) holds the ids = n mod 4, as type mod places them
        for (int node = 0; node < 4; node++) {
            try (Connection c = TABLES.backend.connect(TABLES.schemaOf(node)); Statement s = c.createStatement()) {
                String table = "big_" + node % 2;
                s.execute("CREATE TABLE " + table + " (id INT NOT NULL PRIMARY KEY, grp INT NOT NULL, payload VARCHAR(" + PAYLOAD_LENGTH
                        + ") NOT NULL)");
                s.execute("INSERT INTO " + table + " SELECT seq, seq % " + GROUPS + ", REPEAT('.', " + PAYLOAD_LENGTH + ") FROM seq_1_to_"
                        + ROWS + " WHERE seq % 4 = " + node);
            }
        }
        engine = TABLES.start("fedbig", "", "FederatedResultMemoryIT");
    }

    @AfterAll
    static void closeAndDrop() {
        TABLES.close();
    }

    @Test
    void aResultLargerThanTheHeapStreamsFromTheCoordinator() {
        Runtime runtime = Runtime.getRuntime();
        BigTables.assertSmallHeap();
        long federated = engine.federatedStatements();
        long read = 0;
        long bytes = 0;
        long peakLive = 0;
        try (EngineSession session = engine.openSession();
                ResultCursor cursor = assertInstanceOf(StatementResult.Rows.class, session.execute(JOIN)).cursor()) {
            while (cursor.next()) {
                bytes += cursor.get(0).length + cursor.get(1).length + cursor.get(2).length;
                read++;
                if (read % SAMPLE_EVERY == 0) {
                    System.gc();
                    peakLive = Math.max(peakLive, runtime.totalMemory() - runtime.freeMemory());
                }
            }
        }
        System.out.printf("[FederatedResultMemoryIT] %,d rows, %d MB of values, max heap %d MB, peak live heap %.1f MB%n",
                read, bytes / (1024 * 1024), BigTables.mb(runtime.maxMemory()), peakLive / (1024.0 * 1024));
        assertEquals(federated + 1, engine.federatedStatements(), "answered by the federated tier");
        assertEquals(RESULT_ROWS, read, "rows read");
        assertTrue(bytes > runtime.maxMemory(), "the result must outgrow the heap to prove anything");
        assertTrue(peakLive <= LIVE_HEAP_LIMIT, "peak live heap " + BigTables.mb(peakLive) + " MB exceeds " + BigTables.mb(LIVE_HEAP_LIMIT) + " MB");
        assertEquals(0, engine.activeConnections(), "connections left borrowed after the result was read and closed");
    }

    @Test
    void closingTheResultAfterAFewRowsReleasesTheCoordinatorsConnection() {
        try (EngineSession session = engine.openSession()) {
            try (ResultCursor cursor = assertInstanceOf(StatementResult.Rows.class, session.execute(JOIN)).cursor()) {
                for (int i = 0; i < 5; i++) {
                    assertTrue(cursor.next());
                }
            }
            assertEquals(0, engine.activeConnections(), "connections left borrowed after closing the result early");
            // the copies went with the result: the next statement makes its own
            try (ResultCursor cursor = assertInstanceOf(StatementResult.Rows.class,
                    session.execute("SELECT COUNT(*) FROM (SELECT DISTINCT grp FROM big) g")).cursor()) {
                assertTrue(cursor.next());
                assertEquals(String.valueOf(GROUPS), new String(cursor.get(0), java.nio.charset.StandardCharsets.US_ASCII));
            }
        }
        assertEquals(0, engine.activeConnections());
    }
}
