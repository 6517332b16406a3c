package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * MySQL's basic data types on a {@link ByteBuf}: length-encoded integers and strings,
 * NUL-terminated strings. Reads throw {@link MalformedPacketException} instead of reading past
 * the payload.
 */
public final class Wire {
    private Wire() {}

    public static void writeLenenc(ByteBuf out, long value) {
        if (value >= 0 && value < 251) {
            out.writeByte((int) value);
        } else if (value >= 0 && value < 1 << 16) {
            out.writeByte(0xFC).writeShortLE((int) value);
        } else if (value >= 0 && value < 1 << 24) {
            out.writeByte(0xFD).writeMediumLE((int) value);
        } else {
            out.writeByte(0xFE).writeLongLE(value); // negative: the unsigned 64-bit value
        }
    }

    public static void writeLenenc(ByteBuf out, byte[] bytes) {
        writeLenenc(out, bytes.length);
        out.writeBytes(bytes);
    }

    public static void writeLenenc(ByteBuf out, String text) {
        writeLenenc(out, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void writeNulTerminated(ByteBuf out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.UTF_8)).writeByte(0);
    }

    public static long readLenenc(ByteBuf in) {
        need(in, 1);
        int first = in.readUnsignedByte();
        return switch (first) {
            case 0xFC -> { need(in, 2); yield in.readUnsignedShortLE(); }
            case 0xFD -> { need(in, 3); yield in.readUnsignedMediumLE(); }
            case 0xFE -> { need(in, 8); yield in.readLongLE(); }
            case 0xFB, 0xFF -> throw new MalformedPacketException("0x" + Integer.toHexString(first) + " is no length-encoded integer");
            default -> first;
        };
    }

    public static byte[] readLenencBytes(ByteBuf in) {
        long length = readLenenc(in);
        if (length < 0 || length > in.readableBytes()) {
            throw new MalformedPacketException("a length-encoded string of " + length + " bytes in " + in.readableBytes());
        }
        byte[] bytes = new byte[(int) length];
        in.readBytes(bytes);
        return bytes;
    }

    public static String readLenencString(ByteBuf in) {
        return new String(readLenencBytes(in), StandardCharsets.UTF_8);
    }

    public static String readNulTerminated(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new MalformedPacketException("a string without its NUL terminator");
        }
        String s = in.toString(in.readerIndex(), end - in.readerIndex(), StandardCharsets.UTF_8);
        in.readerIndex(end + 1);
        return s;
    }

    /** The rest of the payload as bytes (a string<EOF> whose character set the caller knows). */
    public static byte[] readRestBytes(ByteBuf in) {
        byte[] bytes = new byte[in.readableBytes()];
        in.readBytes(bytes);
        return bytes;
    }

    /** The rest of the payload as text (a string<EOF>). */
    public static String readRest(ByteBuf in) {
        String s = in.toString(StandardCharsets.UTF_8);
        in.skipBytes(in.readableBytes());
        return s;
    }

    static void need(ByteBuf in, int bytes) {
        if (in.readableBytes() < bytes) {
            throw new MalformedPacketException("the payload ends " + (bytes - in.readableBytes()) + " bytes early");
        }
    }
}
