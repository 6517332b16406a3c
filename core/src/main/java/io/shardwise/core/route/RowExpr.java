package io.shardwise.core.route;

import java.util.List;
import java.util.Objects;

/**
 * An expression the merger evaluates on merged rows (HAVING, select items and ORDER BY keys over
 * aggregates across shards), with MySQL's semantics:
 * three-valued logic (NULL propagates; AND/OR as MySQL defines them), numbers compared as numbers,
 * strings by the collation of the column they come from (through a weight column when it has one).
 */
public sealed interface RowExpr {
    /** The value of a column of the merged row; {@code weightColumn} as in {@link SortKey}. */
    record ColumnRef(int column, int weightColumn) implements RowExpr {
        @Override
        public String toString() {
            return "#" + column;
        }
    }

    /**
     * A constant: null, Long, BigInteger, BigDecimal, Double or String. String constants compared
     * with a weighted column are compared through WEIGHT_STRING of the constant, which the router
     * puts in a hidden column when it needs one; otherwise as numbers when the other side is numeric.
     */
    record Constant(Object value) implements RowExpr {
        @Override
        public String toString() {
            return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        }
    }

    enum CompareOp { EQ, NE, LT, LE, GT, GE, NULL_SAFE_EQ }

    record Compare(CompareOp op, RowExpr left, RowExpr right) implements RowExpr {
        public Compare {
            Objects.requireNonNull(op);
            Objects.requireNonNull(left);
            Objects.requireNonNull(right);
        }

        @Override
        public String toString() {
            return "(" + left + " " + op + " " + right + ")";
        }
    }

    enum ArithmeticOp { ADD, SUBTRACT, MULTIPLY, DIVIDE }

    /**
     * Arithmetic with MySQL's result types: exact for integers and decimals, DIVIDE gives DECIMAL with
     * MySQL's intermediate precision, x/0 is NULL with warning 1365.
     */
    record Arithmetic(ArithmeticOp op, RowExpr left, RowExpr right) implements RowExpr {
        @Override
        public String toString() {
            return "(" + left + " " + switch (op) {
                case ADD -> "+";
                case SUBTRACT -> "-";
                case MULTIPLY -> "*";
                case DIVIDE -> "/";
            } + " " + right + ")";
        }
    }

    /**
     * AVG(x) inside an expression: the merged {@code sum} / {@code count}, unrounded as MySQL's AVG
     * gives it to an enclosing expression — a DECIMAL quotient with division's intermediate digits, or,
     * next to a DOUBLE operand, {@code sum} as a double divided by {@code count} (MySQL's
     * {@code Item_sum_avg::val_real}), which has more digits than the DECIMAL quotient.
     */
    record Average(RowExpr sum, RowExpr count) implements RowExpr {
        @Override
        public String toString() {
            return "avg(" + sum + " / " + count + ")";
        }
    }

    /** The first operand that is not NULL (COALESCE, IFNULL); NULL when all are. */
    record Coalesce(List<RowExpr> operands) implements RowExpr {
        public Coalesce {
            operands = List.copyOf(operands);
        }

        @Override
        public String toString() {
            return "coalesce" + operands;
        }
    }

    /** IF(condition, then, otherwise): {@code then} when the condition is true (not 0, not NULL). */
    record If(RowExpr condition, RowExpr then, RowExpr otherwise) implements RowExpr {
        @Override
        public String toString() {
            return "if(" + condition + ", " + then + ", " + otherwise + ")";
        }
    }

    /** Unary minus. */
    record Negate(RowExpr operand) implements RowExpr {
        @Override
        public String toString() {
            return "-" + operand;
        }
    }

    record And(List<RowExpr> operands) implements RowExpr {
        public And {
            operands = List.copyOf(operands);
        }
    }

    record Or(List<RowExpr> operands) implements RowExpr {
        public Or {
            operands = List.copyOf(operands);
        }
    }

    record Not(RowExpr operand) implements RowExpr {}

    record IsNull(RowExpr operand, boolean negated) implements RowExpr {}
}
