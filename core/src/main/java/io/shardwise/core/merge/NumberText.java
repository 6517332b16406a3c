package io.shardwise.core.merge;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * Numbers to and from MySQL's text protocol. Doubles print as MySQL's {@code my_gcvt} prints them
 * for a column without fixed decimals: the shortest digits that read back as the same double
 * ({@code 0.30000000000000004}), in plain notation while the decimal point sits between 14 places
 * left and 15 places right of the first digit, else as {@code 1.5e-7} / {@code 1e15} (no '+', no
 * zero-padded exponent). With fixed decimals (DOUBLE(M,D), 0 < D < 31) they print with exactly D
 * decimals; computed doubles arrive with decimals 0 (Connector/J over MariaDB) or 31/39, all meaning
 * "not fixed".
 */
final class NumberText {
    /** Column.decimals at or above this means "not fixed" (MySQL 31, MariaDB 39). */
    static final int NOT_FIXED_DECIMALS = 31;
    private static final int MAX_DECPT_FOR_F_FORMAT = 15; // DBL_DIG in MySQL's strings/dtoa.cc
    private static final int FLT_DIG = 6;

    private NumberText() {}

    static BigDecimal exact(byte[] text) {
        return new BigDecimal(new String(text, StandardCharsets.ISO_8859_1));
    }

    static long longValue(byte[] text) {
        return Long.parseLong(new String(text, StandardCharsets.ISO_8859_1));
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    /** A DECIMAL of the given scale, as MySQL writes it ("-5.0000", "12"). */
    static byte[] decimal(BigDecimal value, int scale) {
        return ascii(value.setScale(Math.max(0, scale), RoundingMode.HALF_UP).toPlainString());
    }

    static byte[] floating(double value, int decimals) {
        return ascii(formatDouble(value, decimals, false));
    }

    static String formatDouble(double value, int decimals, boolean isFloat) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return "0"; // my_gcvt's overflow answer
        }
        if (decimals > 0 && decimals < NOT_FIXED_DECIMALS) {
            return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        }
        boolean negative = value < 0 || (value == 0 && 1 / value < 0);
        double abs = Math.abs(value);
        if (abs == 0) {
            return negative ? "-0" : "0";
        }
        BigDecimal digitsValue = new BigDecimal(Double.toString(abs)); // shortest round-trip digits
        if (isFloat) {
            BigDecimal six = new BigDecimal(abs).round(new MathContext(FLT_DIG, RoundingMode.HALF_EVEN));
            if (six.stripTrailingZeros().precision() < digitsValue.stripTrailingZeros().precision()) {
                digitsValue = six;
            }
        }
        digitsValue = digitsValue.stripTrailingZeros();
        String digits = digitsValue.unscaledValue().toString();
        int len = digits.length();
        int decpt = len - digitsValue.scale(); // position of the decimal point after the first digit
        StringBuilder out = new StringBuilder(len + 8);
        if (negative) {
            out.append('-');
        }
        if (decpt >= -MAX_DECPT_FOR_F_FORMAT + 1 && (decpt <= MAX_DECPT_FOR_F_FORMAT || len > decpt)) {
            if (decpt <= 0) {
                out.append("0.");
                out.repeat('0', -decpt);
                out.append(digits);
            } else if (decpt < len) {
                out.append(digits, 0, decpt).append('.').append(digits, decpt, len);
            } else {
                out.append(digits);
                out.repeat('0', decpt - len);
            }
        } else {
            out.append(digits.charAt(0));
            if (len > 1) {
                out.append('.').append(digits, 1, len);
            }
            out.append('e').append(decpt - 1);
        }
        return out.toString();
    }

    /** MySQL's string-to-number conversion in numeric context: the longest numeric prefix, else 0. */
    static double leadingDouble(byte[] text) {
        String s = new String(text, StandardCharsets.ISO_8859_1).stripLeading();
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digitsStart = i;
        while (i < n && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        if (i == digitsStart || (i == digitsStart + 1 && s.charAt(digitsStart) == '.')) {
            return 0;
        }
        int mantissaEnd = i;
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                j++;
            }
            int expStart = j;
            while (j < n && Character.isDigit(s.charAt(j))) {
                j++;
            }
            if (j > expStart) {
                mantissaEnd = j;
            }
        }
        return Double.parseDouble(s.substring(0, mantissaEnd));
    }
}
