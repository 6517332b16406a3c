package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;

/**
 * Reads a HAVING condition, or a select item or ORDER BY key over aggregates, into a {@link HavingExpr};
 * null when a part of it is beyond the merger.
 */
final class HavingReader {
    private HavingReader() {}

    static HavingExpr read(ParsedText parsed, SqlNode node) {
        try {
            return expr(parsed, node);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static HavingExpr expr(ParsedText parsed, SqlNode node) {
        switch (node) {
            case SqlDynamicParam p -> {
                return new HavingExpr.Value(new ValueRef.Param(parsed.paramOrdinal(p)));
            }
            case SqlLiteral l -> {
                Object v = switch (l.getTypeName()) {
                    case NULL -> null;
                    case BOOLEAN -> l.booleanValue() ? 1L : 0L;
                    case DECIMAL -> l.bigDecimalValue();
                    case DOUBLE -> l.bigDecimalValue().doubleValue(); // 1e2: MySQL reads it as a DOUBLE
                    case CHAR -> l.getValueAs(String.class);
                    default -> throw new IllegalArgumentException("literal " + l);
                };
                return new HavingExpr.Value(new ValueRef.Const(v));
            }
            case SqlIdentifier id -> {
                int start = parsed.start(id);
                int end = parsed.end(id.getParserPosition());
                return new HavingExpr.Ref(parsed.sql.substring(start, end), null, start, end);
            }
            case SqlCall call -> {
                SelectShape.Aggregate aggregate = SelectAnalyzer.aggregate(call, parsed.sql, parsed);
                if (aggregate != null) {
                    if (aggregate.kind() == SelectShape.AggregateKind.OTHER) {
                        throw new IllegalArgumentException("aggregate " + call);
                    }
                    String name = aggregate.kind().name().toLowerCase(java.util.Locale.ROOT);
                    String text = name + "(" + (aggregate.distinct() ? "distinct " : "") + aggregate.argument() + ")";
                    return new HavingExpr.Ref(text, aggregate);
                }
                return switch (call.getKind()) {
                    case AND -> new HavingExpr.And(all(parsed, call));
                    case OR -> new HavingExpr.Or(all(parsed, call));
                    case NOT -> new HavingExpr.Not(expr(parsed, call.operand(0)));
                    case MINUS_PREFIX -> new HavingExpr.Negate(expr(parsed, call.operand(0)));
                    case PLUS_PREFIX -> expr(parsed, call.operand(0));
                    case IS_NULL -> new HavingExpr.IsNull(expr(parsed, call.operand(0)), false);
                    case IS_NOT_NULL -> new HavingExpr.IsNull(expr(parsed, call.operand(0)), true);
                    case EQUALS -> binary(parsed, HavingExpr.Op.EQ, call);
                    case NOT_EQUALS -> binary(parsed, HavingExpr.Op.NE, call);
                    case LESS_THAN -> binary(parsed, HavingExpr.Op.LT, call);
                    case LESS_THAN_OR_EQUAL -> binary(parsed, HavingExpr.Op.LE, call);
                    case GREATER_THAN -> binary(parsed, HavingExpr.Op.GT, call);
                    case GREATER_THAN_OR_EQUAL -> binary(parsed, HavingExpr.Op.GE, call);
                    case PLUS -> binary(parsed, HavingExpr.Op.ADD, call);
                    case MINUS -> binary(parsed, HavingExpr.Op.SUBTRACT, call);
                    case TIMES -> binary(parsed, HavingExpr.Op.MULTIPLY, call);
                    case DIVIDE -> binary(parsed, HavingExpr.Op.DIVIDE, call);
                    case BETWEEN -> between(parsed, call);
                    case COALESCE -> new HavingExpr.Coalesce(all(parsed, call));
                    default -> function(parsed, call);
                };
            }
            default -> throw new IllegalArgumentException("node " + node);
        }
    }

    /**
     * COALESCE, IFNULL and IF, which Calcite's parser leaves unresolved functions known only by name;
     * ABS(x) as IF(x < 0, -x, x + 0), which is MySQL's ABS exactly: the argument's type and scale for
     * numbers (a BIGINT's minimum overflows as MySQL's does), a string or temporal value read as a number.
     */
    private static HavingExpr function(ParsedText parsed, SqlCall call) {
        String name = call.getOperator() == null ? "" : call.getOperator().getName().toLowerCase(java.util.Locale.ROOT);
        if (name.equals("coalesce") && call.operandCount() > 0 || name.equals("ifnull") && call.operandCount() == 2) {
            return new HavingExpr.Coalesce(all(parsed, call));
        }
        if (name.equals("abs") && call.operandCount() == 1) {
            HavingExpr x = expr(parsed, call.operand(0));
            HavingExpr zero = new HavingExpr.Value(new ValueRef.Const(java.math.BigDecimal.ZERO));
            return new HavingExpr.If(new HavingExpr.Binary(HavingExpr.Op.LT, x, zero), new HavingExpr.Negate(x),
                    new HavingExpr.Binary(HavingExpr.Op.ADD, x, zero));
        }
        if (name.equals("if") && call.operandCount() == 3) {
            return new HavingExpr.If(expr(parsed, call.operand(0)), expr(parsed, call.operand(1)), expr(parsed, call.operand(2)));
        }
        throw new IllegalArgumentException("operator " + call.getKind() + " " + name);
    }

    private static HavingExpr binary(ParsedText parsed, HavingExpr.Op op, SqlCall call) {
        if (isNullSafe(parsed, call)) {
            throw new IllegalArgumentException("<=>");
        }
        return new HavingExpr.Binary(op, expr(parsed, call.operand(0)), expr(parsed, call.operand(1)));
    }

    private static HavingExpr between(ParsedText parsed, SqlCall call) {
        String operator = call.getOperator().getName();
        if (operator.contains("NOT") || operator.contains("SYMMETRIC") && !operator.contains("ASYMMETRIC")) {
            throw new IllegalArgumentException(operator);
        }
        HavingExpr value = expr(parsed, call.operand(0));
        return new HavingExpr.And(List.of(new HavingExpr.Binary(HavingExpr.Op.GE, value, expr(parsed, call.operand(1))),
                new HavingExpr.Binary(HavingExpr.Op.LE, value, expr(parsed, call.operand(2)))));
    }

    private static boolean isNullSafe(ParsedText parsed, SqlCall call) {
        int from = parsed.end(call.operand(0).getParserPosition());
        int to = parsed.start(call.operand(1));
        for (int offset : parsed.masking.nullSafeEqualities()) {
            if (offset >= from && offset < to) {
                return true;
            }
        }
        return false;
    }

    private static List<HavingExpr> all(ParsedText parsed, SqlCall call) {
        List<HavingExpr> out = new ArrayList<>();
        for (SqlNode operand : call.getOperandList()) {
            out.add(expr(parsed, operand));
        }
        return out;
    }
}
