package io.shardwise.core.execute;

import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.ShardingKeys;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;

/**
 * A parameter the client bound with a binary temporal type (MYSQL_TYPE_DATE, DATETIME, TIMESTAMP,
 * TIME), written into SQL text as a typed value the backend types as it types the bound parameter:
 * {@code CAST('…' AS DATE)}, {@code CAST('…' AS DATETIME[(6)])}, {@code CAST('…' AS TIME[(6)])} — a
 * DATE, a DATETIME with 6 decimals when the value has microseconds and none otherwise, a TIME
 * (negative, beyond a day). A quoted string would be a VARCHAR where MySQL has a temporal
 * ({@code SELECT ?}, {@code ? + 0}, {@code DATE_ADD(?, …)}, a comparison with a string column); a
 * {@code DATE'…'} literal would be the temporal but NOT NULL, which a parameter's column is not (a
 * CAST's is not either). {@code text} is the value without quotes, as MySQL prints it:
 * {@code 2024-01-02}, {@code 2024-01-02 03:04:05.500000}, {@code -838:59:59}; zero dates included,
 * which java.time cannot hold. A sharding key of this kind routes as its text ({@link #shardingKey}).
 *
 * <p>Hazard: only the server face's values are typed ({@link ExecutionSession#typeTemporalParameters});
 * the JDBC face writes java.time values as quoted strings, as Connector/J's client-side prepare does.
 * Left as MariaDB differs (checked against it by TemporalParameterServerTest): a bare {@code SELECT ?}
 * column of a TIMESTAMP parameter is a TIMESTAMP there and a DATETIME here; column lengths (a TIME
 * parameter's column is 23 long there, 10 or 17 here; a DATETIME's with microseconds 19 there, 26
 * here; {@code CONCAT(?)}'s follow); {@code DATE_ADD(?, …)}'s column has no BINARY flag there; a
 * negative TIME's number ({@code ? + 0}) loses its sign there (a MariaDB quirk the CAST does not copy).
 */
public record TemporalText(Kind kind, String text) implements ShardingKeys.Keyed {
    /** MariaDB's TIME hours: a bound TIME beyond them is clamped to 838:59:59, its fraction kept (with no warning). */
    private static final int MAX_TIME_HOURS = 838;

    public enum Kind {
        DATE, DATETIME, TIME
    }

    public TemporalText {
        java.util.Objects.requireNonNull(kind, "kind");
        java.util.Objects.requireNonNull(text, "text");
        if (kind == Kind.TIME) {
            text = clamped(text);
        }
    }

    /**
     * The SQL: digits, dashes, colons, a point and a sign inside the quotes, nothing to escape in any
     * sql_mode; 6 decimals exactly when the value has a fraction (MariaDB types the parameter so).
     */
    public String literal() {
        boolean fraction = text.indexOf('.') >= 0;
        return "CAST('" + text + "' AS " + switch (kind) {
            case DATE -> "DATE)";
            case DATETIME -> fraction ? "DATETIME(6))" : "DATETIME)";
            case TIME -> fraction ? "TIME(6))" : "TIME)";
        };
    }

    /**
     * Routes as its text (the clamped TIME MariaDB stores, hours of two digits at least, as MariaDB prints a TIME) with
     * the fraction's trailing zeros dropped: as the quoted literal of the same value routes, and as a LocalDateTime's
     * canonical text hashes (see {@link ShardingKeys}).
     */
    @Override
    public Object shardingKey() {
        return kind == Kind.TIME ? ShardingKeys.time(text) : ShardingKeys.trimmedFraction(text);
    }

    /** A java.time value as the value to write, or null for any other value. */
    static TemporalText of(Object value) {
        return switch (value) {
            case LocalDate d -> new TemporalText(Kind.DATE, date(d));
            case LocalDateTime t -> new TemporalText(Kind.DATETIME, date(t.toLocalDate()) + ' ' + time(t.toLocalTime()));
            case LocalTime t -> new TemporalText(Kind.TIME, time(t));
            case null, default -> null;
        };
    }

    /** {@code units} with their java.time parameters typed; the same list when none has one. */
    static List<ExecutionUnit> typed(List<ExecutionUnit> units) {
        List<ExecutionUnit> out = null;
        for (int u = 0; u < units.size(); u++) {
            ExecutionUnit unit = units.get(u);
            List<Object> params = null;
            for (int i = 0; i < unit.params().size(); i++) {
                TemporalText typed = of(unit.params().get(i));
                if (typed != null) {
                    if (params == null) {
                        params = new ArrayList<>(unit.params());
                    }
                    params.set(i, typed);
                }
            }
            if (params != null && out == null) {
                out = new ArrayList<>(units.subList(0, u));
            }
            if (out != null) {
                out.add(params == null ? unit : new ExecutionUnit(unit.backend(), unit.sql(), params, unit.logicalTables()));
            }
        }
        return out == null ? units : out;
    }

    private static String date(LocalDate d) {
        return pad(d.getYear(), 4) + '-' + pad(d.getMonthValue(), 2) + '-' + pad(d.getDayOfMonth(), 2);
    }

    /** Microseconds as 6 digits when there are any (the binary protocol carries no more): 6 decimals, as MariaDB types the parameter. */
    private static String time(LocalTime t) {
        String hms = pad(t.getHour(), 2) + ':' + pad(t.getMinute(), 2) + ':' + pad(t.getSecond(), 2);
        int micros = t.getNano() / 1000;
        return micros == 0 ? hms : hms + '.' + pad(micros, 6);
    }

    private static String pad(int value, int width) {
        String digits = Integer.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    /** [-]H…H:MM:SS[.ffffff] with more than 838 hours is [-]838:59:59[.ffffff], as MariaDB reads such a bound TIME. */
    private static String clamped(String text) {
        int colon = text.indexOf(':');
        int start = text.startsWith("-") ? 1 : 0;
        if (colon < 0 || colon - start < 3) {
            return text;
        }
        try {
            if (Long.parseLong(text, start, colon, 10) <= MAX_TIME_HOURS) {
                return text;
            }
        } catch (NumberFormatException e) {
            return text;
        }
        int point = text.indexOf('.');
        return text.substring(0, start) + MAX_TIME_HOURS + ":59:59" + (point < 0 ? "" : text.substring(point));
    }
}
