package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A row whose AUTO_INCREMENT key is 0 (inserted under NO_AUTO_VALUE_ON_ZERO, as mysqldump files do)
 * keeps its 0 in the federated tier's copies: the copy's INSERT must not renumber it.
 */
class FederatedAutoIncrementZeroTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("aizero");

    /** Row 0 of sbtest3 on ds0, of sbtest4 on ds1 (whichever the coordinator is, one is copied locally and one shipped), and in the whole copy. */
    @BeforeAll
    static void zeroRows() throws Exception {
        String prefix = SAMPLE.target().databasePrefix();
        insertZero(prefix + "_0", "sbtest3");
        insertZero(prefix + "_1", "sbtest4");
        insertZero(SAMPLE.whole(), "sbtest3");
        insertZero(SAMPLE.whole(), "sbtest4");
    }

    private static void insertZero(String schema, String table) throws Exception {
        try (Connection c = SAMPLE.server().connect(schema); Statement st = c.createStatement()) {
            st.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')");
            st.execute("INSERT INTO " + table + " (id, k, c, pad) VALUES (0, 0, 'zero', 'zero')");
        }
    }

    private static void sameAsOneDatabase(String sql) throws Exception {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            RoutePlan plan = s.preview(sql, List.of());
            assertEquals(RouteKind.FEDERATED, plan.kind(), sql);
            assertEquals(SAMPLE.direct(sql), SampleEngine.rows(s, sql), sql);
        }
    }

    @Test
    void aWindowOverCopiedAndShippedRowsKeepsTheZeroKeys() throws Exception {
        sameAsOneDatabase("SELECT id, c, ROW_NUMBER() OVER (ORDER BY id) FROM sbtest3 WHERE id < 3 ORDER BY id");
        sameAsOneDatabase("SELECT id, c, ROW_NUMBER() OVER (ORDER BY id) FROM sbtest4 WHERE id < 3 ORDER BY id");
    }

    @Test
    void aJoinOfTablesNotCoLocatedMatchesTheZeroKeys() throws Exception {
        sameAsOneDatabase("SELECT a.id, b.id, a.c, b.c FROM sbtest3 a JOIN sbtest4 b ON b.id = a.k WHERE a.id < 3 ORDER BY a.id, b.id");
    }

    @Test
    void everyCopyInsertAddsTheModeForItselfAlone() throws Exception {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            RoutePlan plan = s.preview("SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM sbtest3", List.of());
            List<String> inserts = plan.units().stream().map(ExecutionUnit::explain).filter(t -> t.contains("INSERT INTO")).toList();
            assertEquals(2, inserts.size(), inserts.toString());
            for (String insert : inserts) {
                assertTrue(insert.contains("SET STATEMENT sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO') FOR INSERT INTO"), insert);
            }
        }
    }
}
