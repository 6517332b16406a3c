package io.shardwise.core.rule;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;

/** Reads sharding-key values the way MySQL would compare them with a column of the target type. */
final class Keys {
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .optionalStart().append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
            .toFormatter();

    private Keys() {}

    /** An exact number: Long when it fits, else BigDecimal; null if the value is not a number. */
    static BigDecimal decimal(Object key) {
        return switch (key) {
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case Short s -> BigDecimal.valueOf(s);
            case Byte b -> BigDecimal.valueOf(b);
            case BigInteger b -> new BigDecimal(b);
            case BigDecimal d -> d;
            case Double d when Double.isFinite(d) -> BigDecimal.valueOf(d);
            case Float f when Float.isFinite(f) -> BigDecimal.valueOf(f);
            case String s -> {
                try {
                    yield new BigDecimal(s.trim());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + s + "' is not a number");
                }
            }
            default -> throw new IllegalArgumentException(key.getClass().getSimpleName() + " " + key + " is not a number");
        };
    }

    static LocalDateTime dateTime(Object key) {
        return switch (key) {
            case LocalDateTime t -> t;
            case LocalDate d -> d.atStartOfDay();
            case java.sql.Timestamp t -> t.toLocalDateTime();
            case java.sql.Date d -> d.toLocalDate().atStartOfDay();
            case String s -> {
                try {
                    yield LocalDateTime.parse(s.trim(), DATE_TIME);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("'" + s + "' is not a date or datetime (YYYY-MM-DD[ HH:MM:SS])");
                }
            }
            default -> throw new IllegalArgumentException(key.getClass().getSimpleName() + " " + key + " is not a date");
        };
    }

}
