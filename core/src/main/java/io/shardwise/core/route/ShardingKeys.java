package io.shardwise.core.route;

import java.time.LocalTime;

/**
 * The value the sharding algorithms receive for a key's value, one per MariaDB value whichever way it came: the
 * statement's text, a JDBC face parameter, a binary COM_STMT_EXECUTE parameter. Every value reaching an algorithm
 * passes here ({@link NodeSelector}, {@link InsertRouter}), so a row inserted one way is found the other way.
 * Invariant: a value whose MySQL text is {@code T} routes as the string {@code T} does, except LocalDate and
 * LocalDateTime, which the algorithms read themselves and whose canonical text agrees with it (HashAlgorithm).
 * Temporals java.time cannot hold (a zero date, {@code 2024-00-00}, a negative TIME or one with days), bound as binary
 * temporals, route as their text with the fraction's trailing zeros dropped, as a LocalDateTime's canonical text
 * does (HashAlgorithm); a TIME (which no algorithm reads as a time) routes as that text too, as its quoted literal
 * would.
 *
 * <p>Hazard: a string written in text is routed as written ({@code '2024-01-02 03:04:05.500000'} and
 * {@code '…05.5'} are different strings; the router knows no column types), so the canonical form here is the one
 * clients write (trailing zeros dropped), not MariaDB's printed DATETIME(6) with 6 digits. Values read back from a
 * backend's rows (an UPDATE moving a key, INSERT … SELECT) are that printed text and do not pass here.
 */
public final class ShardingKeys {
    private ShardingKeys() {}

    /** A value that routes as another one: a binary temporal kept as text for the backend (execute's TemporalText). */
    public interface Keyed {
        /** The value the sharding algorithms receive; never null. */
        Object shardingKey();
    }

    /** {@code value} as the algorithms receive it; the same object for every value but a {@link Keyed} or a LocalTime. */
    public static Object of(Object value) {
        return switch (value) {
            case Keyed k -> k.shardingKey();
            case LocalTime t -> time(t);
            case null, default -> value;
        };
    }

    /** {@code HH:MM:SS} with the fraction's significant digits, if any: {@code 03:04:05.25}. */
    static String time(LocalTime t) {
        StringBuilder out = new StringBuilder(18);
        two(out, t.getHour()).append(':');
        two(out, t.getMinute()).append(':');
        two(out, t.getSecond());
        if (t.getNano() != 0) {
            String nanos = Integer.toString(1_000_000_000 + t.getNano()); // "1" and 9 digits
            int end = nanos.length();
            while (nanos.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(nanos, 1, end);
        }
        return out.toString();
    }

    /**
     * MySQL's text of a date, datetime or time with its fraction's trailing zeros dropped (the point too when only
     * zeros follow it): {@code 2024-00-00 03:04:05.500000} is {@code 2024-00-00 03:04:05.5}.
     */
    public static String trimmedFraction(String text) {
        int point = text.lastIndexOf('.');
        if (point < 0) {
            return text;
        }
        int end = text.length();
        while (end > point + 1 && text.charAt(end - 1) == '0') {
            end--;
        }
        return text.substring(0, end == point + 1 ? point : end);
    }

    /** A TIME's text as MySQL prints it, hours of at least two digits ({@code -3:04:05} is {@code -03:04:05}), fraction trimmed. */
    public static String time(String text) {
        int start = text.startsWith("-") ? 1 : 0;
        String trimmed = trimmedFraction(text);
        return text.indexOf(':') - start == 1 ? trimmed.substring(0, start) + '0' + trimmed.substring(start) : trimmed;
    }

    private static StringBuilder two(StringBuilder out, int value) {
        return out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
