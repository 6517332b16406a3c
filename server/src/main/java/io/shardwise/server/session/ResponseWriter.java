package io.shardwise.server.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPromise;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.server.protocol.Capabilities;
import io.shardwise.server.protocol.EofPacket;
import io.shardwise.server.protocol.ErrPacket;
import io.shardwise.server.protocol.OkPacket;
import io.shardwise.server.protocol.Packet;
import io.shardwise.server.protocol.ServerStatus;
import io.shardwise.server.protocol.Wire;

/**
 * The packets of one command's response, numbered from the sequence id after the command's, and
 * paced: {@link #sendPaced} parks the caller while the channel is not writable. Used by the
 * session's virtual thread only. Buffers passed in are owned by the writer from then on.
 *
 * <p>Packets are framed here, into one buffer that goes to the channel when the response ends (or
 * every {@link #FLUSH_BYTES} / {@link #FLUSH_EVERY} rows): every write or flush from this thread is
 * a task handed to the event loop, and the wake-up that goes with it cost more than the rest of a
 * point select's work (a profile showed ~40% of the session thread's samples in flush). A payload
 * of 16 MiB − 1 bytes or more still goes as a {@link Packet}, which the encoder splits.
 */
final class ResponseWriter {
    static final int FLUSH_EVERY = 64;
    /** Buffered response bytes that are handed to the channel at once: well under its 64 KiB high water mark. */
    static final int FLUSH_BYTES = 16 * 1024;
    private static final int INITIAL_CAPACITY = 512;
    private final Channel channel;
    private final WritabilityGate gate;
    private final Capabilities capabilities;
    private int sequenceId;
    private int unflushed;
    /** Framed packets not yet handed to the channel; null when there are none. */
    private ByteBuf pending;
    /** Where the header of the packet begun by {@link #beginPacket} is, or -1. */
    private int packetStart = -1;
    /** Something was written to the channel without a flush. */
    private boolean written;

    ResponseWriter(Channel channel, WritabilityGate gate, Capabilities capabilities, int firstSequenceId) {
        this.channel = channel;
        this.gate = gate;
        this.capabilities = capabilities;
        this.sequenceId = firstSequenceId & 0xFF;
    }

    Capabilities capabilities() {
        return capabilities;
    }

    ByteBufAllocator alloc() {
        return channel.alloc();
    }

    /** Frames {@code payload} (and releases it). */
    void send(ByteBuf payload) {
        dropUnfinishedPacket();
        try {
            int length = payload.readableBytes();
            if (length >= Packet.MAX_WIRE_PAYLOAD) {
                handOver();
                channel.write(new Packet(sequenceId, payload.retain()), channel.voidPromise());
                written = true;
                sequenceId = (sequenceId + Packet.wirePackets(length)) & 0xFF;
                return;
            }
            ByteBuf out = buffer(Packet.HEADER_LENGTH + length);
            out.writeMediumLE(length).writeByte(sequenceId).writeBytes(payload);
            sequenceId = (sequenceId + 1) & 0xFF;
        } finally {
            payload.release();
        }
    }

    /**
     * Starts a packet in the response buffer: the caller writes its payload into the returned
     * buffer (appending only), then calls {@link #endPacket}. Saves a buffer per row.
     */
    ByteBuf beginPacket(int expectedLength) {
        dropUnfinishedPacket();
        ByteBuf out = buffer(Packet.HEADER_LENGTH + expectedLength);
        packetStart = out.writerIndex();
        return out.writeZero(Packet.HEADER_LENGTH);
    }

    void endPacket() {
        int start = packetStart;
        packetStart = -1;
        int length = pending.writerIndex() - start - Packet.HEADER_LENGTH;
        if (length >= Packet.MAX_WIRE_PAYLOAD) {
            // too long for one wire packet: take the payload out and let the encoder split it
            ByteBuf payload = channel.alloc().buffer(length).writeBytes(pending, start + Packet.HEADER_LENGTH, length);
            pending.writerIndex(start);
            send(payload);
            return;
        }
        pending.setMediumLE(start, length).setByte(start + 3, sequenceId);
        sequenceId = (sequenceId + 1) & 0xFF;
    }

    /** A packet begun but never ended (its payload failed half-way) must not reach the client. */
    private void dropUnfinishedPacket() {
        if (packetStart >= 0) {
            pending.writerIndex(packetStart);
            packetStart = -1;
        }
    }

    private ByteBuf buffer(int needed) {
        if (pending == null) {
            pending = channel.alloc().ioBuffer(Math.max(INITIAL_CAPACITY, needed));
        }
        return pending;
    }

    /** The client sent packets within the command (a LOAD DATA LOCAL file): the answer goes on from the id after its last. */
    void continueAfter(int clientSequenceId) {
        sequenceId = (clientSequenceId + 1) & 0xFF;
    }

    /** Writes the buffered packets to the channel, without flushing. */
    private void handOver() {
        if (pending != null) {
            ByteBuf b = pending;
            pending = null;
            if (b.isReadable()) {
                channel.write(b, channel.voidPromise());
                written = true;
            } else {
                b.release();
            }
        }
    }

    /**
     * Sends, then waits while the client is not keeping up; false once the client is gone. Hands
     * the buffer to the channel every {@link #FLUSH_EVERY} packets or {@link #FLUSH_BYTES} bytes,
     * so a slowly produced result still reaches the client.
     */
    boolean sendPaced(ByteBuf payload) {
        send(payload);
        return paced();
    }

    /** {@link #endPacket}, paced as {@link #sendPaced}. */
    boolean endPacketPaced() {
        endPacket();
        return paced();
    }

    private boolean paced() {
        if (++unflushed >= FLUSH_EVERY || (pending != null && pending.readableBytes() >= FLUSH_BYTES)) {
            flush();
        }
        if (channel.isWritable()) {
            return channel.isActive();
        }
        flush();
        return gate.awaitWritable();
    }

    /** Everything sent so far goes to the client now: one task for the event loop. */
    void flush() {
        dropUnfinishedPacket();
        unflushed = 0;
        ByteBuf b = pending;
        pending = null;
        if (b != null && b.isReadable()) {
            channel.writeAndFlush(b, channel.voidPromise());
        } else {
            if (b != null) {
                b.release();
            }
            if (written) {
                channel.flush();
            }
        }
        written = false;
    }

    /**
     * The command's answer is complete: what is left goes to the client, and {@code answered} runs
     * on the event loop as soon as the answer's last byte has been written (or the write failed).
     * Writes complete in order, so an empty write stands for an answer flushed already. A client
     * that waits for each answer sends its next command only after that point, so the dispatcher
     * sees it answered (and may relay the next one) with nothing of this answer still to come.
     */
    void finish(Runnable answered) {
        dropUnfinishedPacket();
        unflushed = 0;
        ByteBuf b = pending;
        pending = null;
        written = false;
        ByteBuf last = b != null && b.isReadable() ? b : Unpooled.EMPTY_BUFFER;
        if (b != null && b != last) {
            b.release();
        }
        // the listener first: a write may complete before writeAndFlush returns, and it must run in that same task
        ChannelPromise done = channel.newPromise();
        done.addListener(f -> answered.run());
        channel.writeAndFlush(last, done);
    }

    /** Drops what was not flushed (the client is gone or the command failed before answering). */
    void discard() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }

    void ok(long affectedRows, long lastInsertId, ServerStatus status, int warnings) {
        ok(affectedRows, lastInsertId, status, warnings, "");
    }

    /** An OK with MySQL's human-readable info ({@code Records: 3  Duplicates: 0  Warnings: 0}). */
    void ok(long affectedRows, long lastInsertId, ServerStatus status, int warnings, String info) {
        new OkPacket(affectedRows, lastInsertId, status, warnings, info).writeTo(beginPacket(16 + info.length()), false);
        endPacket();
        flushUnlessLast(status);
    }

    void error(ErrorCode code, Object... args) {
        error(code.errno(), code.sqlState(), code.message(args));
    }

    void error(int errno, String sqlState, String message) {
        send(new ErrPacket(errno, sqlState, message).encode(channel.alloc())); // an ERR ends the command: finish() sends it
    }

    /**
     * A result set's column count packet; under MARIADB_CLIENT_CACHE_METADATA with its "metadata
     * follows" byte ({@code follows}: whether the column definitions come behind it).
     */
    void columnCount(int count, boolean follows) {
        ByteBuf out = beginPacket(10);
        Wire.writeLenenc(out, count);
        if (capabilities.cachesMetadata()) {
            out.writeByte(follows ? 1 : 0);
        }
        endPacket();
    }

    /** The EOF after column definitions, for clients that still expect it. */
    void endOfColumns(ServerStatus status) {
        if (!capabilities.endsResultsWithOk()) {
            new EofPacket(0, status).writeTo(beginPacket(5));
            endPacket();
        }
    }

    void endOfRows(ServerStatus status, int warnings) {
        ByteBuf out = beginPacket(16);
        if (capabilities.endsResultsWithOk()) {
            new OkPacket(0, 0, status, warnings, "").writeTo(out, true);
        } else {
            new EofPacket(warnings, status).writeTo(out);
        }
        endPacket();
        flushUnlessLast(status);
    }

    /**
     * A result followed by more (multi-statements) goes out now; the command's last one waits for
     * {@link #finish}, which sends it and marks the command answered in one event-loop task.
     */
    private void flushUnlessLast(ServerStatus status) {
        if (status.moreResultsExist()) {
            flush();
        }
    }
}
