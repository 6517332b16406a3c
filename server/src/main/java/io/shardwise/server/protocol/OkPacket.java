package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.nio.charset.StandardCharsets;

/**
 * An OK packet. With {@code endOfRows} it carries header 0xFE: the end of a result set for clients
 * with CLIENT_DEPRECATE_EOF (MySQL's protocol page "OK_Packet": "0xFE ... as EOF").
 */
public record OkPacket(long affectedRows, long lastInsertId, ServerStatus status, int warnings, String info) {
    public static final int HEADER = 0x00;
    public static final int END_OF_ROWS_HEADER = 0xFE;

    public ByteBuf encode(ByteBufAllocator alloc, boolean endOfRows) {
        return writeTo(alloc.buffer(16 + info.length()), endOfRows);
    }

    /** Appends the encoded packet to {@code out}; returns it. */
    public ByteBuf writeTo(ByteBuf out, boolean endOfRows) {
        return writeTo(out, endOfRows, affectedRows, lastInsertId, status, warnings, info);
    }

    /** As {@link #writeTo(ByteBuf, boolean)} without the record: a relayed statement's end writes one per statement. */
    public static ByteBuf writeTo(ByteBuf out, boolean endOfRows, long affectedRows, long lastInsertId, ServerStatus status, int warnings,
                                  String info) {
        out.writeByte(endOfRows ? END_OF_ROWS_HEADER : HEADER);
        Wire.writeLenenc(out, affectedRows);
        Wire.writeLenenc(out, lastInsertId);
        out.writeShortLE(status.bits()).writeShortLE(warnings);
        if (!info.isEmpty()) {
            // as MySQL's and MariaDB's net_send_ok: the message length-encoded, and absent when empty
            Wire.writeLenenc(out, info.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    /** Reads an OK packet (either header); for tests and tools. */
    public static OkPacket decode(ByteBuf in) {
        Wire.need(in, 1);
        int header = in.readUnsignedByte();
        if (header != HEADER && header != END_OF_ROWS_HEADER) {
            throw new MalformedPacketException("not an OK packet: header 0x" + Integer.toHexString(header));
        }
        long affected = Wire.readLenenc(in);
        long id = Wire.readLenenc(in);
        Wire.need(in, 4);
        ServerStatus status = new ServerStatus(in.readUnsignedShortLE());
        int warnings = in.readUnsignedShortLE();
        return new OkPacket(affected, id, status, warnings, in.isReadable() ? Wire.readLenencString(in) : "");
    }
}
