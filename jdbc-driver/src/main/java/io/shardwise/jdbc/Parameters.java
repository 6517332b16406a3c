package io.shardwise.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Calendar;

/**
 * Converts what the PreparedStatement setters receive into the engine's parameter types (null,
 * Long, BigInteger, BigDecimal, Double, Float, String, byte[], Boolean, LocalDate, LocalDateTime,
 * LocalTime). Wall-clock values of java.sql types are read in the JVM's zone (or the given
 * Calendar's), as Connector/J does with its default {@code connectionTimeZone=LOCAL}; zoned
 * java.time values are moved to the JVM's zone first.
 */
final class Parameters {
    private Parameters() {}

    static Object ofObject(Object x) throws SQLException {
        return switch (x) {
            case null -> null;
            case String s -> s;
            case Long l -> l;
            case Integer i -> (long) i;
            case Short s -> (long) s;
            case Byte b -> (long) b;
            case BigInteger b -> b;
            case BigDecimal b -> b;
            case Double d -> d;
            case Float f -> f;
            case Boolean b -> b;
            case byte[] b -> b;
            case LocalDate d -> d;
            case LocalDateTime d -> d;
            case LocalTime t -> t;
            case java.sql.Date d -> ofDate(d, null);
            case java.sql.Time t -> ofTime(t, null);
            case java.sql.Timestamp t -> t.toLocalDateTime();
            case java.util.Date d -> LocalDateTime.ofInstant(d.toInstant(), ZoneId.systemDefault());
            case OffsetDateTime o -> o.atZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
            case ZonedDateTime z -> z.withZoneSameInstant(ZoneId.systemDefault()).toLocalDateTime();
            case Instant i -> LocalDateTime.ofInstant(i, ZoneId.systemDefault());
            case OffsetTime o -> o.toLocalTime();
            case Character c -> c.toString();
            case Calendar c -> LocalDateTime.ofInstant(c.toInstant(), c.getTimeZone().toZoneId());
            case Blob b -> b.getBytes(1, (int) b.length());
            case Clob c -> c.getSubString(1, (int) c.length());
            case Number n -> new BigDecimal(n.toString());
            default -> throw SqlErrors.unsupported("a parameter of type " + x.getClass().getName());
        };
    }

    /**
     * A real as Connector/J's client-side prepare sends it, which this driver stands in for: the
     * literal {@code Double.toString} writes, so 1.5 reaches MySQL as the DECIMAL 1.5 and 1.0E20 as a
     * DOUBLE; the engine takes a Double for a DOUBLE (what a binary-protocol DOUBLE parameter is), so
     * a real without an exponent goes to it as that BigDecimal. Any other value as it is.
     */
    static Object asClientSidePrepared(Object v) {
        String text = switch (v) {
            case Double d -> Double.toString(d);
            case Float f -> Float.toString(f);
            case null, default -> null;
        };
        if (text == null || !Character.isDigit(text.charAt(text.length() - 1))) {
            return v; // not a real, or NaN/Infinity (refused downstream as ever)
        }
        return text.indexOf('E') >= 0 ? (Object) Double.valueOf(text) : new BigDecimal(text);
    }

    /** {@code setObject(index, x, targetSqlType, scale)}: x converted to what that SQL type holds. */
    static Object ofObject(Object x, int targetSqlType, int scale) throws SQLException {
        if (x == null) {
            return null;
        }
        Object v = ofObject(x);
        try {
            return switch (targetSqlType) {
                case Types.BIT, Types.BOOLEAN -> toBoolean(v);
                case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT -> toWhole(v);
                case Types.DECIMAL, Types.NUMERIC -> {
                    BigDecimal d = toDecimal(v);
                    yield scale >= 0 && scale != d.scale() && targetSqlType == Types.DECIMAL ? d.setScale(scale, RoundingMode.HALF_UP) : d;
                }
                case Types.REAL, Types.FLOAT, Types.DOUBLE -> toDecimal(v).doubleValue();
                case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR, Types.NCHAR, Types.NVARCHAR, Types.LONGNVARCHAR, Types.CLOB,
                     Types.NCLOB -> v instanceof byte[] b ? new String(b, java.nio.charset.StandardCharsets.UTF_8) : v.toString();
                case Types.DATE -> v instanceof LocalDateTime t ? t.toLocalDate() : v instanceof String s ? LocalDate.parse(s.strip()) : v;
                case Types.TIME -> v instanceof LocalDateTime t ? t.toLocalTime() : v instanceof String s ? LocalTime.parse(s.strip()) : v;
                case Types.TIMESTAMP -> v instanceof LocalDate d ? d.atStartOfDay()
                        : v instanceof String s ? java.sql.Timestamp.valueOf(s.strip()).toLocalDateTime() : v;
                case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> v instanceof String s
                        ? s.getBytes(java.nio.charset.StandardCharsets.UTF_8) : v;
                default -> v;
            };
        } catch (RuntimeException e) {
            throw new SQLException("Cannot convert " + x.getClass().getName() + " '" + x + "' to SQL type " + targetSqlType, "S1009", e);
        }
    }

    private static Boolean toBoolean(Object v) {
        return switch (v) {
            case Boolean b -> b;
            case String s -> s.equalsIgnoreCase("true") || s.equalsIgnoreCase("y") || (!s.equalsIgnoreCase("false")
                    && !s.equalsIgnoreCase("n") && new BigDecimal(s.strip()).signum() != 0);
            default -> toDecimal(v).signum() != 0;
        };
    }

    private static Object toWhole(Object v) {
        BigDecimal d = toDecimal(v);
        BigInteger i = d.toBigInteger();
        return i.bitLength() < 64 ? (Object) i.longValueExact() : i;
    }

    private static BigDecimal toDecimal(Object v) {
        return switch (v) {
            case BigDecimal d -> d;
            case Long l -> BigDecimal.valueOf(l);
            case BigInteger i -> new BigDecimal(i);
            case Double d -> BigDecimal.valueOf(d);
            case Float f -> new BigDecimal(f.toString());
            case Boolean b -> b ? BigDecimal.ONE : BigDecimal.ZERO;
            case String s -> new BigDecimal(s.strip());
            default -> throw new IllegalArgumentException("not a number: " + v);
        };
    }

    static LocalDate ofDate(java.sql.Date d, Calendar cal) {
        if (cal == null) {
            return d.toLocalDate();
        }
        return Instant.ofEpochMilli(d.getTime()).atZone(cal.getTimeZone().toZoneId()).toLocalDate();
    }

    /** Keeps the milliseconds, which {@link java.sql.Time#toLocalTime()} drops. */
    static LocalTime ofTime(java.sql.Time t, Calendar cal) {
        ZoneId zone = cal == null ? ZoneId.systemDefault() : cal.getTimeZone().toZoneId();
        return Instant.ofEpochMilli(t.getTime()).atZone(zone).toLocalTime();
    }

    static LocalDateTime ofTimestamp(java.sql.Timestamp t, Calendar cal) {
        if (cal == null) {
            return t.toLocalDateTime();
        }
        return LocalDateTime.ofInstant(t.toInstant(), cal.getTimeZone().toZoneId());
    }

    static byte[] readBytes(InputStream in, long length) throws SQLException {
        if (in == null) {
            return null;
        }
        try {
            return length < 0 ? in.readAllBytes() : in.readNBytes((int) Math.min(length, Integer.MAX_VALUE));
        } catch (IOException e) {
            throw new SQLException("cannot read the stream parameter: " + e.getMessage(), "S1009", e);
        }
    }

    static String readChars(Reader reader, long length) throws SQLException {
        if (reader == null) {
            return null;
        }
        try {
            StringBuilder sb = new StringBuilder();
            char[] buf = new char[8192];
            long left = length < 0 ? Long.MAX_VALUE : length;
            int n;
            while (left > 0 && (n = reader.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
                sb.append(buf, 0, n);
                left -= n;
            }
            return sb.toString();
        } catch (IOException e) {
            throw new SQLException("cannot read the character stream parameter: " + e.getMessage(), "S1009", e);
        }
    }
}
