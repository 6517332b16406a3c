package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/**
 * {@link Packet}s → wire bytes: a 4-byte header before each chunk of at most 16 MiB − 1 bytes,
 * sequence ids counting up from the packet's, and an empty terminator after a payload whose length
 * is a multiple of 16 MiB − 1 (the reader could not tell it ended otherwise). Stateless and
 * shareable. A small payload ({@link #COPIED} bytes or fewer: commands, OKs, definitions, most rows)
 * is copied behind its header into one buffer — cheaper than a header buffer plus a slice, and one
 * iovec instead of two in the socket write; a longer one is not copied: its slices follow their headers.
 */
@ChannelHandler.Sharable
public final class PacketEncoder extends MessageToMessageEncoder<Packet> {
    public static final PacketEncoder INSTANCE = new PacketEncoder();

    private PacketEncoder() {
        super(Packet.class);
    }

    /** The longest payload copied behind its header rather than sliced. */
    static final int COPIED = 1024;

    @Override
    protected void encode(ChannelHandlerContext ctx, Packet packet, List<Object> out) {
        ByteBuf payload = packet.content();
        int index = payload.readerIndex();
        int remaining = payload.readableBytes();
        int sequenceId = packet.sequenceId();
        if (remaining <= COPIED) {
            out.add(ctx.alloc().ioBuffer(Packet.HEADER_LENGTH + remaining).writeMediumLE(remaining).writeByte(sequenceId)
                    .writeBytes(payload, index, remaining));
            return;
        }
        int chunk;
        do {
            chunk = Math.min(remaining, Packet.MAX_WIRE_PAYLOAD);
            out.add(ctx.alloc().buffer(Packet.HEADER_LENGTH).writeMediumLE(chunk).writeByte(sequenceId));
            if (chunk > 0) {
                out.add(payload.retainedSlice(index, chunk));
            }
            sequenceId = (sequenceId + 1) & 0xFF;
            index += chunk;
            remaining -= chunk;
        } while (chunk == Packet.MAX_WIRE_PAYLOAD);
    }
}
