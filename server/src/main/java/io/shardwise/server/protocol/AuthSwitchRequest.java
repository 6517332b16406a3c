package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Asks the client to authenticate again with {@code plugin}, over {@code data} (the seed + NUL for native passwords). */
public record AuthSwitchRequest(String plugin, byte[] data) {
    public static final int HEADER = 0xFE;

    public AuthSwitchRequest {
        data = data.clone();
    }

    @Override
    public byte[] data() {
        return data.clone();
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        ByteBuf out = alloc.buffer(2 + plugin.length() + data.length);
        out.writeByte(HEADER);
        Wire.writeNulTerminated(out, plugin);
        return out.writeBytes(data);
    }

    public static AuthSwitchRequest decode(ByteBuf in) {
        Wire.need(in, 1);
        if (in.readUnsignedByte() != HEADER) {
            throw new MalformedPacketException("not an auth switch request");
        }
        String plugin = Wire.readNulTerminated(in);
        byte[] data = new byte[in.readableBytes()];
        in.readBytes(data);
        return new AuthSwitchRequest(plugin, data);
    }
}
