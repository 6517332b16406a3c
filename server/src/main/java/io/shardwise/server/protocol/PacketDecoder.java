package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.nio.ByteOrder;

/**
 * Wire bytes → {@link Packet}s: frames on the 3-byte little-endian length (+1 for the sequence id)
 * and joins 16 MiB continuation packets into one payload. Never consumes a partial wire packet
 * (the superclass waits for whole frames). A message longer than {@code maxMessageLength} raises
 * {@link TooLongFrameException} after discarding what was gathered; the handler then answers
 * 1153 and closes this client.
 *
 * <p>Buffer lifetime: each emitted packet's payload is its own buffer (a packet of up to
 * {@link #COPIED} bytes, copied), a retained slice (or a composite of slices) of the input; the
 * caller releases it via the packet.
 */
public final class PacketDecoder extends LengthFieldBasedFrameDecoder {
    private final int maxMessageLength;
    private CompositeByteBuf continued;

    public PacketDecoder(int maxMessageLength) {
        // a single wire packet over the limit fails as soon as its header is read, before its bytes are buffered
        super(ByteOrder.LITTLE_ENDIAN, Math.min(maxMessageLength, Packet.MAX_WIRE_PAYLOAD) + Packet.HEADER_LENGTH, 0, 3, 1, 0, true);
        this.maxMessageLength = maxMessageLength;
    }

    /**
     * Frames up to this long (header included) are copied into a buffer of their own rather than sliced:
     * a pooled buffer is recycled, where a slice of the cumulation is a new 40-byte object per packet
     * (five per relayed point select, each way).
     */
    static final int COPIED = 2048 + Packet.HEADER_LENGTH;

    /**
     * One bulk copy: between two of the (adaptive) allocator's buffers it goes through their chunks' own
     * NIO buffers, no view made. Never an accessor call per byte or long: with Netty's leak detector at
     * advanced or paranoid (every test JVM) each call on a tracked buffer records a stack trace, and h/alloc2's
     * copy a long at a time made a million-line LOAD DATA LOCAL (a wire packet per line) three times slower
     * (PacketDecoderRecordsTest counts the records).
     */
    @Override
    protected ByteBuf extractFrame(ChannelHandlerContext ctx, ByteBuf buffer, int index, int length) {
        if (length > COPIED) {
            return super.extractFrame(ctx, buffer, index, length);
        }
        return ctx.alloc().buffer(length).writeBytes(buffer, index, length);
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        ByteBuf frame = (ByteBuf) super.decode(ctx, in);
        if (frame == null) {
            return null;
        }
        int length = frame.getUnsignedMediumLE(frame.readerIndex());
        int sequenceId = frame.getUnsignedByte(frame.readerIndex() + 3);
        frame.skipBytes(Packet.HEADER_LENGTH);
        if (continued == null && length < Packet.MAX_WIRE_PAYLOAD) {
            return new Packet(sequenceId, frame);
        }
        if (continued == null) {
            continued = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
        }
        if ((long) continued.readableBytes() + length > maxMessageLength) {
            frame.release();
            discardContinued();
            throw new TooLongFrameException("a packet longer than " + maxMessageLength + " bytes");
        }
        continued.addComponent(true, frame);
        if (length == Packet.MAX_WIRE_PAYLOAD) {
            return null; // more follows, at least an empty terminator
        }
        ByteBuf whole = continued;
        continued = null;
        return new Packet(sequenceId, whole);
    }

    private void discardContinued() {
        if (continued != null) {
            continued.release();
            continued = null;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        discardContinued();
    }
}
