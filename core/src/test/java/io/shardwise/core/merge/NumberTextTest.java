package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class NumberTextTest {
    private static String g(double d) {
        return NumberText.formatDouble(d, 31, false);
    }

    @Test
    void doublesPrintTheShortestDigitsThatReadBackExactly() {
        assertEquals("0.30000000000000004", g(0.1 + 0.2));
        assertEquals("0.1", g(0.1));
        assertEquals("-1.5", g(-1.5));
        assertEquals("100", g(100));
        assertEquals("0", g(0));
        assertEquals("-0", g(-0.0));
    }

    @Test
    void doublesSwitchToExponentFormWhereMysqlDoes() {
        assertEquals("100000000000000", g(1e14));
        assertEquals("999999999999999", g(999999999999999d));
        assertEquals("1e15", g(1e15));
        assertEquals("1.2345678901234568e17", g(123456789012345678d));
        assertEquals("1234567890123456.8", g(1234567890123456.8));
        assertEquals("0.0001", g(1e-4));
        assertEquals("0.000000000000001", g(1e-15));
        assertEquals("1e-16", g(1e-16));
        assertEquals("-1.5e-20", g(-1.5e-20));
        assertEquals("1.7976931348623157e308", g(Double.MAX_VALUE));
    }

    @Test
    void doublesWithFixedDecimalsPrintExactlyThatManyDecimals() {
        assertEquals("0.30", NumberText.formatDouble(0.1 + 0.2, 2, false));
        assertEquals("-2.500", NumberText.formatDouble(-2.5, 3, false));
    }

    @Test
    void floatsPrintAtMostSixSignificantDigits() {
        assertEquals("0.1", NumberText.formatDouble(0.1f, 31, true));
        assertEquals("3.14159", NumberText.formatDouble(3.14159265f, 31, true));
    }

    @Test
    void decimalsKeepTheirScale() {
        assertEquals("-5.0000", new String(NumberText.decimal(new BigDecimal("-5"), 4), StandardCharsets.US_ASCII));
        assertEquals("12", new String(NumberText.decimal(new BigDecimal("12"), 0), StandardCharsets.US_ASCII));
    }

    @Test
    void stringsInNumericContextUseTheirNumericPrefix() {
        assertEquals(12.5, NumberText.leadingDouble("12.5abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0, NumberText.leadingDouble("abc".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(-3e2, NumberText.leadingDouble("  -3e2x".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(1, NumberText.leadingDouble("1e".getBytes(StandardCharsets.US_ASCII)));
    }
}
