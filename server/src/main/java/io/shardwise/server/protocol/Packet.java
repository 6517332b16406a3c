package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.DefaultByteBufHolder;

/**
 * One logical MySQL packet: a payload and its sequence id. Payloads of 16 MiB − 1 bytes or more
 * travel as several wire packets ({@link PacketDecoder} joins them, {@link PacketEncoder} splits
 * them); a {@code Packet} always holds the whole payload.
 *
 * <p>Sequence ids: on the way in, the id of the <em>last</em> wire packet (the reply continues from
 * it + 1); on the way out, the id of the <em>first</em> wire packet, and the next packet's id is
 * this + {@link #wirePackets(int)} of this payload.
 *
 * <p>Buffer lifetime: the packet owns its payload; whoever handles it last releases it (writing it
 * to a channel hands it to the encoder, which releases it).
 */
public final class Packet extends DefaultByteBufHolder {
    /** The largest payload one wire packet carries; a payload this long continues in the next one. */
    public static final int MAX_WIRE_PAYLOAD = 0xFF_FF_FF;
    public static final int HEADER_LENGTH = 4;

    private final int sequenceId;

    public Packet(int sequenceId, ByteBuf payload) {
        super(payload);
        this.sequenceId = sequenceId & 0xFF;
    }

    public int sequenceId() {
        return sequenceId;
    }

    /** Wire packets a payload of {@code length} bytes takes, the empty terminator included. */
    public static int wirePackets(int length) {
        return length / MAX_WIRE_PAYLOAD + 1;
    }

    @Override
    public Packet replace(ByteBuf content) {
        return new Packet(sequenceId, content);
    }

    @Override
    public String toString() {
        return "Packet[seq=" + sequenceId + ", length=" + content().readableBytes() + "]";
    }
}
