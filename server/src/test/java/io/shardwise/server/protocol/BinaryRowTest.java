package io.shardwise.server.protocol;

import static io.shardwise.server.protocol.WireBytes.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.shardwise.server.Leaks;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BinaryRowTest {
    @AfterEach
    void noBufferLeaked() {
        Leaks.assertNone();
    }

    private static byte[] text(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    /** The payload for one cell of {@code type}, after the header and the one-byte bitmap. */
    private static byte[] cell(int type, String value) {
        ByteBuf row = new BinaryRow(new int[] {type}).encode(ByteBufAllocator.DEFAULT, new byte[][] {text(value)});
        try {
            assertEquals(0x00, row.readUnsignedByte(), "header");
            assertEquals(0, row.readUnsignedByte(), "bitmap");
            return bytes(row);
        } finally {
            row.release();
        }
    }

    private static byte[] le(long v, int width) {
        ByteBuf b = Unpooled.buffer(8).writeLongLE(v);
        byte[] out = new byte[width];
        b.getBytes(0, out);
        return out;
    }

    private static byte[] b(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void integersAreFixedWidthLittleEndianWhateverTheirSign() {
        assertArrayEquals(b(0x85), cell(BinaryType.TINY, "-123"));
        assertArrayEquals(b(0xFF), cell(BinaryType.TINY, "255")); // TINYINT UNSIGNED
        assertArrayEquals(le(-2, 2), cell(BinaryType.SHORT, "-2"));
        assertArrayEquals(le(2025, 2), cell(BinaryType.YEAR, "2025"));
        assertArrayEquals(le(8_388_607, 4), cell(BinaryType.INT24, "8388607"));
        assertArrayEquals(le(-2_147_483_648L, 4), cell(BinaryType.LONG, "-2147483648"));
        assertArrayEquals(le(4_294_967_295L, 4), cell(BinaryType.LONG, "4294967295")); // INT UNSIGNED
        assertArrayEquals(le(-1, 8), cell(BinaryType.LONGLONG, "-1"));
        assertArrayEquals(le(Long.MIN_VALUE, 8), cell(BinaryType.LONGLONG, "-9223372036854775808"));
        assertArrayEquals(le(-1, 8), cell(BinaryType.LONGLONG, "18446744073709551615")); // BIGINT UNSIGNED max
        assertArrayEquals(le(100042, 8), cell(BinaryType.LONGLONG, "100042"));
    }

    @Test
    void floatingPointIsIeeeAndDecimalsAndStringsStayText() {
        assertArrayEquals(le(Float.floatToIntBits(1.5f), 4), cell(BinaryType.FLOAT, "1.5"));
        assertArrayEquals(le(Double.doubleToLongBits(-2.25e10), 8), cell(BinaryType.DOUBLE, "-2.25e10"));
        assertArrayEquals(b(4, '1', '.', '5', '0'), cell(BinaryType.NEWDECIMAL, "1.50"));
        assertArrayEquals(b(2, 'h', 'i'), cell(BinaryType.VAR_STRING, "hi"));
        assertArrayEquals(b(0), cell(BinaryType.STRING, ""));
        assertArrayEquals(b(3, 0xE2, 0x82, 0xAC), cell(BinaryType.BLOB, "\u20AC"));
        byte[] long300 = cell(BinaryType.VAR_STRING, "x".repeat(300));
        assertArrayEquals(b(0xFC, 300 & 0xFF, 300 >> 8), java.util.Arrays.copyOf(long300, 3));
        assertEquals(303, long300.length);
    }

    @Test
    void datesTakeTheShortestFormThatKeepsEveryPart() {
        assertArrayEquals(b(4, 0xE9, 0x07, 3, 1), cell(BinaryType.DATE, "2025-03-01"));
        assertArrayEquals(b(0), cell(BinaryType.DATE, "0000-00-00"));
        assertArrayEquals(b(4, 0xE9, 0x07, 3, 1), cell(BinaryType.DATETIME, "2025-03-01 00:00:00"));
        assertArrayEquals(b(7, 0xE9, 0x07, 3, 1, 10, 20, 30), cell(BinaryType.DATETIME, "2025-03-01 10:20:30"));
        assertArrayEquals(b(11, 0xE9, 0x07, 3, 1, 10, 20, 30, 0xC0, 0x27, 0x09, 0), cell(BinaryType.TIMESTAMP, "2025-03-01 10:20:30.600000"));
        assertArrayEquals(b(0), cell(BinaryType.DATETIME, "0000-00-00 00:00:00"));
    }

    @Test
    void fractionsArePaddedToMicroseconds() {
        byte[] cell = cell(BinaryType.DATETIME, "2025-03-01 10:20:30.6");
        assertArrayEquals(b(11, 0xE9, 0x07, 3, 1, 10, 20, 30), java.util.Arrays.copyOf(cell, 8));
        assertArrayEquals(le(600_000, 4), java.util.Arrays.copyOfRange(cell, 8, 12));
    }

    @Test
    void timesCarryDaysAndSign() {
        assertArrayEquals(b(0), cell(BinaryType.TIME, "00:00:00"));
        assertArrayEquals(b(8, 0, 0, 0, 0, 0, 10, 20, 30), cell(BinaryType.TIME, "10:20:30"));
        assertArrayEquals(b(8, 1, 34, 0, 0, 0, 22, 59, 59), cell(BinaryType.TIME, "-838:59:59"));
        byte[] withMicros = cell(BinaryType.TIME, "25:00:00.000001");
        assertArrayEquals(b(12, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0), withMicros);
    }

    @Test
    void nullsSetTheirBitAtOffsetTwoAndTakeNoValueBytes() {
        int[] types = new int[9];
        java.util.Arrays.fill(types, BinaryType.LONGLONG);
        byte[][] cells = new byte[9][];
        cells[0] = text("1");
        cells[8] = text("2");
        ByteBuf row = new BinaryRow(types).encode(ByteBufAllocator.DEFAULT, cells);
        try {
            // 9 columns + offset 2 = 11 bits: two bitmap bytes; columns 1..7 NULL are bits 3..9
            assertArrayEquals(b(0x00, 0xF8, 0x03, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0), bytes(row));
        } finally {
            row.release();
        }
    }
}
