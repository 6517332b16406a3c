package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Protocol::AuthMoreData: plugin data for the client in the middle of an authentication
 * (caching_sha2_password's fast_auth_success / perform_full_authentication byte, or its PEM public key).
 */
public record AuthMoreData(byte[] data) {
    public static final int HEADER = 0x01;

    public AuthMoreData {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        return alloc.buffer(1 + data.length).writeByte(HEADER).writeBytes(data);
    }

    public static AuthMoreData decode(ByteBuf in) {
        Wire.need(in, 1);
        if (in.readUnsignedByte() != HEADER) {
            throw new MalformedPacketException("not an AuthMoreData packet");
        }
        byte[] data = new byte[in.readableBytes()];
        in.readBytes(data);
        return new AuthMoreData(data);
    }
}
