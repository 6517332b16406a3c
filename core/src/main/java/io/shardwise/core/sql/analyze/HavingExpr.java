package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * An expression the merger evaluates on merged groups across shards — a HAVING condition, a select
 * item or an ORDER BY key over aggregates ({@code SUM(a) / COUNT(*)}): references to aggregates and
 * columns (resolved to merged columns by the router), values, comparisons, arithmetic and logic.
 */
public sealed interface HavingExpr {
    /**
     * An aggregate call ({@code aggregate} set) or a column or alias (its text, at [start, end) of the
     * statement where known, else -1: a node computing it must render a qualifier as its own table).
     */
    record Ref(String text, SelectShape.Aggregate aggregate, int start, int end) implements HavingExpr {
        public Ref(String text, SelectShape.Aggregate aggregate) {
            this(text, aggregate, -1, -1);
        }
    }

    record Value(ValueRef value) implements HavingExpr {}

    enum Op { EQ, NE, LT, LE, GT, GE, ADD, SUBTRACT, MULTIPLY, DIVIDE }

    record Binary(Op op, HavingExpr left, HavingExpr right) implements HavingExpr {}

    record And(List<HavingExpr> operands) implements HavingExpr {
        public And {
            operands = List.copyOf(operands);
        }
    }

    record Or(List<HavingExpr> operands) implements HavingExpr {
        public Or {
            operands = List.copyOf(operands);
        }
    }

    record Not(HavingExpr operand) implements HavingExpr {}

    /** Unary minus. */
    record Negate(HavingExpr operand) implements HavingExpr {}

    /** COALESCE(a, b, ...) and IFNULL(a, b): the first operand that is not NULL. */
    record Coalesce(List<HavingExpr> operands) implements HavingExpr {
        public Coalesce {
            operands = List.copyOf(operands);
        }
    }

    /** IF(condition, then, otherwise). */
    record If(HavingExpr condition, HavingExpr then, HavingExpr otherwise) implements HavingExpr {}

    record IsNull(HavingExpr operand, boolean negated) implements HavingExpr {}
}
