package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Encodes rows of a binary result set (ProtocolBinary::ResultsetRow) from text-protocol cell
 * bytes: header 0x00, a NULL bitmap with offset 2, then each non-NULL value in its column type's
 * binary form: integers fixed-width little-endian (an UNSIGNED column's bits are the same),
 * FLOAT/DOUBLE as IEEE, dates and times in MySQL's length-prefixed forms, everything else
 * (DECIMAL, strings, blobs, BIT, JSON) length-encoded as the text was. One instance per result
 * set; immutable.
 */
public final class BinaryRow {
    public static final int HEADER = 0x00;
    private static final int BITMAP_OFFSET = 2;

    private final int[] types;

    /** @param types each column's MYSQL_TYPE_* code */
    public BinaryRow(int[] types) {
        this.types = types.clone();
    }

    /** A row packet's payload; {@code cells[i]} is column i's text bytes, null for NULL. The caller owns the buffer. */
    public ByteBuf encode(ByteBufAllocator alloc, byte[][] cells) {
        int n = types.length;
        int bitmapLength = (n + 7 + BITMAP_OFFSET) / 8;
        int size = 1 + bitmapLength;
        for (byte[] cell : cells) {
            size += TextRow.encodedLength(cell) + 2; // a date's binary form is at most 2 bytes over its text's
        }
        return writeTo(alloc.buffer(size), cells);
    }

    /** Appends the row packet's payload to {@code out} (for {@code encode}'s cells); returns it. */
    public ByteBuf writeTo(ByteBuf out, byte[][] cells) {
        int n = types.length;
        int bitmapLength = (n + 7 + BITMAP_OFFSET) / 8;
        out.writeByte(HEADER);
        int bitmapStart = out.writerIndex();
        out.writeZero(bitmapLength);
        for (int i = 0; i < n; i++) {
            byte[] cell = cells[i];
            if (cell == null) {
                int bit = i + BITMAP_OFFSET;
                out.setByte(bitmapStart + bit / 8, out.getByte(bitmapStart + bit / 8) | 1 << (bit % 8));
            } else {
                writeValue(out, types[i], cell);
            }
        }
        return out;
    }

    private static void writeValue(ByteBuf out, int type, byte[] text) {
        switch (type) {
            case BinaryType.TINY -> out.writeByte((int) integer(text));
            case BinaryType.SHORT, BinaryType.YEAR -> out.writeShortLE((int) integer(text));
            case BinaryType.LONG, BinaryType.INT24 -> out.writeIntLE((int) integer(text));
            case BinaryType.LONGLONG -> out.writeLongLE(integer(text));
            case BinaryType.FLOAT -> out.writeFloatLE(Float.parseFloat(ascii(text)));
            case BinaryType.DOUBLE -> out.writeDoubleLE(Double.parseDouble(ascii(text)));
            case BinaryType.DATE, BinaryType.DATETIME, BinaryType.TIMESTAMP -> dateTime(out, text);
            case BinaryType.TIME -> time(out, text);
            default -> Wire.writeLenenc(out, text);
        }
    }

    /**
     * The integer's low 64 bits: digits accumulate modulo 2^64, so an UNSIGNED BIGINT above
     * Long.MAX_VALUE gets its own bit pattern and "-1" stays -1. Text that is no plain integer
     * (an engine-computed value with a fraction) goes through BigDecimal.
     */
    static long integer(byte[] text) {
        int i = 0;
        boolean negative = false;
        if (text.length > 0 && (text[0] == '-' || text[0] == '+')) {
            negative = text[0] == '-';
            i = 1;
        }
        if (i == text.length) {
            return new BigDecimal(ascii(text)).longValue(); // throws: no number at all
        }
        long v = 0;
        for (; i < text.length; i++) {
            int d = text[i] - '0';
            if (d < 0 || d > 9) {
                return new BigDecimal(ascii(text)).toBigInteger().longValue();
            }
            v = v * 10 + d;
        }
        return negative ? -v : v;
    }

    /** "YYYY-MM-DD[ HH:MM:SS[.f…]]" as length 0, 4, 7 or 11, the shortest that keeps every non-zero part (as MySQL). */
    private static void dateTime(ByteBuf out, byte[] text) {
        int year = digits(text, 0, 4), month = digits(text, 5, 7), day = digits(text, 8, 10);
        int hour = digits(text, 11, 13), minute = digits(text, 14, 16), second = digits(text, 17, 19);
        int micros = fraction(text, 19);
        if (micros != 0) {
            out.writeByte(11);
        } else if ((hour | minute | second) != 0) {
            out.writeByte(7);
        } else if ((year | month | day) != 0) {
            out.writeByte(4);
        } else {
            out.writeByte(0);
            return;
        }
        out.writeShortLE(year).writeByte(month).writeByte(day);
        if (micros != 0 || (hour | minute | second) != 0) {
            out.writeByte(hour).writeByte(minute).writeByte(second);
        }
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }

    /** "[-]H…H:MM:SS[.f…]" as length 0, 8 or 12: sign, days, hours, minutes, seconds[, microseconds]. */
    private static void time(ByteBuf out, byte[] text) {
        boolean negative = text.length > 0 && text[0] == '-';
        int start = negative ? 1 : 0;
        int colon = start;
        while (colon < text.length && text[colon] != ':') {
            colon++;
        }
        int hours = digits(text, start, colon);
        int minute = digits(text, colon + 1, colon + 3), second = digits(text, colon + 4, colon + 6);
        int micros = fraction(text, colon + 6);
        if (micros != 0) {
            out.writeByte(12);
        } else if ((hours | minute | second) != 0) {
            out.writeByte(8);
        } else {
            out.writeByte(0);
            return;
        }
        out.writeByte(negative ? 1 : 0).writeIntLE(hours / 24).writeByte(hours % 24).writeByte(minute).writeByte(second);
        if (micros != 0) {
            out.writeIntLE(micros);
        }
    }

    /** The decimal number in text[from, to); 0 where the text is shorter (a DATE has no time part). */
    private static int digits(byte[] text, int from, int to) {
        int v = 0;
        for (int i = from; i < to && i < text.length; i++) {
            v = v * 10 + (text[i] - '0');
        }
        return v;
    }

    /** The microseconds of ".f…" at {@code dot}, padded to six digits; 0 when there is none. */
    private static int fraction(byte[] text, int dot) {
        if (dot >= text.length || text[dot] != '.') {
            return 0;
        }
        int v = 0;
        for (int i = 1; i <= 6; i++) {
            int at = dot + i;
            v = v * 10 + (at < text.length ? text[at] - '0' : 0);
        }
        return v;
    }

    private static String ascii(byte[] text) {
        return new String(text, StandardCharsets.US_ASCII);
    }
}
