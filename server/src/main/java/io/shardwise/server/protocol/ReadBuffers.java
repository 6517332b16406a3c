package io.shardwise.server.protocol;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * How large a buffer each socket read of the server's channels gets: one read per message wherever it
 * fits, so a statement costs one {@code recvfrom} per direction, as it does through a TCP relay.
 *
 * <p>Netty's default guesses each read from the ones before it, down to 64 bytes: after a transaction's
 * point selects (~40-byte commands, ~200-byte answers) it read sysbench's next range SELECT (a 68-byte
 * command) in two reads and its 12 KiB answer in three (512 bytes, then 8 KiB, then the rest), and each
 * short guess costs another system call, another trip through the decoder and, on a relay connection,
 * another flush to the client. Counted with {@code strace -c} on the server over sysbench
 * {@code oltp_read_only} at two connections: 34.4 {@code recvfrom} per transaction of 16 statements
 * against the 31 its commands and answers need (docs/server.md, the executor).
 *
 * <p>A read's buffer lives only until the packet decoder has copied the packets out of it
 * ({@link PacketDecoder}), so a larger floor holds no memory on an idle connection.
 */
public final class ReadBuffers {
    /** A client's command: a statement's text, an execute's values. */
    static final int CLIENT_MINIMUM = 1024;
    /** A backend's answer: a range of a hundred rows fits (sysbench's 100-row ranges are 12.5 KiB). */
    static final int BACKEND_MINIMUM = 16 * 1024;
    /** Netty's own ceiling: a long result is read 64 KiB at a time. */
    static final int MAXIMUM = 64 * 1024;

    private static final RecvByteBufAllocator CLIENT = new AdaptiveRecvByteBufAllocator(CLIENT_MINIMUM, 2048, MAXIMUM);
    private static final RecvByteBufAllocator BACKEND = new AdaptiveRecvByteBufAllocator(BACKEND_MINIMUM, BACKEND_MINIMUM, MAXIMUM);

    private ReadBuffers() {
    }

    /** For the connections clients open to the server. */
    public static RecvByteBufAllocator client() {
        return CLIENT;
    }

    /** For the server's own connections to its backends (the relay's). */
    public static RecvByteBufAllocator backend() {
        return BACKEND;
    }
}
