package io.shardwise.jmh.tpch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.jmh.report.Table;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What bounds the TPC-H run and what it reports, on the shared test server: no TPC-H data needed. */
class TpchBenchTest {
    @Test
    void anExecutionOverTheTimeoutIsReportedAsTimedOut() throws Exception {
        MysqlServer server = TestBackends.shared();
        try (Connection c = server.connect(null)) {
            TpchBench.TimedOut e = assertThrows(TpchBench.TimedOut.class, () -> TpchBench.rows(c, "SELECT SLEEP(30)", 1));
            assertEquals("TIMEOUT (over 1 s)", e.getMessage());
            assertEquals(List.of(List.of("1")), TpchBench.rows(c, "SELECT 1", 1), "the connection still answers");
        }
    }

    @Test
    void rowsSentCountsWhatTheServerSentSinceTheMark() throws Exception {
        MysqlServer server = TestBackends.shared();
        try (Connection status = server.connect(null); Connection client = server.connect(null)) {
            TpchBench.RowsSent sent = new TpchBench.RowsSent(status, true);
            long before = sent.now();
            TpchBench.rows(client, "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3", 10);
            assertEquals(3, sent.since(before));
            TpchBench.RowsSent shared = new TpchBench.RowsSent(status, false);
            assertEquals(-1, shared.since(shared.now()), "not measured where other clients share the server");
        }
    }

    @Test
    void theTableSaysWhichSideTimedOutAndHasNoRatioThen() {
        Table t = TpchBench.table(0.02, 1, 120, List.of(
                new TpchBench.Result(1, 100, 250, 4, 1234, ""),
                new TpchBench.Result(2, 100, -1, 10, -1, "TIMEOUT (over 120 s)")));
        String md = t.markdown();
        assertTrue(md.contains("| Q1 | 100.0 | 250.0 | 2.50 | 4 | 1234 |  |"), md);
        assertTrue(md.contains("| Q2 | 100.0 | — | — | 10 | — | TIMEOUT (over 120 s) |"), md);
    }
}
