package io.shardwise.core.merge;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * MySQL's DECIMAL division (strings/decimal.c {@code do_div}): each operand's scale rounded up to
 * whole 9-digit words, plus div_precision_increment less what that rounding already added, rounded
 * up to whole words again, and the quotient truncated there. An enclosing expression computes with
 * these digits ({@code AVG(x) * 3} of 1, 1, 2 is 3.999999999, shown as 4.0000); only showing or
 * comparing the value rounds it.
 */
final class DecimalDivision {
    private static final int DIG_PER_DEC1 = 9;

    private DecimalDivision() {}

    /** {@code a / b} ({@code b} not 0) as MySQL's decimal division leaves it, before any rounding. */
    static BigDecimal quotient(BigDecimal a, BigDecimal b) {
        int f1 = Math.max(a.scale(), 0);
        int f2 = Math.max(b.scale(), 0);
        int w1 = wholeWords(f1);
        int w2 = wholeWords(f2);
        int increment = Math.max(0, Accumulator.DIV_PRECISION_INCREMENT - (w1 - f1) - (w2 - f2));
        return a.divide(b, wholeWords(w1 + w2 + increment), RoundingMode.DOWN);
    }

    /** Digits rounded up to whole 9-digit words (MySQL's {@code ROUND_UP(x) * DIG_PER_DEC1}). */
    private static int wholeWords(int digits) {
        return (digits + DIG_PER_DEC1 - 1) / DIG_PER_DEC1 * DIG_PER_DEC1;
    }
}
