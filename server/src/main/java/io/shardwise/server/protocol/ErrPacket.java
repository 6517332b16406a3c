package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * An ERR packet: the protocol 4.1 form, with the SQLSTATE marker, once the client's capabilities are
 * known; {@link #encodeBeforeHandshake} the form without it that MySQL sends in place of a greeting.
 */
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

    /**
     * Without the SQLSTATE: MySQL refuses a connection before its greeting (1040, 1129) knowing
     * nothing of the client, so it writes the ERR as to a pre-4.1 client. Connector/J reads such a
     * packet that way, and shows a marker in it as part of the message.
     */
    public ByteBuf encodeBeforeHandshake(ByteBufAllocator alloc) {
        byte[] text = message.getBytes(StandardCharsets.UTF_8);
        ByteBuf out = alloc.buffer(3 + text.length);
        out.writeByte(HEADER).writeShortLE(errno);
        return out.writeBytes(text);
    }

    /** Either form; one without the SQLSTATE reads as HY000, as clients take it. */
    public static ErrPacket decode(ByteBuf in) {
        Wire.need(in, 3);
        if (in.readUnsignedByte() != HEADER) {
            throw new MalformedPacketException("not an ERR packet");
        }
        int errno = in.readUnsignedShortLE();
        if (in.readableBytes() < 6 || in.getByte(in.readerIndex()) != '#') {
            return new ErrPacket(errno, "HY000", Wire.readRest(in));
        }
        in.skipBytes(1);
        String state = in.readCharSequence(5, StandardCharsets.US_ASCII).toString();
        return new ErrPacket(errno, state, Wire.readRest(in));
    }
}
