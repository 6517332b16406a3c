package io.shardwise.core.sql.analyze;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Where expressions of a SELECT lie in its text, which Calcite's positions do not say directly: it
 * places an infix call at its operator and a parenthesized call with its parentheses. Used to find an
 * ORDER BY key's expression, the divisors a unit wraps, and the arguments of COUNT(DISTINCT a, b).
 */
final class ExpressionSpans {
    private ExpressionSpans() {}

    /** The span of {@code node}'s text, from its leftmost to its rightmost part. */
    static SelectShape.Span of(ParsedText parsed, SqlNode node) {
        return new SelectShape.Span(leftmost(parsed, node), rightmost(parsed, node));
    }

    /** The expression among {@code nodes} (ORDER BY keys) that starts at {@code start}, or null. */
    static SqlNode nodeAt(ParsedText parsed, SqlNodeList nodes, int start) {
        if (nodes == null) {
            return null;
        }
        for (SqlNode node : nodes) {
            SqlNode expr = node;
            while (expr instanceof SqlCall call && (call.getKind() == SqlKind.DESCENDING || call.getKind() == SqlKind.NULLS_FIRST
                    || call.getKind() == SqlKind.NULLS_LAST)) {
                expr = call.operand(0);
            }
            if (expr instanceof SqlCall && skipParentheses(parsed.sql, leftmost(parsed, expr)) == skipParentheses(parsed.sql, start)) {
                return expr;
            }
        }
        return null;
    }

    /**
     * The spans of the divisors of every division in an expression over aggregates, in text order: a
     * unit computing the expression over its partial groups wraps them in NULLIF(…, 0), so a partial
     * sum of 0 raises no "Division by 0" of its own (the merger raises MySQL's, once, when it applies).
     */
    static List<SelectShape.Span> divisors(ParsedText parsed, SqlNode node) {
        List<SelectShape.Span> out = new ArrayList<>();
        collectDivisors(parsed, node, out);
        out.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return out;
    }

    private static void collectDivisors(ParsedText parsed, SqlNode node, List<SelectShape.Span> out) {
        if (!(node instanceof SqlCall call) || SelectAnalyzer.aggregate(node, parsed.sql, parsed) != null) {
            return;
        }
        if (call.getKind() == SqlKind.DIVIDE) {
            SqlNode divisor = call.operand(1);
            out.add(new SelectShape.Span(leftmost(parsed, divisor), rightmost(parsed, divisor)));
        }
        for (SqlNode operand : call.getOperandList()) {
            if (operand != null) {
                collectDivisors(parsed, operand, out);
            }
        }
    }

    private static int rightmost(ParsedText parsed, SqlNode node) {
        int at = parsed.end(node.getParserPosition());
        if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    at = Math.max(at, rightmost(parsed, operand));
                }
            }
        }
        return at;
    }

    /** Where the text of an expression starts: Calcite places an infix call at its operator. */
    private static int leftmost(ParsedText parsed, SqlNode node) {
        int at = parsed.start(node);
        if (node instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                if (operand != null) {
                    at = Math.min(at, leftmost(parsed, operand));
                }
            }
        }
        return at;
    }

    private static int skipParentheses(String sql, int at) {
        while (at < sql.length() && (sql.charAt(at) == '(' || Character.isWhitespace(sql.charAt(at)))) {
            at++;
        }
        return at;
    }
}
