package io.shardwise.core.merge;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.Condition;
import io.shardwise.core.route.MergeSpec;
import io.shardwise.core.route.RowExpr;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Evaluates a {@link RowExpr} on a merged row as MySQL would: NULL propagates and AND/OR/NOT follow
 * three-valued logic; exact numbers (integers, DECIMAL) stay exact, a FLOAT/DOUBLE or string operand
 * turns a comparison or arithmetic into double arithmetic; strings compare through their weight
 * columns when both sides have one, temporal columns in time order, otherwise by bytes. Exact
 * division keeps MySQL's intermediate digits ({@link DecimalDivision}); a value is rounded (half
 * up) only where MySQL rounds it: to its column's scale when it is written, and to the scale its
 * expression declares when it is compared (MariaDB's {@code Arg_comparator::compare_decimal}: so
 * {@code 10/3 = 3.3333} holds). {@code x / 0} is NULL and raises warning 1365.
 *
 * <p>Values are null, {@link BigDecimal}, {@link Double} or {@link Text}; truth values are 1 and 0.
 * Hazard: an integer expression is exact here even where MySQL's BIGINT arithmetic would overflow
 * in between; only the final value is checked against its column's range.
 */
final class ExprEvaluator {
    private static final BigDecimal TRUE = BigDecimal.ONE;
    private static final BigDecimal FALSE = BigDecimal.ZERO;
    /** MariaDB's DECIMAL_MAX_SCALE. */
    private static final int MAX_SCALE = 38;

    /** A string operand: its bytes, its WEIGHT_STRING bytes when known, and the order of its column type. */
    record Text(byte[] bytes, byte[] weight, ValueOrder order) {}

    private final List<Column> columns;
    private final MergeWarnings warnings;

    ExprEvaluator(List<Column> columns, MergeWarnings warnings) {
        this.columns = columns;
        this.warnings = warnings;
    }

    /**
     * Writes the value of {@code c}'s expression into its column of {@code row}, as MySQL writes a
     * value of that column's type: DECIMAL at its scale, DOUBLE as MySQL prints doubles, integers
     * checked against their range.
     */
    void compute(MergeSpec.ComputedColumn c, byte[][] row) {
        Object v = eval(c.expression(), Row.of(row));
        row[c.column()] = v == null ? null : ComputedText.of(v, columns.get(c.column()));
    }

    /** Whether the row passes a HAVING clause: only a true (non-zero, non-NULL) value keeps it. */
    boolean accepts(RowExpr expr, Row row) {
        return Boolean.TRUE.equals(truth(eval(expr, row)));
    }

    Object eval(RowExpr expr, Row row) {
        return switch (expr) {
            case RowExpr.ColumnRef c -> column(c, row);
            case RowExpr.Constant k -> constant(k.value());
            case RowExpr.Compare c -> {
                Object l = eval(c.left(), row);
                Object r = eval(c.right(), row);
                yield compare(c.op(), declared(real(c.left(), l, r, row), c.left()), declared(real(c.right(), r, l, row), c.right()));
            }
            case RowExpr.Arithmetic a -> {
                Object l = eval(a.left(), row);
                Object r = eval(a.right(), row);
                yield arithmetic(a.op(), real(a.left(), l, r, row), real(a.right(), r, l, row));
            }
            case RowExpr.Average a -> arithmetic(RowExpr.ArithmeticOp.DIVIDE, eval(a.sum(), row), eval(a.count(), row));
            case RowExpr.Negate n -> negate(eval(n.operand(), row));
            case RowExpr.Coalesce c -> coalesce(c.operands(), row);
            case RowExpr.If i -> Boolean.TRUE.equals(truth(eval(i.condition(), row))) ? eval(i.then(), row) : eval(i.otherwise(), row);
            case RowExpr.And a -> and(a.operands(), row);
            case RowExpr.Or o -> or(o.operands(), row);
            case RowExpr.Not n -> {
                Boolean t = truth(eval(n.operand(), row));
                yield t == null ? null : bool(!t);
            }
            case RowExpr.IsNull i -> bool((eval(i.operand(), row) == null) != i.negated());
        };
    }

    private Object column(RowExpr.ColumnRef ref, Row row) {
        byte[] v = row.get(ref.column());
        if (v == null) {
            return null;
        }
        Column type = columns.get(ref.column());
        return switch (ValueOrder.of(type)) {
            case NUMBER -> NumberText.exact(v);
            case FLOATING -> ValueOrder.parseDouble(v);
            case BITS -> new BigDecimal(new BigInteger(1, v));
            case DATETIME, TIME, BYTES -> new Text(v, ref.weightColumn() >= 0 ? row.get(ref.weightColumn()) : null,
                    ValueOrder.of(type));
        };
    }

    private static Object constant(Object value) {
        return switch (value) {
            case null -> null;
            case Long l -> BigDecimal.valueOf(l);
            case Integer i -> BigDecimal.valueOf(i);
            case BigInteger b -> new BigDecimal(b);
            case BigDecimal d -> d;
            case Double d -> d;
            case String s -> new Text(s.getBytes(StandardCharsets.UTF_8), null, ValueOrder.BYTES);
            case Boolean b -> bool(b);
            default -> throw new IllegalArgumentException("constant of type " + value.getClass().getName());
        };
    }

    private static Object compare(RowExpr.CompareOp op, Object l, Object r) {
        if (op == RowExpr.CompareOp.NULL_SAFE_EQ) {
            return l == null || r == null ? bool(l == r) : bool(order(l, r) == 0);
        }
        if (l == null || r == null) {
            return null;
        }
        int c = order(l, r);
        return bool(switch (op) {
            case EQ -> c == 0;
            case NE -> c != 0;
            case LT -> c < 0;
            case LE -> c <= 0;
            case GT -> c > 0;
            case GE -> c >= 0;
            case NULL_SAFE_EQ -> throw new AssertionError("handled above");
        });
    }

    private static int order(Object l, Object r) {
        if (l instanceof BigDecimal a && r instanceof BigDecimal b) {
            return a.compareTo(b);
        }
        if (l instanceof Text a && r instanceof Text b) {
            if (a.weight() != null && b.weight() != null) {
                return Arrays.compareUnsigned(a.weight(), b.weight());
            }
            // a temporal column against a literal: compare in the column's own order
            ValueOrder o = a.order() != ValueOrder.BYTES ? a.order() : b.order();
            return o.compare(a.bytes(), b.bytes());
        }
        return Double.compare(toDouble(l), toDouble(r));
    }

    /**
     * The value of {@code e} as its DOUBLE operand's neighbour sees it: an AVG next to a DOUBLE is
     * computed in double (sum as a double / count), not from its DECIMAL quotient; anything else as is.
     */
    private Object real(RowExpr e, Object value, Object other, Row row) {
        if (e instanceof RowExpr.Average a && other instanceof Double && value instanceof BigDecimal) {
            Object sum = eval(a.sum(), row);
            Object count = eval(a.count(), row);
            return sum == null || count == null ? null : toDouble(sum) / toDouble(count);
        }
        return value;
    }

    /** An exact value rounded to the scale {@code e} declares, as a comparison sees it. */
    private Object declared(Object v, RowExpr e) {
        if (v instanceof BigDecimal d && d.scale() > 0) {
            int scale = declaredScale(e);
            if (d.scale() > scale) {
                return d.setScale(scale, RoundingMode.HALF_UP);
            }
        }
        return v;
    }

    /**
     * The scale MySQL gives an exact expression's result (its column's decimals): a column's own, a
     * literal's, the larger of a sum's or difference's operands, their total for a product, the
     * dividend's + div_precision_increment for a quotient; 0 for truth values.
     */
    private int declaredScale(RowExpr e) {
        return switch (e) {
            case RowExpr.ColumnRef c -> Math.min(columns.get(c.column()).decimals(), NumberText.NOT_FIXED_DECIMALS);
            case RowExpr.Constant k -> k.value() instanceof BigDecimal d ? Math.max(d.scale(), 0) : 0;
            case RowExpr.Arithmetic a -> switch (a.op()) {
                case ADD, SUBTRACT -> Math.max(declaredScale(a.left()), declaredScale(a.right()));
                case MULTIPLY -> Math.min(declaredScale(a.left()) + declaredScale(a.right()), MAX_SCALE);
                case DIVIDE -> Math.min(declaredScale(a.left()) + Accumulator.DIV_PRECISION_INCREMENT, MAX_SCALE);
            };
            case RowExpr.Negate n -> declaredScale(n.operand());
            case RowExpr.Average a -> Math.min(declaredScale(a.sum()) + Accumulator.DIV_PRECISION_INCREMENT, MAX_SCALE);
            case RowExpr.Coalesce c -> {
                int scale = 0;
                for (RowExpr o : c.operands()) {
                    scale = Math.max(scale, declaredScale(o));
                }
                yield scale;
            }
            case RowExpr.If i -> Math.max(declaredScale(i.then()), declaredScale(i.otherwise()));
            case RowExpr.Compare c -> 0;
            case RowExpr.And a -> 0;
            case RowExpr.Or o -> 0;
            case RowExpr.Not n -> 0;
            case RowExpr.IsNull i -> 0;
        };
    }

    private Object arithmetic(RowExpr.ArithmeticOp op, Object l, Object r) {
        if (l == null || r == null) {
            return null;
        }
        if (l instanceof BigDecimal a && r instanceof BigDecimal b) {
            return switch (op) {
                case ADD -> a.add(b);
                case SUBTRACT -> a.subtract(b);
                case MULTIPLY -> a.multiply(b);
                case DIVIDE -> b.signum() == 0 ? divisionByZero() : DecimalDivision.quotient(a, b);
            };
        }
        double a = toDouble(l);
        double b = toDouble(r);
        return switch (op) {
            case ADD -> a + b;
            case SUBTRACT -> a - b;
            case MULTIPLY -> a * b;
            case DIVIDE -> b == 0 ? divisionByZero() : a / b;
        };
    }

    private Object divisionByZero() {
        warnings.raise(new Condition(Condition.Level.WARNING, ErrorCode.DIVISION_BY_ZERO.errno(), ErrorCode.DIVISION_BY_ZERO.message()));
        return null;
    }

    private Object coalesce(List<RowExpr> operands, Row row) {
        for (RowExpr e : operands) {
            Object v = eval(e, row);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Object negate(Object v) {
        return switch (v) {
            case null -> null;
            case BigDecimal d -> d.negate();
            default -> -toDouble(v);
        };
    }

    private Object and(List<RowExpr> operands, Row row) {
        boolean unknown = false;
        for (RowExpr e : operands) {
            Boolean t = truth(eval(e, row));
            if (t == null) {
                unknown = true;
            } else if (!t) {
                return FALSE;
            }
        }
        return unknown ? null : TRUE;
    }

    private Object or(List<RowExpr> operands, Row row) {
        boolean unknown = false;
        for (RowExpr e : operands) {
            Boolean t = truth(eval(e, row));
            if (t == null) {
                unknown = true;
            } else if (t) {
                return TRUE;
            }
        }
        return unknown ? null : FALSE;
    }

    private static Boolean truth(Object v) {
        return switch (v) {
            case null -> null;
            case BigDecimal d -> d.signum() != 0;
            default -> toDouble(v) != 0;
        };
    }

    static double toDouble(Object v) {
        return switch (v) {
            case BigDecimal d -> d.doubleValue();
            case Double d -> d;
            case Text t when t.order() == ValueOrder.DATETIME || t.order() == ValueOrder.TIME -> temporalNumber(t.bytes());
            case Text t -> NumberText.leadingDouble(t.bytes());
            default -> throw new IllegalArgumentException("value " + v);
        };
    }

    /** A temporal value in numeric context, as MySQL does it: '2025-01-02 03:04:05' is 20250102030405. */
    private static double temporalNumber(byte[] text) {
        StringBuilder digits = new StringBuilder(text.length);
        boolean negative = text.length > 0 && text[0] == '-';
        for (byte b : text) {
            if (b == '.') {
                digits.append('.');
            } else if (b >= '0' && b <= '9') {
                digits.append((char) b);
            }
        }
        double d = digits.isEmpty() ? 0 : Double.parseDouble(digits.toString());
        return negative ? -d : d;
    }

    private static BigDecimal bool(boolean b) {
        return b ? TRUE : FALSE;
    }
}
