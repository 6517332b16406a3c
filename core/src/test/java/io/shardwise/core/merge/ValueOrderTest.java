package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ValueOrderTest {
    private static int cmp(ValueOrder order, String a, String b) {
        return Integer.signum(order.compare(a.getBytes(StandardCharsets.ISO_8859_1), b.getBytes(StandardCharsets.ISO_8859_1)));
    }

    @Test
    void unsignedBigintAboveLongMaxComparesAsTheLargerNumber() {
        assertEquals(1, cmp(ValueOrder.NUMBER, "18446744073709551615", "9223372036854775807"));
        assertEquals(-1, cmp(ValueOrder.NUMBER, "9223372036854775808", "18446744073709551615"));
    }

    @Test
    void numbersCompareByValueNotByText() {
        assertEquals(-1, cmp(ValueOrder.NUMBER, "9", "10"));
        assertEquals(-1, cmp(ValueOrder.NUMBER, "-10", "-9"));
        assertEquals(-1, cmp(ValueOrder.NUMBER, "-5", "3"));
        assertEquals(0, cmp(ValueOrder.NUMBER, "1.5", "1.500"));
        assertEquals(-1, cmp(ValueOrder.NUMBER, "1.499", "1.5"));
        assertEquals(1, cmp(ValueOrder.NUMBER, "-1.499", "-1.5"));
        assertEquals(0, cmp(ValueOrder.NUMBER, "-0.00", "0"));
        assertEquals(-1, cmp(ValueOrder.NUMBER, "0.05", "0.5"));
        assertEquals(1, cmp(ValueOrder.NUMBER, "100.00", "99.999"));
    }

    @Test
    void doublesCompareNumericallyIncludingExponents() {
        assertEquals(1, cmp(ValueOrder.FLOATING, "1e15", "999999999999999"));
        assertEquals(-1, cmp(ValueOrder.FLOATING, "-1.5e-7", "0"));
        assertEquals(-1, cmp(ValueOrder.FLOATING, "2", "10"));
    }

    @Test
    void negativeAndLongTimesCompareInTimeOrder() {
        assertEquals(-1, cmp(ValueOrder.TIME, "-838:59:59", "-01:00:00"));
        assertEquals(-1, cmp(ValueOrder.TIME, "-00:00:01", "00:00:00"));
        assertEquals(1, cmp(ValueOrder.TIME, "100:00:00", "23:59:59"));
        assertEquals(1, cmp(ValueOrder.TIME, "10:00:00.5", "10:00:00.25"));
        assertEquals(-1, cmp(ValueOrder.TIME, "-10:00:00.5", "-10:00:00.25"));
    }

    @Test
    void datetimesCompareInTimeOrderWithZeroDatesFirst() {
        assertEquals(-1, cmp(ValueOrder.DATETIME, "0000-00-00 00:00:00", "1000-01-01 00:00:00"));
        assertEquals(-1, cmp(ValueOrder.DATETIME, "2025-01-02 03:04:05.599", "2025-01-02 03:04:05.600"));
        assertEquals(0, cmp(ValueOrder.DATETIME, "2025-01-02 03:04:05", "2025-01-02 03:04:05.000"));
        assertEquals(-1, cmp(ValueOrder.DATETIME, "2025-01-02 03:04:05", "2025-01-02 03:04:05.001"));
    }

    @Test
    void bitsCompareAsUnsignedBigEndianNumbers() {
        assertTrue(ValueOrder.BITS.compare(new byte[] {(byte) 0x80}, new byte[] {0x7f}) > 0);
        assertTrue(ValueOrder.BITS.compare(new byte[] {0x01, 0x00}, new byte[] {(byte) 0xff}) > 0);
        assertEquals(0, ValueOrder.BITS.compare(new byte[] {0x00, 0x05}, new byte[] {0x05}));
    }

    @Test
    void bytesCompareUnsignedSoUtf8SortsAfterAscii() {
        assertEquals(1, cmp(ValueOrder.BYTES, "\u00e9", "z"));
        assertEquals(-1, cmp(ValueOrder.BYTES, "Apple", "apple"));
    }

    @Test
    void columnTypesMapToTheirOrder() {
        assertEquals(ValueOrder.NUMBER, ValueOrder.of(Columns.unsignedBigint("u")));
        assertEquals(ValueOrder.NUMBER, ValueOrder.of(Columns.decimal("d", 2)));
        assertEquals(ValueOrder.NUMBER, ValueOrder.of(Columns.of("y", 13, 0, 0)));
        assertEquals(ValueOrder.FLOATING, ValueOrder.of(Columns.dbl("f")));
        assertEquals(ValueOrder.TIME, ValueOrder.of(Columns.time("t")));
        assertEquals(ValueOrder.DATETIME, ValueOrder.of(Columns.of("ts", 7, 0, 0)));
        assertEquals(ValueOrder.DATETIME, ValueOrder.of(Columns.of("d", 10, 0, 0)));
        assertEquals(ValueOrder.BITS, ValueOrder.of(Columns.of("b", 16, 0, 0)));
        assertEquals(ValueOrder.BYTES, ValueOrder.of(Columns.varchar("s")));
    }
}
