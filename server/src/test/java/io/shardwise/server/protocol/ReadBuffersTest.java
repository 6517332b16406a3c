package io.shardwise.server.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * The read sizes of the server's channels take each message of a sysbench {@code oltp_read_only} transaction
 * in one read (one {@code recvfrom}), transaction after transaction, where Netty's default guess, shrunk by
 * the point selects' small messages, reads the range SELECTs' larger ones in pieces. The message sizes are
 * those strace showed at the server's sockets (text protocol, one backend, no table rules).
 */
class ReadBuffersTest {
    /** What the client sends: BEGIN, ten point selects, the four ranges, COMMIT. */
    private static final int[] COMMANDS = {10, 40, 40, 40, 40, 40, 40, 40, 40, 40, 40, 57, 62, 68, 77, 11};
    /**
     * What the backend answers: START TRANSACTION's OK with the first point select (pipelined), nine more,
     * the ranges (100 rows of c; SUM; ORDER BY c; DISTINCT c), COMMIT's OK.
     */
    private static final int[] ANSWERS = {202, 191, 191, 191, 191, 191, 191, 191, 191, 191, 12_467, 59, 12_467, 11_971, 11};

    @Test
    void everyMessageOfATransactionIsReadInOneRead() {
        assertEquals(COMMANDS.length, readsOfTheLastOf(ReadBuffers.client(), COMMANDS, 20));
        assertEquals(ANSWERS.length, readsOfTheLastOf(ReadBuffers.backend(), ANSWERS, 20));
    }

    /** What the change is about: Netty's default reads the same messages in more reads. */
    @Test
    void nettysDefaultGuessReadsTheRangesInPieces() {
        assertTrue(readsOfTheLastOf(new AdaptiveRecvByteBufAllocator(), COMMANDS, 20) > COMMANDS.length);
        assertTrue(readsOfTheLastOf(new AdaptiveRecvByteBufAllocator(), ANSWERS, 20) > ANSWERS.length);
    }

    /**
     * The reads the last of {@code transactions} transactions takes, each message arriving on its own (an
     * event-loop wake-up each) and read as Netty's read loop reads it: a read that fills the buffer it guessed
     * is followed by another, the handle adapting between them, until the message is in.
     */
    private static int readsOfTheLastOf(RecvByteBufAllocator allocator, int[] messages, int transactions) {
        EmbeddedChannel channel = new EmbeddedChannel();
        try {
            RecvByteBufAllocator.Handle handle = allocator.newHandle();
            int reads = 0;
            for (int t = 0; t < transactions; t++) {
                reads = 0;
                for (int size : messages) {
                    handle.reset(channel.config());
                    for (int left = size; left > 0; ) {
                        int guess = handle.guess();
                        int got = Math.min(left, guess);
                        handle.attemptedBytesRead(guess);
                        handle.lastBytesRead(got);
                        handle.incMessagesRead(1);
                        left -= got;
                        reads++;
                    }
                    handle.readComplete();
                }
            }
            return reads;
        } finally {
            channel.finishAndReleaseAll();
        }
    }
}
