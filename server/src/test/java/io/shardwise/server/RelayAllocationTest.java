package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The server's allocation per relayed point select stays where it is (issue 15: at most 1 KB for the
 * text protocol), measured as {@link RelayAllocationProbe} measures it — the JVM's per-thread
 * allocation counters, exact and not timing-sensitive — after enough statements for the JIT to have
 * compiled the path. A bound a few percent above today's figure: new garbage per statement fails it.
 */
class RelayAllocationTest {
    /** Today's figures (2026-11-27, RelayAllocationProbe): text 1,015, prepared 1,472 bytes per statement. */
    static final double TEXT_BOUND = 1_060;
    static final double PREPARED_BOUND = 1_530;

    @Test
    void aRelayedPointSelectAllocatesAtMostItsBoundOnTheServer() throws Exception {
        try (SampleServer sample = SampleServer.start("allocbound")) {
            double text = RelayAllocationProbe.bytesPerRelayedPointSelect(sample, false, 30_000, 1, 10_000);
            double prepared = RelayAllocationProbe.bytesPerRelayedPointSelect(sample, true, 30_000, 1, 10_000);
            assertTrue(text <= TEXT_BOUND, () -> "text: " + text + " bytes per relayed point select, bound " + TEXT_BOUND);
            assertTrue(prepared <= PREPARED_BOUND, () -> "prepared: " + prepared + " bytes per relayed execution, bound " + PREPARED_BOUND);
        }
    }
}
