package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** The EOF packet of clients without CLIENT_DEPRECATE_EOF. */
public record EofPacket(int warnings, ServerStatus status) {
    public static final int HEADER = 0xFE;

    public ByteBuf encode(ByteBufAllocator alloc) {
        return alloc.buffer(5).writeByte(HEADER).writeShortLE(warnings).writeShortLE(status.bits());
    }
}
