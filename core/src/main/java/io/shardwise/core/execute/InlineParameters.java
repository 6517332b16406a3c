package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.SqlLexer;
import io.shardwise.core.sql.normalize.TokenKind;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.HexFormat;
import java.util.List;

/**
 * A unit's {@code ?} values written into its text as SQL literals, for an executor that sends text
 * only (a native transaction's connections speak COM_QUERY): each marker the lexer finds, in the
 * session's lexical mode (so a {@code ?} inside a string or comment stays), becomes the literal of
 * its value. Numbers are written as MySQL reads them back (a double with an exponent, so it stays a
 * DOUBLE), strings quoted for the mode, bytes as a hex (binary) literal, java.time values as their
 * quoted text (the JDBC face's, as Connector/J writes them), a {@link TemporalText} (the server face's
 * binary DATE, DATETIME, TIMESTAMP, TIME) as a CAST to its type.
 */
final class InlineParameters {
    private InlineParameters() {}

    static List<ExecutionUnit> of(List<ExecutionUnit> units, LexicalMode mode) {
        return of(units, mode, null);
    }

    /** As {@link #of(List, LexicalMode)}, the markers of each unit's text taken from {@code markers} when it holds them. */
    static List<ExecutionUnit> of(List<ExecutionUnit> units, LexicalMode mode, InlinedUnits markers) {
        boolean any = false;
        for (int i = 0; i < units.size(); i++) {
            any |= !units.get(i).params().isEmpty();
        }
        if (!any) {
            return units;
        }
        ExecutionUnit[] out = new ExecutionUnit[units.size()];
        for (int i = 0; i < out.length; i++) {
            ExecutionUnit u = units.get(i);
            // a LOAD DATA LOCAL unit's one parameter is its rows, sent when the backend asks for the file: not a literal
            out[i] = u.params().isEmpty() || LocalData.of(u) != null ? u
                    : inline(u, mode, markers == null ? markers(u.sql(), mode) : markers.markers(u.sql(), mode));
        }
        return List.of(out);
    }

    static ExecutionUnit inline(ExecutionUnit unit, LexicalMode mode) {
        return inline(unit, mode, markers(unit.sql(), mode));
    }

    /**
     * The {@code ?} markers the lexer finds in {@code sql} in {@code mode}: start and end of each, in order (a {@code ?}
     * inside a string, a quoted name or a comment is none). A function of the text and the mode only.
     */
    static int[] markers(String sql, LexicalMode mode) {
        int[] spans = new int[8];
        int n = 0;
        SqlLexer lexer = new SqlLexer(sql, mode);
        for (TokenKind kind; (kind = lexer.next()) != TokenKind.EOF; ) {
            if (kind == TokenKind.PARAMETER) {
                if (n + 2 > spans.length) {
                    spans = java.util.Arrays.copyOf(spans, spans.length * 2);
                }
                spans[n++] = lexer.start();
                spans[n++] = lexer.end();
            }
        }
        return java.util.Arrays.copyOf(spans, n);
    }

    /** {@code unit} with the literal of each value in place of its marker ({@code markers}: as {@link #markers} finds them). */
    private static ExecutionUnit inline(ExecutionUnit unit, LexicalMode mode, int[] markers) {
        String sql = unit.sql();
        List<Object> params = unit.params();
        if (markers.length / 2 > params.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "unit has more ? markers than parameters: " + unit.explain());
        }
        if (markers.length / 2 != params.size()) {
            throw new ShardwiseException(ErrorCode.BUG, "unit has fewer ? markers than parameters: " + unit.explain());
        }
        StringBuilder out = new StringBuilder(sql.length() + 16 * params.size());
        int copied = 0;
        for (int m = 0; m < markers.length; m += 2) {
            out.append(sql, copied, markers[m]).append(literal(params.get(m / 2), mode));
            copied = markers[m + 1];
        }
        out.append(sql, copied, sql.length());
        return new ExecutionUnit(unit.backend(), out.toString(), List.of(), unit.logicalTables());
    }

    static String literal(Object value, LexicalMode mode) {
        return switch (value) {
            case null -> "NULL";
            case Long l -> l.toString();
            case Integer i -> i.toString();
            case Short s -> s.toString();
            case Byte b -> b.toString();
            case BigInteger b -> b.toString();
            case BigDecimal d -> d.toPlainString();
            case Double d -> real(d);
            case Float f -> real(f.doubleValue());
            case Boolean b -> b ? "1" : "0";
            case String s -> mode.quote(s);
            case byte[] bytes -> bytes.length == 0 ? "''" : "X'" + HexFormat.of().formatHex(bytes) + "'";
            case LocalDate d -> "'" + d + "'";
            case LocalDateTime t -> "'" + t.toString().replace('T', ' ') + "'";
            case LocalTime t -> "'" + t + "'";
            case TemporalText t -> t.literal();
            default -> throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a parameter of type " + value.getClass().getSimpleName()
                    + " inside a transaction on the server's native connections");
        };
    }

    private static String real(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a parameter of value " + d);
        }
        String text = Double.toString(d);
        return text.indexOf('E') >= 0 ? text : text + "E0";
    }
}
