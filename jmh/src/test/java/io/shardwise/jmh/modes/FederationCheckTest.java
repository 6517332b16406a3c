package io.shardwise.jmh.modes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The check {@link FederationRun} makes before timing anything, on the Shardwise driver (the peer's
 * start costs a minute on a loaded machine; {@code -Pbench} checks it): both statements answered as one
 * database answers them, and a different answer named rather than timed.
 */
class FederationCheckTest {
    @Test
    void shardwiseAnswersBothStatementsAsOneDatabase() throws Exception {
        Targets.Opened direct = Targets.open("direct", 2);
        Targets.Opened shardwise = Targets.open("shardwise-jdbc", 2);
        try {
            for (Map.Entry<String, String> q : FederationBenchmark.QUERIES.entrySet()) {
                assertEquals(FederationBenchmark.Verdict.OK, FederationBenchmark.verdict(direct, shardwise, q.getValue()), q.getKey());
                assertFalse(FederationBenchmark.rows(direct.pool(), q.getValue()).isEmpty(), q.getKey() + " answers some rows");
            }
        } finally {
            Targets.release(shardwise);
            Targets.release(direct);
        }
    }

    @Test
    void aDifferentAnswerIsNamedWithItsFirstDifference() {
        List<List<String>> one = List.of(List.of("1", "a"), List.of("2", "b"));
        assertEquals(FederationBenchmark.Verdict.OK, FederationBenchmark.compare(one, List.of(List.of("1", "a"), List.of("2", "b"))));
        assertEquals("wrong answer: 2 rows for 2; row 2 is [2, B], one database's [2, b]",
                FederationBenchmark.compare(one, List.of(List.of("1", "a"), List.of("2", "B"))).text());
        assertEquals("wrong answer: 1 rows for 2", FederationBenchmark.compare(one, List.of(List.of("1", "a"))).text());
        assertFalse(FederationBenchmark.compare(one, List.of()).ok());
    }
}
