package io.shardwise.core.sql.analyze;

import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The top-level clauses of a SELECT as token index ranges, found at paren depth 0: the select list,
 * FROM ... WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and the locking tail. Used for spans and item
 * texts, which Calcite's positions do not give reliably.
 */
final class Clauses {
    static final Set<String> MODIFIERS = Set.of("all", "distinct", "distinctrow", "high_priority", "straight_join",
            "sql_small_result", "sql_big_result", "sql_buffer_result", "sql_no_cache", "sql_cache", "sql_calc_found_rows");

    /** [first, last) token indexes; -1 when absent. */
    record Range(int first, int last) {
        static final Range NONE = new Range(-1, -1);

        boolean present() {
            return first >= 0;
        }
    }

    final List<Token> tokens;
    /** The SELECT keyword's token index and paren depth: a set operation's first branch may be parenthesized. */
    private final int select;
    private final int base;
    Range selectList = Range.NONE;
    Range groupBy = Range.NONE;
    Range having = Range.NONE;
    Range orderBy = Range.NONE;
    Range limit = Range.NONE;
    int lockingTail = -1;
    boolean distinct;
    boolean withRollup;
    boolean setOperation;
    boolean into;

    private Clauses(List<Token> tokens, int select) {
        this.tokens = tokens;
        this.select = select;
        this.base = tokens.get(select).depth();
    }

    static Clauses of(List<Token> tokens) {
        return of(tokens, 0);
    }

    /**
     * The clauses of the query block whose SELECT keyword is token {@code select} (a set operation's
     * first branch, parenthesized or not): they end at its depth's UNION/EXCEPT/INTERSECT or at the
     * parenthesis that closes the branch.
     */
    static Clauses of(List<Token> tokens, int select) {
        Clauses c = new Clauses(tokens, select);
        c.split();
        return c;
    }

    private void split() {
        int i = select + 1; // after SELECT
        while (i < tokens.size() && tokens.get(i).kind() == Kind.WORD && MODIFIERS.contains(tokens.get(i).lower())) {
            String w = tokens.get(i).lower();
            distinct |= w.equals("distinct") || w.equals("distinctrow");
            i++;
        }
        int listStart = i;
        String current = "select";
        int currentStart = listStart;
        int end = tokens.size();
        for (; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.depth() < base) {
                end = i; // the parenthesis closing a parenthesized branch
                break;
            }
            if (t.depth() != base || t.kind() != Kind.WORD) {
                continue;
            }
            Token next = i + 1 < tokens.size() ? tokens.get(i + 1) : null;
            String w = t.lower();
            String clause = switch (w) {
                case "from" -> "from";
                case "into" -> "into";
                case "where" -> "where";
                case "group" -> next != null && next.is("by") ? "group" : null;
                case "having" -> "having";
                case "window" -> "window";
                case "order" -> next != null && next.is("by") ? "order" : null;
                case "limit" -> "limit";
                case "for" -> next != null && (next.is("update") || next.is("share")) ? "lock" : null;
                case "lock" -> next != null && next.is("in") ? "lock" : null;
                case "union", "except", "intersect" -> "setop";
                default -> null;
            };
            if (clause == null) {
                continue;
            }
            close(current, currentStart, i);
            if (clause.equals("setop")) {
                setOperation = true;
            }
            if (clause.equals("into")) {
                into = true;
            }
            if (clause.equals("lock")) {
                lockingTail = i;
                current = "done";
                break;
            }
            current = clause;
            currentStart = clause.equals("group") || clause.equals("order") ? i + 2 : i + 1;
            if (clause.equals("limit")) {
                currentStart = i;
            }
        }
        if (!current.equals("done")) {
            close(current, currentStart, Math.min(end, i));
        }
        if (groupBy.present() && groupBy.last - groupBy.first >= 2
                && tokens.get(groupBy.last - 1).is("rollup") && tokens.get(groupBy.last - 2).is("with")) {
            withRollup = true;
            groupBy = new Range(groupBy.first, groupBy.last - 2);
        }
    }

    private void close(String clause, int first, int last) {
        Range r = new Range(first, last);
        switch (clause) {
            case "select" -> selectList = r;
            case "group" -> groupBy = r;
            case "having" -> having = r;
            case "order" -> orderBy = r;
            case "limit" -> limit = r;
            default -> { }
        }
    }

    /** Splits a range at depth-0 commas into token ranges. */
    List<Range> items(Range range) {
        List<Range> out = new ArrayList<>();
        if (!range.present()) {
            return out;
        }
        int start = range.first;
        for (int i = range.first; i < range.last; i++) {
            Token t = tokens.get(i);
            if (t.kind() == Kind.COMMA && t.depth() == base) {
                out.add(new Range(start, i));
                start = i + 1;
            }
        }
        if (start < range.last) {
            out.add(new Range(start, range.last));
        }
        return out;
    }

    int startOffset(Range r) {
        return tokens.get(r.first).start();
    }

    int endOffset(Range r) {
        return tokens.get(r.last - 1).end();
    }

    String text(String sql, Range r) {
        return sql.substring(startOffset(r), endOffset(r));
    }
}
