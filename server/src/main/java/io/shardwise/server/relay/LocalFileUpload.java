package io.shardwise.server.relay;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.shardwise.core.execute.LocalData;
import io.shardwise.server.protocol.Packet;

/**
 * The client's side of the protocol's LOCAL INFILE exchange on a relay connection: a backend answers
 * a {@code LOAD DATA LOCAL INFILE} with its file request (0xFB and a file name); the rows follow in
 * packets, then an empty packet, and the backend answers OK or ERR. The rows are those core handed
 * the unit ({@link LocalData}: one batch of the client's file, split by core's LOAD DATA runner),
 * never a file of this host: the name the backend asks for is not even read. A request to a command
 * that carries no rows gets the empty packet alone, as a client that declines sends it: the backend
 * loads nothing (a backend can never make the server read a file).
 *
 * <p>Memory: the batch is already whole in memory (at most about 1 MiB: core bounds it); it is
 * copied once into the channel's buffers, as Netty would copy a heap buffer before the socket write,
 * so the caller may reuse its array as soon as this returns.
 */
final class LocalFileUpload {
    /** The protocol's LOCAL INFILE request header. */
    static final int REQUEST = 0xFB;
    /** Payload bytes per packet: well under any backend's {@code max_allowed_packet}, as clients send files. */
    private static final int CHUNK = 64 * 1024;

    private LocalFileUpload() {}

    /**
     * Writes {@code data}'s rows (none when null) and the empty packet that ends them, numbered on from
     * the backend's request {@code requestSequenceId} (MySQL refuses packets out of order). On the loop.
     */
    static void send(BackendConnection connection, int requestSequenceId, LocalData data) {
        Channel channel = connection.channel();
        int sequenceId = requestSequenceId + 1;
        if (data != null) {
            for (int offset = 0; offset < data.length(); offset += CHUNK) {
                int n = Math.min(CHUNK, data.length() - offset);
                channel.write(new Packet(sequenceId & 0xFF, channel.alloc().ioBuffer(n).writeBytes(data.bytes(), offset, n)),
                        channel.voidPromise());
                sequenceId++;
            }
        }
        channel.writeAndFlush(new Packet(sequenceId & 0xFF, Unpooled.EMPTY_BUFFER), channel.voidPromise());
    }
}
