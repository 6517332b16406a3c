package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The relay reads a prepared statement's text once, not per execution ({@link PreparedTexts}): its
 * executions route each to their own shard by their values all the same, a change of lexical mode
 * reads it again, and a text naming a user variable is read every time (the session substitutes the
 * variable's current value).
 */
class PreparedTextsTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("ptexts");

    private static final String POINT = "SELECT c FROM sbtest1 WHERE id = ?";

    @Test
    void executionsOfOnePreparedStatementReadItsTextOnce() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            s.execute(POINT, List.of(1L)); // the plan cached, as a first execution on the session's thread leaves it
            EngineRelay relay = (EngineRelay) s.relay();
            java.util.Set<String> backends = new java.util.HashSet<>();
            for (long id = 1; id <= 40; id++) {
                RelayPlan plan = relay.prepared(POINT, List.of(id));
                assertNotNull(plan, "execution " + id + " relays");
                assertEquals(1, plan.units().size());
                backends.add(plan.units().get(0).backend());
            }
            assertEquals(2, backends.size(), "the values still route each execution to its own shard");
            assertEquals(1, relay.preparedTextReads(), "40 executions, one reading of the text");

            s.execute("SET sql_mode = 'ANSI_QUOTES'");
            relay.prepared(POINT, List.of(3L));
            relay.prepared(POINT, List.of(4L));
            assertEquals(2, relay.preparedTextReads(), "another lexical mode reads the text again, once");
        }
    }

    @Test
    void aTextNamingAUserVariableIsReadAtEveryExecution() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            String sql = "SELECT c FROM sbtest1 WHERE id = ? AND k <> @skip";
            EngineRelay relay = (EngineRelay) s.relay();
            relay.prepared(sql, List.of(1L));
            relay.prepared(sql, List.of(2L));
            assertEquals(2, relay.preparedTextReads());
        }
    }

    @Test
    void anInnerAssignmentIsNeverRelayedFromAKeptReading() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("USE " + SAMPLE.engine().rule().schema());
            String sql = "SELECT c FROM sbtest1 WHERE id = ? AND (@seen := id) > 0";
            s.execute(sql, List.of(1L));
            EngineRelay relay = (EngineRelay) s.relay();
            assertNull(relay.prepared(sql, List.of(1L)));
            assertNull(relay.prepared(sql, List.of(2L)));
        }
    }
}
