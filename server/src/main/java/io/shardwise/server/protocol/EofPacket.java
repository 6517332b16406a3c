package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** The EOF packet of clients without CLIENT_DEPRECATE_EOF. */
public record EofPacket(int warnings, ServerStatus status) {
    public static final int HEADER = 0xFE;

    public ByteBuf encode(ByteBufAllocator alloc) {
        return writeTo(alloc.buffer(5));
    }

    /** Appends the encoded packet to {@code out}; returns it. */
    public ByteBuf writeTo(ByteBuf out) {
        return out.writeByte(HEADER).writeShortLE(warnings).writeShortLE(status.bits());
    }
}
