package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/** An ERR packet (protocol 4.1 form, with the SQLSTATE marker). */
public record ErrPacket(int errno, String sqlState, String message) {
    public static final int HEADER = 0xFF;

    public ErrPacket {
        if (sqlState.length() != 5) {
            throw new IllegalArgumentException("a SQLSTATE has 5 characters: '" + sqlState + "'");
        }
    }

    public ByteBuf encode(ByteBufAllocator alloc) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        ByteBuf out = alloc.buffer(9 + text.length);
        out.writeByte(HEADER).writeShortLE(errno).writeByte('#');
        out.writeCharSequence(sqlState, StandardCharsets.US_ASCII);
        return out.writeBytes(text);
    }

    public static ErrPacket decode(ByteBuf in) {
        Wire.need(in, 9);
        if (in.readUnsignedByte() != HEADER) {
            throw new MalformedPacketException("not an ERR packet");
        }
        int errno = in.readUnsignedShortLE();
        in.skipBytes(1);
        String state = in.readCharSequence(5, StandardCharsets.US_ASCII).toString();
        return new ErrPacket(errno, state, Wire.readRest(in));
    }
}
