package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import org.junit.jupiter.api.Test;

/** The access mode START TRANSACTION asks for; BEGIN (every sysbench transaction's) is answered before any lower-casing or regex. */
class TransactionAccessTest {
    @Test
    void beginAsksForNoModeAndStartTransactionsModesAreRead() {
        for (String begin : new String[] {"BEGIN", " begin work ", "Begin;", "START TRANSACTION", "start\ttransaction with consistent snapshot"}) {
            assertNull(TransactionAccess.requested(begin), begin);
        }
        assertEquals(Boolean.TRUE, TransactionAccess.requested("START  Transaction\nREAD ONLY"));
        assertEquals(Boolean.FALSE, TransactionAccess.requested(" start transaction read write, with consistent snapshot;"));
        assertThrows(ShardwiseException.class, () -> TransactionAccess.requested("START TRANSACTION READ SOMETIMES"));
    }
}
