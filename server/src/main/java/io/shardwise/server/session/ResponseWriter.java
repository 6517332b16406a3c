package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.EofPacket;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;

/**
 * The packets of one command's response, numbered from the sequence id after the command's, and
 * paced: {@link #sendPaced} parks the caller while the channel is not writable. Used by the
 * session's virtual thread only. Buffers passed in are owned by the channel from then on.
 */
final class ResponseWriter {
    static final int FLUSH_EVERY = 64;
    private final Channel channel;
    private final WritabilityGate gate;
    private final Capabilities capabilities;
    private int sequenceId;
    private int unflushed;

    ResponseWriter(Channel channel, WritabilityGate gate, Capabilities capabilities, int firstSequenceId) {
        this.channel = channel;
        this.gate = gate;
        this.capabilities = capabilities;
        this.sequenceId = firstSequenceId & 0xFF;
    }

    Capabilities capabilities() {
        return capabilities;
    }

    Channel channel() {
        return channel;
    }

    void send(ByteBuf payload) {
        int length = payload.readableBytes();
        channel.write(new Packet(sequenceId, payload), channel.voidPromise());
        sequenceId = (sequenceId + Packet.wirePackets(length)) & 0xFF;
    }

    /**
     * Sends, then waits while the client is not keeping up; false once the client is gone. Flushes
     * every {@link #FLUSH_EVERY} packets so a slowly produced result still reaches the client.
     */
    boolean sendPaced(ByteBuf payload) {
        send(payload);
        if (++unflushed >= FLUSH_EVERY) {
            flush();
        }
        if (channel.isWritable()) {
            return channel.isActive();
        }
        flush();
        return gate.awaitWritable();
    }

    private void flush() {
        unflushed = 0;
        channel.flush();
    }

    void ok(long affectedRows, long lastInsertId, ServerStatus status, int warnings) {
        send(new OkPacket(affectedRows, lastInsertId, status, warnings, "").encode(channel.alloc(), false));
        channel.flush();
    }

    void error(int errno, String sqlState, String message) {
        send(new ErrPacket(errno, sqlState, message).encode(channel.alloc()));
        channel.flush();
    }

    /** The EOF after column definitions, for clients that still expect it. */
    void endOfColumns(ServerStatus status) {
        if (!capabilities.endsResultsWithOk()) {
            send(new EofPacket(0, status).encode(channel.alloc()));
        }
    }

    void endOfRows(ServerStatus status, int warnings) {
        send(capabilities.endsResultsWithOk()
                ? new OkPacket(0, 0, status, warnings, "").encode(channel.alloc(), true)
                : new EofPacket(warnings, status).encode(channel.alloc()));
        channel.flush();
    }
}
