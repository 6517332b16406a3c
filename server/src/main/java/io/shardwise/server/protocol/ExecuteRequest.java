package io.shardwise.server.protocol;

import io.netty.buffer.ByteBuf;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;

/**
 * The body of a COM_STMT_EXECUTE (after the statement id) decoded into parameter values: null,
 * Long, BigInteger (unsigned BIGINT above Long.MAX_VALUE), Float, Double, BigDecimal, String,
 * byte[] (blob types), LocalDate, LocalDateTime, LocalTime, or String for the dates and times
 * java.time cannot hold (zero dates, TIME beyond 24 hours or negative).
 *
 * @param types each parameter's type code with its flag byte shifted in at bit 8 (so
 *              {@code types[i] >> 8 & 0x80} is the unsigned bit); the ones this packet bound, or
 *              the ones passed in when it bound none (clients send types only when they change);
 *              all NULL when none were ever bound and every value is NULL
 */
public record ExecuteRequest(int flags, int[] types, List<Object> values) {
    /** The flags bit asking for a read-only cursor (the other cursor types MySQL ignores as well). */
    public static final int CURSOR_TYPE_READ_ONLY = 0x01;

    public ExecuteRequest {
        values = Collections.unmodifiableList(Arrays.asList(values.toArray())); // values may be null: no List.copyOf
    }

    /** Whether the client asked for a cursor: rows then come with COM_STMT_FETCH, not with the execute's reply. */
    public boolean opensCursor() {
        return (flags & CURSOR_TYPE_READ_ONLY) != 0;
    }

    /**
     * @param boundTypes the types bound by an earlier execute, or null if none was
     * @param longData per parameter, the bytes COM_STMT_SEND_LONG_DATA collected (their value is
     *                 then absent from the packet), or null
     * @throws MalformedPacketException when the body is short, or no types were ever bound
     */
    public static ExecuteRequest decode(ByteBuf in, int parameterCount, int[] boundTypes, byte[][] longData) {
        return decode(in, parameterCount, boundTypes, longData, bytes -> new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * @param text the value of a parameter sent as text (VARCHAR, STRING ...), which is bytes in the
     *             client's character set: the session decodes it (a String, or the bytes themselves
     *             when they are no text in that character set)
     */
    public static ExecuteRequest decode(ByteBuf in, int parameterCount, int[] boundTypes, byte[][] longData,
                                        Function<byte[], Object> text) {
        Wire.need(in, 5);
        int flags = in.readUnsignedByte();
        in.skipBytes(4); // iteration count: always 1
        if (parameterCount == 0) {
            return new ExecuteRequest(flags, new int[0], List.of());
        }
        int bitmapLength = (parameterCount + 7) / 8;
        Wire.need(in, bitmapLength + 1);
        int bitmapStart = in.readerIndex();
        in.skipBytes(bitmapLength);
        int[] types;
        boolean unbound = false;
        if (in.readUnsignedByte() == 1) {
            Wire.need(in, 2 * parameterCount);
            types = new int[parameterCount];
            for (int i = 0; i < parameterCount; i++) {
                types[i] = in.readUnsignedShortLE(); // type byte, then flag byte
            }
        } else if (boundTypes != null && boundTypes.length == parameterCount) {
            types = boundTypes;
        } else {
            // Connector/J binds no types when every value is NULL (the bitmap says it all)
            unbound = true;
            types = new int[parameterCount];
            Arrays.fill(types, BinaryType.NULL);
        }
        Object[] values = new Object[parameterCount];
        for (int i = 0; i < parameterCount; i++) {
            if (longData != null && longData[i] != null) {
                values[i] = fromBytes(types[i] & 0xFF, longData[i], text);
            } else if ((in.getByte(bitmapStart + i / 8) & 1 << (i % 8)) == 0) {
                if (unbound) {
                    throw new MalformedPacketException("parameter " + i + " has a value but no type was ever bound");
                }
                values[i] = value(in, types[i], text);
            }
        }
        return new ExecuteRequest(flags, types, Arrays.asList(values));
    }

    private static Object value(ByteBuf in, int typeAndFlags, Function<byte[], Object> text) {
        int type = typeAndFlags & 0xFF;
        boolean unsigned = (typeAndFlags >> 8 & BinaryType.UNSIGNED_PARAMETER) != 0;
        return switch (type) {
            case BinaryType.NULL -> null;
            case BinaryType.TINY -> {
                Wire.need(in, 1);
                yield (long) (unsigned ? in.readUnsignedByte() : in.readByte());
            }
            case BinaryType.SHORT, BinaryType.YEAR -> {
                Wire.need(in, 2);
                yield (long) (unsigned ? in.readUnsignedShortLE() : in.readShortLE());
            }
            case BinaryType.LONG, BinaryType.INT24 -> {
                Wire.need(in, 4);
                yield unsigned ? in.readUnsignedIntLE() : (long) in.readIntLE();
            }
            case BinaryType.LONGLONG -> {
                Wire.need(in, 8);
                long v = in.readLongLE();
                yield unsigned && v < 0 ? new BigInteger(Long.toUnsignedString(v)) : (Object) v;
            }
            case BinaryType.FLOAT -> {
                Wire.need(in, 4);
                yield in.readFloatLE();
            }
            case BinaryType.DOUBLE -> {
                Wire.need(in, 8);
                yield in.readDoubleLE();
            }
            case BinaryType.DATE, BinaryType.DATETIME, BinaryType.TIMESTAMP -> dateTime(in, type == BinaryType.DATE);
            case BinaryType.TIME -> time(in);
            default -> fromBytes(type, Wire.readLenencBytes(in), text);
        };
    }

    /** A value sent as bytes: a blob stays bytes, a decimal becomes a number, the rest is text. */
    private static Object fromBytes(int type, byte[] bytes, Function<byte[], Object> text) {
        return switch (type) {
            case BinaryType.TINY_BLOB, BinaryType.MEDIUM_BLOB, BinaryType.LONG_BLOB, BinaryType.BLOB, BinaryType.GEOMETRY -> bytes;
            case BinaryType.DECIMAL, BinaryType.NEWDECIMAL -> {
                String number = new String(bytes, StandardCharsets.US_ASCII);
                try {
                    yield new BigDecimal(number);
                } catch (NumberFormatException e) {
                    throw new MalformedPacketException("a DECIMAL parameter that is no number: '" + number + "'");
                }
            }
            default -> text.apply(bytes);
        };
    }

    private static Object dateTime(ByteBuf in, boolean dateOnly) {
        Wire.need(in, 1);
        int length = in.readUnsignedByte();
        if (length != 0 && length != 4 && length != 7 && length != 11) {
            throw new MalformedPacketException("a date of " + length + " bytes");
        }
        Wire.need(in, length);
        int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, micros = 0;
        if (length >= 4) {
            year = in.readUnsignedShortLE();
            month = in.readUnsignedByte();
            day = in.readUnsignedByte();
        }
        if (length >= 7) {
            hour = in.readUnsignedByte();
            minute = in.readUnsignedByte();
            second = in.readUnsignedByte();
        }
        if (length == 11) {
            micros = in.readIntLE();
        }
        try {
            return dateOnly ? LocalDate.of(year, month, day) : LocalDateTime.of(year, month, day, hour, minute, second, micros * 1000);
        } catch (DateTimeException e) { // zero dates and zero parts: MySQL takes them as text
            String date = String.format("%04d-%02d-%02d", year, month, day);
            return dateOnly ? date : date + String.format(" %02d:%02d:%02d", hour, minute, second)
                    + (micros == 0 ? "" : String.format(".%06d", micros));
        }
    }

    private static Object time(ByteBuf in) {
        Wire.need(in, 1);
        int length = in.readUnsignedByte();
        if (length != 0 && length != 8 && length != 12) {
            throw new MalformedPacketException("a time of " + length + " bytes");
        }
        if (length == 0) {
            return LocalTime.MIDNIGHT;
        }
        Wire.need(in, length);
        boolean negative = in.readByte() != 0;
        long days = in.readUnsignedIntLE();
        int hour = in.readUnsignedByte();
        int minute = in.readUnsignedByte();
        int second = in.readUnsignedByte();
        int micros = length == 12 ? in.readIntLE() : 0;
        if (!negative && days == 0 && hour < 24 && minute < 60 && second < 60 && micros >= 0 && micros < 1_000_000) {
            return LocalTime.of(hour, minute, second, micros * 1000);
        }
        return (negative ? "-" : "") + (days * 24 + hour) + String.format(":%02d:%02d", minute, second)
                + (micros == 0 ? "" : String.format(".%06d", micros));
    }
}
