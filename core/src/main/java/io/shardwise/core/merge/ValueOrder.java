package io.shardwise.core.merge;

import io.shardwise.core.execute.Column;
import java.nio.charset.StandardCharsets;

/**
 * How MySQL orders two non-null text-protocol values of one column type. Comparing the text itself
 * (no parsing into objects) keeps the k-way merge allocation-free: integers and decimals of any size,
 * unsigned BIGINT included, compare digit by digit; DATE/DATETIME/TIMESTAMP text is fixed-width and
 * already in time order; TIME may be negative and over 24 hours, so it is parsed to microseconds.
 *
 * <p>Hazard: strings compare by bytes here. Collation order comes only from a WEIGHT_STRING column,
 * which callers pass instead of the value itself. ENUM and SET values arrive as strings and order by
 * their text, not by their index as MySQL does.
 */
enum ValueOrder {
    /** Integers, DECIMAL and YEAR: plain decimal text, optional leading '-'. */
    NUMBER {
        @Override
        int compare(byte[] a, byte[] b) {
            return compareDecimalText(a, b);
        }
    },
    /** FLOAT and DOUBLE: MySQL prints them in %g-like form, possibly with an exponent. */
    FLOATING {
        @Override
        int compare(byte[] a, byte[] b) {
            return Double.compare(parseDouble(a), parseDouble(b));
        }
    },
    /** DATE, DATETIME, TIMESTAMP: fixed-width text; zero dates sort first, as in MySQL. */
    DATETIME {
        @Override
        int compare(byte[] a, byte[] b) {
            int n = Math.min(a.length, b.length);
            int c = java.util.Arrays.compareUnsigned(a, 0, n, b, 0, n);
            if (c != 0) {
                return c;
            }
            // '...05' and '...05.000' are the same instant: a longer tail of zeros adds nothing.
            return Integer.compare(nonZeroTail(a, n), nonZeroTail(b, n));
        }
    },
    TIME {
        @Override
        int compare(byte[] a, byte[] b) {
            return Long.compare(timeMicros(a), timeMicros(b));
        }
    },
    /** BIT: raw big-endian bytes, an unsigned number. */
    BITS {
        @Override
        int compare(byte[] a, byte[] b) {
            int n = Math.max(a.length, b.length);
            for (int i = 0; i < n; i++) {
                int x = i < n - a.length ? 0 : a[i - (n - a.length)] & 0xff;
                int y = i < n - b.length ? 0 : b[i - (n - b.length)] & 0xff;
                if (x != y) {
                    return Integer.compare(x, y);
                }
            }
            return 0;
        }
    },
    /** Binary strings, WEIGHT_STRING values, and anything without a better rule. */
    BYTES {
        @Override
        int compare(byte[] a, byte[] b) {
            return java.util.Arrays.compareUnsigned(a, b);
        }
    };

    abstract int compare(byte[] a, byte[] b);

    static ValueOrder of(Column column) {
        return switch (column.mysqlType()) {
            case 1, 2, 3, 8, 9, 13, 0, 246 -> NUMBER; // 0: old DECIMAL
            case 4, 5 -> FLOATING;
            case 7, 10, 12, 14 -> DATETIME; // 14: NEWDATE
            case 11 -> TIME;
            case 16 -> BITS;
            default -> BYTES;
        };
    }

    static boolean isExactNumber(Column column) {
        return of(column) == NUMBER;
    }

    static boolean isFloating(Column column) {
        return column.mysqlType() == 4 || column.mysqlType() == 5;
    }

    static double parseDouble(byte[] text) {
        return Double.parseDouble(new String(text, StandardCharsets.ISO_8859_1));
    }

    /** Compares two decimal numerals ("-12.50", "007", "18446744073709551615") by value. */
    static int compareDecimalText(byte[] a, byte[] b) {
        boolean negA = a.length > 0 && a[0] == '-';
        boolean negB = b.length > 0 && b[0] == '-';
        int magnitude = compareMagnitude(a, negA ? 1 : 0, b, negB ? 1 : 0);
        if (negA != negB) {
            // -0.00 and 0.00 are equal; otherwise any negative is smaller
            if (magnitude == 0 && isZero(a, negA ? 1 : 0)) {
                return 0;
            }
            return negA ? -1 : 1;
        }
        return negA ? -magnitude : magnitude;
    }

    private static int compareMagnitude(byte[] a, int ia, byte[] b, int ib) {
        // skip leading zeros of the integer part
        while (ia < a.length - 1 && a[ia] == '0' && a[ia + 1] != '.') {
            ia++;
        }
        while (ib < b.length - 1 && b[ib] == '0' && b[ib + 1] != '.') {
            ib++;
        }
        int intA = integerDigits(a, ia);
        int intB = integerDigits(b, ib);
        if (intA != intB) {
            return intA < intB ? -1 : 1;
        }
        for (int k = 0; k < intA; k++) {
            if (a[ia + k] != b[ib + k]) {
                return a[ia + k] < b[ib + k] ? -1 : 1;
            }
        }
        int fa = ia + intA + 1; // first fraction digit (past the '.')
        int fb = ib + intB + 1;
        int fracA = Math.max(0, a.length - fa);
        int fracB = Math.max(0, b.length - fb);
        for (int k = 0, n = Math.max(fracA, fracB); k < n; k++) {
            int x = k < fracA ? a[fa + k] : '0';
            int y = k < fracB ? b[fb + k] : '0';
            if (x != y) {
                return x < y ? -1 : 1;
            }
        }
        return 0;
    }

    private static int integerDigits(byte[] s, int from) {
        int i = from;
        while (i < s.length && s[i] != '.') {
            i++;
        }
        return i - from;
    }

    private static boolean isZero(byte[] s, int from) {
        for (int i = from; i < s.length; i++) {
            if (s[i] != '0' && s[i] != '.') {
                return false;
            }
        }
        return true;
    }

    private static int nonZeroTail(byte[] s, int from) {
        for (int i = from; i < s.length; i++) {
            if (s[i] != '0' && s[i] != '.') {
                return 1;
            }
        }
        return 0;
    }

    /** "-838:59:59", "12:00:00.5", "100:00:00" as signed microseconds. */
    static long timeMicros(byte[] t) {
        int i = 0;
        boolean negative = t.length > 0 && t[0] == '-';
        if (negative) {
            i++;
        }
        long hours = 0;
        long minutes = 0;
        long seconds = 0;
        int part = 0;
        long fraction = 0;
        int fractionDigits = 0;
        boolean inFraction = false;
        for (; i < t.length; i++) {
            byte c = t[i];
            if (c == ':' && part < 2) {
                part++;
            } else if (c == '.') {
                inFraction = true;
            } else if (c >= '0' && c <= '9') {
                if (inFraction) {
                    if (fractionDigits < 6) {
                        fraction = fraction * 10 + (c - '0');
                        fractionDigits++;
                    }
                } else {
                    switch (part) {
                        case 0 -> hours = hours * 10 + (c - '0');
                        case 1 -> minutes = minutes * 10 + (c - '0');
                        default -> seconds = seconds * 10 + (c - '0');
                    }
                }
            }
        }
        for (; fractionDigits < 6; fractionDigits++) {
            fraction *= 10;
        }
        long micros = ((hours * 60 + minutes) * 60 + seconds) * 1_000_000 + fraction;
        return negative ? -micros : micros;
    }
}
