package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.parser.SqlParseException;

/**
 * Reads MySQL's multi-table UPDATE and DELETE, which Calcite's parser lacks, as the SELECT over the same
 * FROM that it reads, masked in place (so every slot lands in the user's text):
 * <pre>
 *   UPDATE refs SET a = x, b = y [WHERE w]   →  SELECT * FROM refs WHERE shardwise_set(a = x, b = y) [AND (w)]
 *   DELETE t1, t2 FROM refs [WHERE w]        →  SELECT *          FROM refs [WHERE w]
 *   DELETE FROM t1, t2 USING refs [WHERE w]  →  SELECT * FROM                 refs [WHERE w]
 * </pre>
 * The SET values stay inside the WHERE (their subqueries and qualifiers are found there) in a conjunct that
 * says nothing about any key, so the key conditions read are the user's WHERE's and the inner joins' ON.
 *
 * <p>ORDER BY and LIMIT stay in an UPDATE's text for the backend: MariaDB applies them to the join's rows ({@code limited}: a
 * route spanning nodes is refused; MySQL refuses them, 1221); after a multi-table DELETE they are MariaDB's syntax error (1064),
 * returned here whatever the route. A form not read here (a schema-qualified DELETE target, a SET that is not {@code
 * column = value}) returns null: the caller reads the statement as before.
 */
final class MultiTableWrites {
    private static final Set<String> MODIFIERS = Set.of("low_priority", "ignore", "quick");
    /** The function the SET list is read as (Calcite reads any name as a call; a ROW is refused in a WHERE). */
    private static final String SET_CALL = "shardwise_set";

    private MultiTableWrites() {}

    /** The multi-table UPDATE or DELETE, or null when the statement is not one read here. */
    static Statement analyze(String sql, List<Token> tokens, ShardingRule rule) throws SqlParseException {
        List<Token> m = new ArrayList<>();
        for (Token t : tokens) {
            if (t.kind() != Kind.COMMENT) {
                m.add(t);
            }
        }
        int from = 1;
        while (from < m.size() && m.get(from).kind() == Kind.WORD && MODIFIERS.contains(m.get(from).lower())) {
            from++;
        }
        if (from >= m.size()) {
            return null;
        }
        return m.get(0).is("update") ? update(sql, tokens, m, from, rule) : delete(sql, tokens, m, from, rule);
    }

    private static Statement update(String sql, List<Token> tokens, List<Token> m, int from, ShardingRule rule) throws SqlParseException {
        int set = -1;
        boolean joined = false;
        for (int j = from; j < m.size() && set < 0; j++) {
            Token t = m.get(j);
            if (t.depth() == 0 && t.is("set")) {
                set = j;
            } else if (t.depth() == 0) {
                joined |= t.kind() == Kind.COMMA || t.is("join") || t.is("straight_join");
            }
        }
        if (set < 0 || !joined) {
            return null;
        }
        int where = word(m, set + 1, "where");
        int end = end(m, set + 1);
        Token verb = m.get(0);
        Token setToken = m.get(set);
        ParsedText parsed = ParsedText.parse(sql, tokens, masked -> {
            masked.replace(verb.start(), verb.end(), "select * from");
            masked.replace(setToken.start(), setToken.end(), "where " + SET_CALL + "(");
            if (where >= 0) {
                masked.replace(m.get(where).start(), m.get(where).end(), ") and (");
            }
            masked.replace(end, end, ")");
        });
        if (!(parsed.node instanceof SqlSelect select) || !(select.getWhere() instanceof SqlCall condition)) {
            return null;
        }
        SqlNode userWhere = where >= 0 ? condition.operand(1) : null;
        if (!((where >= 0 ? condition.operand(0) : condition) instanceof SqlCall row)
                || !row.getOperator().getName().equalsIgnoreCase(SET_CALL)) {
            return null;
        }
        Read read = read(parsed, rule, select, userWhere);
        List<String> assigned = new ArrayList<>();
        List<TableRef> targets = new ArrayList<>();
        List<MultiTable.Assigned> spans = new ArrayList<>();
        List<int[]> pieces = assignments(m, set + 1, where >= 0 ? where : tail(m, set + 1));
        if (pieces.size() != row.getOperandList().size()) {
            return null;
        }
        boolean known = true;
        for (SqlNode assignment : row.getOperandList()) {
            if (!(assignment instanceof SqlCall eq) || eq.getKind() != SqlKind.EQUALS || !(eq.operand(0) instanceof SqlIdentifier column)) {
                return null;
            }
            String name = column.names.get(column.names.size() - 1);
            TableRef target = column.names.size() > 1 ? exposed(read.from.topTables, column.names.get(column.names.size() - 2)) : null;
            assigned.add(name);
            int[] piece = pieces.get(assigned.size() - 1);
            spans.add(new MultiTable.Assigned(target, name, piece[0], piece[1], piece[2]));
            known &= target != null;
            if (target != null && !containsRef(targets, target)) {
                targets.add(target);
            }
        }
        int[] last = pieces.get(pieces.size() - 1);
        MultiTable multi = multi(read, targets, known, new MultiTable.Spans(m.get(from).start(), setToken.start(), last[2], spans));
        return new Update(new SqlTemplate(sql, read.slots), tables(read.from, multi), read.conditions, assigned, limited(m, set + 1),
                read.from.nested, null, multi);
    }

    private static Statement delete(String sql, List<Token> tokens, List<Token> m, int first, ShardingRule rule) throws SqlParseException {
        boolean using = m.get(first).is("from");
        int namesFrom = using ? first + 1 : first;
        int namesEnd = word(m, namesFrom, using ? "using" : "from"); // exclusive: the USING or FROM token
        if (namesEnd <= namesFrom) {
            return null;
        }
        List<Token> names = new ArrayList<>();
        for (int j = namesFrom; j < namesEnd; j++) {
            Token t = m.get(j);
            boolean name = t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID;
            if (name && (names.isEmpty() || m.get(j - 1).kind() == Kind.COMMA)) {
                names.add(t);
            } else if (!(t.kind() == Kind.COMMA
                    || t.text().equals(".") && j + 1 < namesEnd && m.get(j + 1).text().equals("*")
                    || t.text().equals("*") && m.get(j - 1).text().equals("."))) {
                return null; // db.t targets are not read here
            }
        }
        boolean joined = names.size() > 1;
        for (int j = namesEnd + 1; j < m.size() && !joined; j++) {
            Token t = m.get(j);
            if (t.depth() == 0 && t.is("where")) {
                break;
            }
            joined = t.depth() == 0 && (t.kind() == Kind.COMMA || t.is("join") || t.is("straight_join"));
        }
        if (!joined) {
            return null; // DELETE t FROM t [alias] WHERE ...: read by the single-table path
        }
        if (limited(m, namesEnd + 1)) {
            // MariaDB's grammar (and MySQL's) has no ORDER BY or LIMIT after a multi-table DELETE: its syntax error, on one node
            // or several
            throw new SyntaxErrorNear(sql, m.get(tail(m, namesEnd + 1)).start());
        }
        Token verb = m.get(0);
        int cutStart = m.get(namesFrom).start();
        int cutEnd = using ? m.get(namesEnd).end() : m.get(namesEnd - 1).end();
        ParsedText parsed = ParsedText.parse(sql, tokens, masked -> {
            masked.replace(verb.start(), verb.end(), "select *");
            masked.replace(cutStart, cutEnd, " ");
        });
        if (!(parsed.node instanceof SqlSelect select)) {
            return null;
        }
        Read read = read(parsed, rule, select, select.getWhere());
        List<TableRef> targets = new ArrayList<>();
        boolean known = true;
        for (Token name : names) {
            TableRef target = exposed(read.from.topTables, DigestScanner.identifier(name));
            if (target == null) {
                known = false; // MySQL's 1109 (unknown table in MULTI DELETE), from the backend
                continue;
            }
            if (target.alias() == null && read.from.isLogical(target)) {
                read.slots.add(new Slot.Table(name.start(), name.end(), target.name())); // renamed with its reference
            }
            if (!containsRef(targets, target)) {
                targets.add(target);
            }
        }
        int tailStart = where(m, namesEnd + 1);
        MultiTable multi = multi(read, targets, known, new MultiTable.Spans(m.get(namesEnd).end(), tailStart, tailStart, List.of()));
        return new Delete(new SqlTemplate(sql, read.slots), tables(read.from, multi), read.conditions, limited(m, namesEnd + 1),
                read.from.nested,
                null, multi);
    }

    /** The FROM's references, the slots and the key conditions of the masked SELECT, as {@link SelectAnalyzer} reads them. */
    private record Read(FromWalker from, List<Slot> slots, Map<TableRef, KeyCondition> conditions, List<Select.KeyJoin> keyJoins) {}

    private static Read read(ParsedText parsed, ShardingRule rule, SqlSelect select, SqlNode userWhere) {
        FromWalker from = new FromWalker(parsed, rule);
        from.walkTop(select.getFrom());
        from.nestedIn(select.getWhere()); // the SET values too
        from.qualifierSlots(select);
        List<Slot> slots = new ArrayList<>(from.slots);
        SelectAnalyzer.addParamSlots(parsed, slots);
        ConditionExtractor extractor = new ConditionExtractor(parsed, rule, from.topTables);
        List<SqlNode> where = new ArrayList<>(from.innerJoinConditions);
        if (userWhere != null) {
            where.add(userWhere);
        }
        Map<TableRef, KeyCondition> conditions = new HashMap<>(extractor.extract(where));
        conditions.keySet().removeAll(from.nullSupplying);
        extractor.keyJoinsOnly(from.outerJoinConditions);
        extractor.keyJoins.addAll(from.usingJoins);
        return new Read(from, slots, conditions, extractor.keyJoins);
    }

    /** Every top reference is a possible target when the targets are not all known. */
    private static MultiTable multi(Read read, List<TableRef> targets, boolean known, MultiTable.Spans spans) {
        return new MultiTable(read.from.topTables, read.keyJoins, known ? targets : read.from.topTables, known, spans,
                read.from.derivedTables);
    }

    /**
     * The SET list's assignments between tokens {@code from} and {@code to} (exclusive), split at its depth-0 commas:
     * each as {start, end of its column, end}, or an empty list when one has no {@code =}.
     */
    private static List<int[]> assignments(List<Token> m, int from, int to) {
        List<int[]> out = new ArrayList<>();
        int first = from;
        int columnEnd = -1;
        for (int j = from; j <= to; j++) {
            if (j == to || m.get(j).depth() == 0 && m.get(j).kind() == Kind.COMMA) {
                if (columnEnd < 0 || j == first) {
                    return List.of();
                }
                out.add(new int[] {m.get(first).start(), columnEnd, m.get(j - 1).end()});
                first = j + 1;
                columnEnd = -1;
            } else if (columnEnd < 0 && m.get(j).depth() == 0 && m.get(j).text().equals("=")) {
                columnEnd = m.get(j - 1).end();
            }
        }
        return out;
    }

    /** Where a DELETE's WHERE (or ORDER BY / LIMIT, or its end) starts, from token {@code from}. */
    private static int where(List<Token> m, int from) {
        int w = word(m, from, "where");
        int t = tail(m, from);
        int at = w >= 0 && w < t ? w : t;
        return at < m.size() ? m.get(at).start() : m.get(m.size() - 1).end();
    }

    /** The statement's tables, its one target first when it has one (the third tier's writes read it there). */
    private static List<TableRef> tables(FromWalker from, MultiTable multi) {
        if (!multi.targetsKnown() || multi.targets().size() != 1) {
            return from.allTables;
        }
        TableRef target = multi.targets().get(0);
        List<TableRef> out = new ArrayList<>(from.allTables.size());
        out.add(target);
        for (TableRef t : from.allTables) {
            if (t != target) {
                out.add(t);
            }
        }
        return out;
    }

    /** The top reference exposed as {@code name} (its alias, else its name), or null. */
    private static TableRef exposed(List<TableRef> top, String name) {
        for (TableRef t : top) {
            if (t.exposedName().equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }

    private static boolean containsRef(List<TableRef> refs, TableRef ref) {
        for (TableRef r : refs) {
            if (r == ref) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the write ends in ORDER BY or LIMIT: MariaDB 11.4 applies them to a multi-table UPDATE's join rows (LIMIT counts
     * join rows; each target row is written once, from the first join row meeting it), which only one node's write does here;
     * a multi-table DELETE with them is its syntax error (1064), as MySQL's (whose UPDATE refuses them, 1221).
     */
    private static boolean limited(List<Token> m, int from) {
        return tail(m, from) < m.size() && m.get(tail(m, from)).kind() != Kind.SEMICOLON;
    }

    /** The index of the first depth-0 ORDER BY, LIMIT or semicolon from {@code from}, or the token count. */
    private static int tail(List<Token> m, int from) {
        for (int j = from; j < m.size(); j++) {
            Token t = m.get(j);
            if (t.depth() == 0 && (t.is("limit") || t.is("order") && j + 1 < m.size() && m.get(j + 1).is("by"))
                    || t.kind() == Kind.SEMICOLON) {
                return j;
            }
        }
        return m.size();
    }

    /** The index of the first depth-0 {@code word} from {@code from}, or -1. */
    private static int word(List<Token> m, int from, String word) {
        for (int j = from; j < m.size(); j++) {
            if (m.get(j).depth() == 0 && m.get(j).is(word)) {
                return j;
            }
        }
        return -1;
    }

    /**
     * Where the read SELECT's WHERE ends: after the last token before a depth-0 ORDER BY or LIMIT (masked away
     * by {@link CalciteMasking}) or a final semicolon.
     */
    private static int end(List<Token> m, int from) {
        return m.get(tail(m, from) - 1).end();
    }
}
