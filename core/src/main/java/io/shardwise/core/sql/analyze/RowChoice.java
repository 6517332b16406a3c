package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * How a single-table UPDATE or DELETE with ORDER BY / LIMIT chooses its rows when it spans nodes, as
 * one MySQL would: first {@code select}, {@code SELECT * FROM} the target with the statement's own
 * WHERE, ORDER BY and LIMIT, {@code FOR UPDATE} (globally ordered and limited by the merger; its
 * {@code ?} are the statement's from {@code firstParam} on); then the write without its ORDER BY and
 * LIMIT, its WHERE and-ed with the chosen rows' keys. Offsets are the statement's digest's: the
 * WHERE condition spans [{@code whereStart}, {@code whereEnd}) (-1: no WHERE), the ORDER BY / LIMIT
 * clause starts at {@code orderLimitStart}, before which the statement has {@code paramsBefore} {@code ?};
 * the target table (with its alias) spans [{@code targetStart}, {@code targetEnd}), so the same
 * choice can be written again from the user's own text (a write with subqueries chooses its rows
 * through a SELECT the federated tier answers: see {@link #text}).
 *
 * <p>An UPDATE of the target's sharding column chooses its rows the same way, ORDER BY / LIMIT or not
 * ({@code moves} non-null, {@code orderLimitStart} then the text's end): its rows may have to move to
 * other nodes, so they are found first, each with its assignments' values computed on its old row
 * ({@code SELECT *, (e1), (e2) …}, the select list's last {@code moves.assigned().size()} items).
 */
public record RowChoice(Select select, int firstParam, int whereStart, int whereEnd, int orderLimitStart, int paramsBefore,
                        int targetStart, int targetEnd, Moves moves) {
    /**
     * The assignments of an UPDATE that moves rows: the columns in order, and for each whether its
     * expression reads no column assigned before it (MySQL evaluates SET left to right, each
     * assignment seeing the ones before, so only such a value is the row's new one when computed on
     * the old row); {@code ignore}: UPDATE IGNORE.
     */
    public record Moves(List<String> assigned, List<Boolean> standalone, boolean ignore, List<Integer> valueSpans) {
        public Moves {
            assigned = List.copyOf(assigned);
            standalone = List.copyOf(standalone);
            valueSpans = List.copyOf(valueSpans);
        }
    }

    private static final java.util.Set<String> UPDATE_MODIFIERS = java.util.Set.of("low_priority", "ignore");
    private static final java.util.Set<String> DELETE_MODIFIERS = java.util.Set.of("low_priority", "quick", "ignore");

    /** The choice for an analyzed UPDATE/DELETE with ORDER BY or LIMIT, or null for a form MySQL allows them in only on one table it cannot read (joins). */
    static RowChoice of(ParsedText parsed, ShardingRule rule, boolean update) {
        return of(parsed, rule, update, null, List.of());
    }

    /** {@code moves} and the digest spans of its assignments' expressions, for an UPDATE of the sharding column. */
    static RowChoice of(ParsedText parsed, ShardingRule rule, boolean update, Moves moves, List<int[]> assignedSpans) {
        String sql = parsed.sql;
        int orderLimit = parsed.masking.dmlOrderLimitStart() >= 0 ? parsed.masking.dmlOrderLimitStart() : sql.length();
        List<Token> tokens = new ArrayList<>();
        for (Token t : parsed.tokens) {
            if (t.kind() != Kind.COMMENT) {
                tokens.add(t);
            }
        }
        int i = 1;
        java.util.Set<String> modifiers = update ? UPDATE_MODIFIERS : DELETE_MODIFIERS;
        while (i < tokens.size() && modifiers.contains(tokens.get(i).lower())) {
            i++;
        }
        if (!update) {
            if (i >= tokens.size() || !tokens.get(i).is("from")) {
                return null; // DELETE t FROM ...: the multi-table form, which MySQL allows no ORDER BY / LIMIT in
            }
            i++;
        }
        int targetStart = i;
        int targetEnd = -1; // exclusive token index
        int where = -1;
        for (int j = targetStart; j < tokens.size() && tokens.get(j).start() < orderLimit; j++) {
            Token t = tokens.get(j);
            if (t.depth() != 0) {
                continue;
            }
            boolean ends = update ? t.is("set") : t.is("where");
            if (targetEnd < 0 && ends) {
                targetEnd = j;
            }
            if (t.is("where") && where < 0) {
                where = j;
            }
        }
        if (targetEnd < 0) {
            targetEnd = firstAt(tokens, orderLimit);
        }
        for (int j = targetStart; j < targetEnd; j++) {
            Token t = tokens.get(j);
            if (t.kind() == Kind.COMMA || t.kind() == Kind.OPEN || t.is("join") || t.is("using") || t.is("partition")) {
                return null; // several tables, or a PARTITION list: not a single-table write
            }
        }
        if (targetEnd <= targetStart) {
            return null;
        }
        int lastBefore = firstAt(tokens, orderLimit) - 1;
        int whereStart = where < 0 || where + 1 > lastBefore ? -1 : tokens.get(where + 1).start();
        int whereEnd = whereStart < 0 ? -1 : tokens.get(lastBefore).end();
        StringBuilder text = new StringBuilder("select *");
        for (int[] span : assignedSpans) {
            text.append(", (").append(sql, span[0], span[1]).append(')');
        }
        text.append(" from ").append(sql, tokens.get(targetStart).start(), tokens.get(targetEnd - 1).end());
        if (whereStart >= 0) {
            text.append(" where ").append(sql, whereStart, whereEnd);
        }
        String orderLimitText = sql.substring(orderLimit).strip();
        text.append(orderLimitText.isEmpty() ? "" : " ").append(orderLimitText).append(" for update");
        // the assignments' ? come first, as in the statement (its SET precedes its WHERE)
        int firstParam = assignedSpans.isEmpty() ? params(tokens, whereStart >= 0 ? whereStart : orderLimit) : 0;
        int paramsBefore = params(tokens, orderLimit);
        String chooser = text.toString();
        try {
            Select select = SelectAnalyzer.analyze(ParsedText.parse(chooser, DigestScanner.scan(chooser)), rule);
            return new RowChoice(select, firstParam, whereStart, whereEnd, orderLimit, paramsBefore, tokens.get(targetStart).start(),
                    tokens.get(targetEnd - 1).end(), moves);
        } catch (SqlParseException | ShardwiseException e) {
            return null; // not a SELECT the merger answers: the write stays refused across shards
        }
    }

    /**
     * The choosing SELECT in the user's own text ({@code original}: the statement's text, {@code at}
     * its digest offsets there): {@code SELECT * FROM} the target with the write's WHERE, ORDER BY and
     * LIMIT, {@code FOR UPDATE}; its {@code ?} are the statement's from {@link #firstParam} on.
     */
    public String text(String original, java.util.function.IntUnaryOperator at) {
        StringBuilder text = new StringBuilder("SELECT * FROM ").append(original, at.applyAsInt(targetStart), at.applyAsInt(targetEnd));
        if (whereStart >= 0) {
            text.append(" WHERE ").append(original, at.applyAsInt(whereStart), at.applyAsInt(whereEnd));
        }
        return text.append(' ').append(original.substring(at.applyAsInt(orderLimitStart)).strip()).append(" FOR UPDATE").toString();
    }

    /**
     * The choosing SELECT of a key move in the user's own text, as {@link #select} reads it: {@code SELECT *,
     * (value1), (value2) … FROM} the target with the write's WHERE, ORDER BY and LIMIT, {@code FOR UPDATE}; its
     * {@code ?} are the statement's, in order. Run by the tier that answers it, when its subqueries read other
     * shards (the session's key move with subqueries).
     */
    public String movesText(String original, java.util.function.IntUnaryOperator at) {
        StringBuilder text = new StringBuilder("SELECT *");
        List<Integer> spans = moves.valueSpans();
        for (int i = 0; i < spans.size(); i += 2) {
            text.append(", (").append(original, at.applyAsInt(spans.get(i)), at.applyAsInt(spans.get(i + 1))).append(')');
        }
        text.append(" FROM ").append(original, at.applyAsInt(targetStart), at.applyAsInt(targetEnd));
        if (whereStart >= 0) {
            text.append(" WHERE ").append(original, at.applyAsInt(whereStart), at.applyAsInt(whereEnd));
        }
        return text.append(' ').append(original.substring(at.applyAsInt(orderLimitStart)).strip()).append(" FOR UPDATE").toString();
    }

    /** The target table as the statement names it (with its alias), in the user's own text as in {@link #text}. */
    public String target(String original, java.util.function.IntUnaryOperator at) {
        return original.substring(at.applyAsInt(targetStart), at.applyAsInt(targetEnd));
    }

    private static int firstAt(List<Token> tokens, int offset) {
        for (int j = 0; j < tokens.size(); j++) {
            if (tokens.get(j).start() >= offset) {
                return j;
            }
        }
        return tokens.size();
    }

    private static int params(List<Token> tokens, int before) {
        int n = 0;
        for (Token t : tokens) {
            if (t.kind() == Kind.PARAM && t.start() < before) {
                n++;
            }
        }
        return n;
    }
}
