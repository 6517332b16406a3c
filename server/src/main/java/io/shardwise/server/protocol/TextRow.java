package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;

/** A row of a text result set: each value length-encoded, 0xFB for NULL. */
public final class TextRow {
    public static final int NULL = 0xFB;

    private TextRow() {}

    public static void writeValue(ByteBuf out, byte[] value) {
        if (value == null) {
            out.writeByte(NULL);
        } else {
            Wire.writeLenenc(out, value);
        }
    }

    /** The bytes a value takes on the wire, to size the row buffer once. */
    public static int encodedLength(byte[] value) {
        if (value == null) {
            return 1;
        }
        int n = value.length;
        return n + (n < 251 ? 1 : n < 1 << 16 ? 3 : n < 1 << 24 ? 4 : 9);
    }
}
