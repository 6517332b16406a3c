package io.shardwise.jdbc;

import io.shardwise.jdbc.ColumnType.Family;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.regex.Pattern;

/**
 * Decodes MySQL text-protocol values the way Connector/J's value factories do with default
 * properties ({@code jdbcCompliantTruncation=true}, {@code emptyStringsConvertToZero=true},
 * {@code zeroDateTimeBehavior=EXCEPTION}):
 * <ul>
 *   <li>Numbers from DECIMAL or floating columns truncate toward zero into integral getters
 *   ({@code getInt} of 1.5 is 1), after a range check: out of range is SQLSTATE 22003.
 *   <li>Strings convert to numbers only when they look like one ({@code -?\d+}, or with a point or
 *   exponent, read as a double); anything else, including surrounding spaces, fails with 22018.
 *   <li>{@code getBoolean} of a number is true for {@code > 0} and for exactly {@code -1}; of a string,
 *   also {@code Y}/{@code true} and {@code N}/{@code false}.
 * </ul>
 */
final class TextValues {
    private static final Pattern INTEGRAL = Pattern.compile("-?\\d+");
    private static final Pattern FRACTIONAL = Pattern.compile("-?\\d*\\.\\d*");
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private static final LocalDate EPOCH_DAY = LocalDate.of(1970, 1, 1);

    private TextValues() {}

    /**
     * getString as Connector/J: the text as sent, except floating-point numbers, which it decodes
     * and prints again ({@code 1e300} reads {@code 1.0E300}), and YEAR, which it reads as a date
     * ({@code 2025} reads {@code 2025-01-01}).
     */
    static String string(byte[] v, ColumnType t) {
        return switch (t.family) {
            case FLOAT, DOUBLE -> Double.toString(Double.parseDouble(text(v)));
            case YEAR -> LocalDate.of(Integer.parseInt(text(v)), 1, 1).toString();
            case BIT -> new BigInteger(1, v).toString();
            default -> text(v);
        };
    }

    static String text(byte[] v) {
        return new String(v, StandardCharsets.UTF_8);
    }

    /** A number read from a value; exactly one of the fields is set. */
    private record Num(long whole, BigInteger big, BigDecimal decimal, double real, int kind) {
        static final int WHOLE = 0;
        static final int BIG = 1;
        static final int DECIMAL = 2;
        static final int REAL = 3;
    }

    private static Num number(byte[] v, ColumnType t, String target) throws SQLException {
        return switch (t.family) {
            case INTEGER, LONG, BOOLEAN, YEAR -> new Num(Long.parseLong(text(v)), null, null, 0, Num.WHOLE);
            case BIG_INTEGER -> {
                String s = text(v);
                yield s.length() < 19 ? new Num(Long.parseLong(s), null, null, 0, Num.WHOLE) : new Num(0, new BigInteger(s), null, 0, Num.BIG);
            }
            case BIT -> new Num(new BigInteger(1, v).longValue(), null, null, 0, Num.WHOLE);
            case DECIMAL -> new Num(0, null, new BigDecimal(text(v)), 0, Num.DECIMAL);
            case FLOAT, DOUBLE -> new Num(0, null, null, Double.parseDouble(text(v)), Num.REAL);
            case TEXT, BYTES -> fromString(text(v), target);
            case DATE, TIME, DATETIME, TIMESTAMP -> throw unsupported(t, target);
        };
    }

    /** Connector/J's {@code AbstractNumericValueFactory.createFromBytes}. */
    private static Num fromString(String s, String target) throws SQLException {
        if (s.isEmpty()) {
            return new Num(0, null, null, 0, Num.WHOLE); // emptyStringsConvertToZero
        }
        if (s.contains("e") || s.contains("E") || FRACTIONAL.matcher(s).matches()) {
            try {
                return new Num(0, null, null, Double.parseDouble(s), Num.REAL);
            } catch (NumberFormatException e) {
                throw cannotInterpret(s);
            }
        }
        if (INTEGRAL.matcher(s).matches()) {
            BigInteger b = new BigInteger(s);
            return b.bitLength() < 64 ? new Num(b.longValue(), null, null, 0, Num.WHOLE) : new Num(0, b, null, 0, Num.BIG);
        }
        throw cannotInterpret(s);
    }

    private static SQLException cannotInterpret(String s) {
        return new SQLDataException("Cannot determine value type from string '" + s + "'", "22018");
    }

    static SQLException unsupported(ColumnType t, String target) {
        return new SQLDataException("Unsupported conversion from " + t.typeName + " to " + target, "22018");
    }

    private static SQLException outOfRange(byte[] v, String target) {
        return new SQLDataException("Value '" + text(v) + "' is outside of valid range for type " + target, "22003");
    }

    /** An integral value within [min, max], truncating fractions toward zero. */
    static long whole(byte[] v, ColumnType t, long min, long max, String target) throws SQLException {
        Num n;
        try {
            n = number(v, t, target);
        } catch (NumberFormatException e) {
            throw cannotInterpret(text(v));
        }
        long out;
        switch (n.kind()) {
            case Num.WHOLE -> out = n.whole();
            case Num.BIG -> throw outOfRange(v, target);
            case Num.DECIMAL -> {
                BigDecimal d = n.decimal();
                if (d.compareTo(LONG_MIN) < 0 || d.compareTo(LONG_MAX) > 0) {
                    throw outOfRange(v, target);
                }
                out = d.longValue();
                if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
                    throw outOfRange(v, target);
                }
            }
            default -> {
                double d = n.real();
                if (d < min || d > max) {
                    throw outOfRange(v, target);
                }
                out = (long) d;
            }
        }
        if (out < min || out > max) {
            throw outOfRange(v, target);
        }
        return out;
    }

    static double real(byte[] v, ColumnType t, String target) throws SQLException {
        Num n;
        try {
            n = number(v, t, target);
        } catch (NumberFormatException e) {
            throw cannotInterpret(text(v));
        }
        return switch (n.kind()) {
            case Num.WHOLE -> n.whole();
            case Num.BIG -> n.big().doubleValue();
            case Num.DECIMAL -> n.decimal().doubleValue();
            default -> n.real();
        };
    }

    static float single(byte[] v, ColumnType t) throws SQLException {
        double d = real(v, t, "java.lang.Float");
        if (d < -Float.MAX_VALUE || d > Float.MAX_VALUE) {
            throw outOfRange(v, "java.lang.Float");
        }
        return (float) d;
    }

    static BigDecimal decimal(byte[] v, ColumnType t) throws SQLException {
        if (t.family == Family.DECIMAL) {
            return new BigDecimal(text(v));
        }
        Num n;
        try {
            n = number(v, t, "java.math.BigDecimal");
        } catch (NumberFormatException e) {
            throw cannotInterpret(text(v));
        }
        return switch (n.kind()) {
            case Num.WHOLE -> BigDecimal.valueOf(n.whole());
            case Num.BIG -> new BigDecimal(n.big());
            case Num.DECIMAL -> n.decimal();
            default -> BigDecimal.valueOf(n.real());
        };
    }

    /** Connector/J converts only integer columns to BigInteger. */
    static BigInteger bigInteger(byte[] v, ColumnType t) throws SQLException {
        switch (t.family) {
            case BIG_INTEGER -> {
                return new BigInteger(text(v));
            }
            case TEXT, BYTES -> {
                String s = text(v);
                if (INTEGRAL.matcher(s).matches()) {
                    return new BigInteger(s);
                }
                throw new SQLException("Conversion not supported for type java.math.BigInteger", "S1009");
            }
            case INTEGER, LONG, BOOLEAN, BIT -> { }
            default -> throw new SQLException("Conversion not supported for type java.math.BigInteger", "S1009");
        }
        Num n;
        try {
            n = number(v, t, "java.math.BigInteger");
        } catch (NumberFormatException e) {
            throw cannotInterpret(text(v));
        }
        return switch (n.kind()) {
            case Num.WHOLE -> BigInteger.valueOf(n.whole());
            case Num.BIG -> n.big();
            case Num.DECIMAL -> n.decimal().toBigInteger();
            default -> BigDecimal.valueOf(n.real()).toBigInteger();
        };
    }

    static boolean bool(byte[] v, ColumnType t) throws SQLException {
        if (t.family == Family.TEXT || t.family == Family.BYTES) {
            String s = text(v);
            if (s.equalsIgnoreCase("Y") || s.equalsIgnoreCase("true")) {
                return true;
            }
            if (s.equalsIgnoreCase("N") || s.equalsIgnoreCase("false")) {
                return false;
            }
        }
        Num n;
        try {
            n = number(v, t, "java.lang.Boolean");
        } catch (NumberFormatException e) {
            throw cannotInterpret(text(v));
        }
        return switch (n.kind()) {
            case Num.WHOLE -> n.whole() == -1 || n.whole() > 0;
            case Num.BIG -> n.big().signum() > 0;
            case Num.DECIMAL -> n.decimal().signum() > 0 || n.decimal().compareTo(BigDecimal.ONE.negate()) == 0;
            default -> n.real() > 0 || n.real() == -1.0d;
        };
    }

    // --- temporal values

    private static SQLException zeroDate() {
        return new SQLException("Zero date value prohibited", "S1009");
    }

    private static SQLException badTemporal(String s, String target) {
        return new SQLDataException("Cannot convert string '" + s + "' to " + target + " value", "22018");
    }

    static LocalDate date(byte[] v, ColumnType t) throws SQLException {
        return switch (t.family) {
            case DATE -> parseDate(text(v), "java.sql.Date");
            case DATETIME, TIMESTAMP -> parseDateTime(text(v), "java.sql.Date").toLocalDate();
            case YEAR -> LocalDate.of(Integer.parseInt(text(v)), 1, 1);
            case TIME -> EPOCH_DAY; // Connector/J puts a TIME on 1970-01-01
            case TEXT, BYTES -> parseAnyDateTime(text(v), "java.sql.Date").toLocalDate();
            default -> throw unsupported(t, "java.sql.Date");
        };
    }

    static LocalDateTime dateTime(byte[] v, ColumnType t) throws SQLException {
        return switch (t.family) {
            case DATE -> parseDate(text(v), "java.sql.Timestamp").atStartOfDay();
            case DATETIME, TIMESTAMP -> parseDateTime(text(v), "java.sql.Timestamp");
            case YEAR -> LocalDate.of(Integer.parseInt(text(v)), 1, 1).atStartOfDay();
            case TIME -> EPOCH_DAY.atTime(parseTime(text(v), "java.sql.Timestamp"));
            case TEXT, BYTES -> parseAnyDateTime(text(v), "java.sql.Timestamp");
            default -> throw unsupported(t, "java.sql.Timestamp");
        };
    }

    static LocalTime time(byte[] v, ColumnType t) throws SQLException {
        return switch (t.family) {
            case TIME -> parseTime(text(v), "java.sql.Time");
            case DATETIME, TIMESTAMP -> parseDateTime(text(v), "java.sql.Time").toLocalTime();
            case DATE -> {
                parseDate(text(v), "java.sql.Time");
                yield LocalTime.MIDNIGHT; // Connector/J: a DATE's time of day is midnight
            }
            case YEAR -> LocalTime.MIDNIGHT;
            case TEXT, BYTES -> {
                String s = text(v).strip();
                yield s.length() > 10 && s.charAt(4) == '-' ? parseDateTime(s, "java.sql.Time").toLocalTime() : parseTime(s, "java.sql.Time");
            }
            default -> throw unsupported(t, "java.sql.Time");
        };
    }

    private static LocalDateTime parseAnyDateTime(String s, String target) throws SQLException {
        String x = s.strip();
        if (x.length() == 10) {
            return parseDate(x, target).atStartOfDay();
        }
        return parseDateTime(x, target);
    }

    static LocalDate parseDate(String s, String target) throws SQLException {
        if (s.startsWith("0000-00-00")) {
            throw zeroDate();
        }
        try {
            return LocalDate.of(Integer.parseInt(s, 0, 4, 10), Integer.parseInt(s, 5, 7, 10), Integer.parseInt(s, 8, 10, 10));
        } catch (RuntimeException e) {
            throw badTemporal(s, target);
        }
    }

    static LocalDateTime parseDateTime(String s, String target) throws SQLException {
        LocalDate d = parseDate(s, target);
        if (s.length() == 10) {
            return d.atStartOfDay();
        }
        if (s.length() < 19 || (s.charAt(10) != ' ' && s.charAt(10) != 'T')) {
            throw badTemporal(s, target);
        }
        return d.atTime(parseTime(s.substring(11), target));
    }

    /** {@code HH:mm:ss[.f...]}; MySQL TIME values outside a day are no wall-clock time. */
    static LocalTime parseTime(String s, String target) throws SQLException {
        try {
            int c1 = s.indexOf(':');
            int c2 = s.indexOf(':', c1 + 1);
            int hours = Integer.parseInt(s, 0, c1, 10);
            int minutes = Integer.parseInt(s, c1 + 1, c2, 10);
            int dot = s.indexOf('.', c2);
            int seconds = Integer.parseInt(s, c2 + 1, dot < 0 ? s.length() : dot, 10);
            int nanos = 0;
            if (dot >= 0) {
                String f = (s.substring(dot + 1) + "000000000").substring(0, 9);
                nanos = Integer.parseInt(f);
            }
            if (hours < 0 || hours > 23 || s.startsWith("-")) {
                throw new SQLDataException("The value '" + s + "' is an invalid TIME value. JDBC Time objects represent a wall-clock"
                        + " time and not a duration as MySQL treats them. If you are treating this type as a duration, consider"
                        + " retrieving this value as a string and dealing with it according to your requirements.", "22018");
            }
            return LocalTime.of(hours, minutes, seconds, nanos);
        } catch (RuntimeException e) {
            throw badTemporal(s, target);
        }
    }
}
