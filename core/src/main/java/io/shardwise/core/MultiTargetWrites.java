package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.MultiTable;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.TableRef;
import io.shardwise.core.sql.analyze.Update;
import io.shardwise.core.sql.normalize.Literal;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A multi-table UPDATE or DELETE whose rows do not meet on one node and that writes several tables, or names a
 * SET column without its table, run as one MySQL runs it, inside the caller's transaction (its own in autocommit
 * mode, opened by {@link PlanRunner}), each step answered by the tier that answers it:
 * <ul>
 *   <li>UPDATE: each unqualified SET column resolved to the one table of the FROM that has it, as MySQL
 *   resolves it (none: 1054, several: 1052); then one UPDATE per target, the user's FROM and WHERE with
 *   that target's assignments only — a one-target write (co-located, or the third tier's). MySQL reads every
 *   target's join rows before it changes the tables it buffers, and which table it changes while reading is
 *   its join order's choice; so the split is exact only when no part of the statement reads a column
 *   another target assigns (by name, conservatively), and otherwise refused: its answer would depend on an
 *   order MySQL does not define.</li>
 *   <li>DELETE: first every target's rows chosen ({@code SELECT t.* FROM <the user's FROM> WHERE …}), all
 *   before any is deleted, as MySQL reads the join before deleting; then each target's rows deleted by
 *   primary key ({@link KeyedWrites}). A target without a primary key is refused: no other statement can
 *   name its chosen rows.</li>
 * </ul>
 * Counts are the sums of the targets' (MySQL counts the changed or deleted rows of every table). The DELETE's
 * choice is a locking read ({@code FOR UPDATE}, stronger than the shared locks MySQL takes on the tables it only
 * reads: it may make a concurrent reader wait longer, never see other rows). Not thread-safe, as its session.
 */
final class MultiTargetWrites {
    private final Engine engine;
    private final EngineSession session;
    private final PlanRunner runner;

    MultiTargetWrites(Engine engine, EngineSession session, PlanRunner runner) {
        this.engine = engine;
        this.session = session;
        this.runner = runner;
    }

    /** Whether {@code statement} is a multi-table write run here when its tables do not meet on one node. */
    static boolean handles(Statement statement) {
        return switch (statement) {
            case Update u -> u.multi() != null && !u.limited() && (u.multi().targets().size() > 1 || !u.multi().targetsKnown());
            case Delete d -> d.multi() != null && !d.limited() && d.multi().targetsKnown() && d.multi().targets().size() > 1;
            default -> false;
        };
    }

    StatementResult run(Statement statement, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        return switch (statement) {
            case Update u -> update(u.multi(), normalized, source, params);
            case Delete d -> delete(d.multi(), normalized, source, params);
            default -> throw new ShardwiseException(ErrorCode.BUG, "a multi-target write of " + statement.getClass().getSimpleName());
        };
    }

    private StatementResult update(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params) {
        MultiTable.Spans spans = multi.spans();
        String text = source.text();
        int refsStart = source.at(spans.refsStart());
        int refsEnd = source.at(spans.refsEnd());
        int tail = source.at(spans.tailStart());
        List<MultiTable.Assigned> assignments = spans.assignments();
        Map<TableRef, Set<String>> columns = new HashMap<>();
        List<TableRef> owners = owners(multi, normalized, source, params, columns);
        List<TableRef> targets = targets(owners);
        refuseCrossReads(normalized, source, spans, owners, targets);
        List<StatementResult.Update> results = new ArrayList<>();
        for (TableRef target : targets) {
            StringBuilder sql = new StringBuilder(text.length() + 16).append(text, 0, refsEnd).append("SET ");
            List<int[]> pieces = new ArrayList<>();
            pieces.add(new int[] {0, refsEnd});
            boolean first = true;
            for (int i = 0; i < assignments.size(); i++) {
                if (owners.get(i) != target) {
                    continue;
                }
                MultiTable.Assigned a = assignments.get(i);
                int start = source.at(a.start());
                int end = source.at(a.end());
                sql.append(first ? "" : ", ");
                if (a.target() == null) {
                    sql.append(KeyedWrites.quoted(target.exposedName())).append('.');
                }
                sql.append(text, start, end);
                pieces.add(new int[] {start, end});
                first = false;
            }
            sql.append(' ').append(text, tail, text.length());
            pieces.add(new int[] {tail, text.length()});
            results.add(written(sql.toString(), params(normalized, params, pieces)));
        }
        return sum(results);
    }

    /**
     * A multi-table UPDATE with ORDER BY / LIMIT whose target rows span nodes, as MariaDB 11.4 runs it: it sorts the join's
     * rows by the ORDER BY, LIMIT counting join rows, and writes each target row once, from the first chosen join row meeting
     * it. Here the join rows are chosen first ({@code SELECT <every joined table's primary key> FROM <the user's FROM> WHERE …
     * ORDER BY … LIMIT … FOR UPDATE}, answered by the tier that answers it), then each target is written by the user's
     * FROM and WHERE without ORDER BY / LIMIT, and-ed with the keys of the join rows that are the first to meet one of its
     * rows: each of its rows then meets exactly that one join row, so its values (also those read from the other tables),
     * matched and changed counts and warnings are MariaDB's. Refused (1235, with the reason): an ORDER BY not ordering the
     * join rows totally (by every joined table's primary key; otherwise MariaDB's choice among equal rows is its own), no
     * ORDER BY, a joined table without a primary key or a derived table, and several targets one of which reads a column
     * another assigns (as {@link #update}).
     */
    StatementResult limited(Update update, NormalizedSql normalized, CachedPlan plan, List<Object> params) {
        MultiTable multi = update.multi();
        SourceText source = SourceText.original(normalized, plan.digestTokenOffsets());
        String text = source.text();
        MultiTable.Spans spans = multi.spans();
        int refsStart = source.at(spans.refsStart());
        int refsEnd = source.at(spans.refsEnd());
        int tail = source.at(spans.tailStart());
        if (!multi.derived().isEmpty()) {
            throw refused("a derived table in its FROM");
        }
        // the tail's clauses at paren depth 0: WHERE …, ORDER BY …, LIMIT …
        int where = -1;
        int order = -1;
        int by = -1;
        int limit = -1;
        int end = text.length();
        int depth = 0;
        for (int k = 0; k < normalized.tokenCount(); k++) {
            int at = normalized.tokenStart(k);
            String token = text.substring(at, normalized.tokenEnd(k));
            if (at < tail) {
                continue;
            }
            if (token.equals("(")) {
                depth++;
            } else if (token.equals(")")) {
                depth--;
            } else if (depth == 0 && token.equals(";")) {
                end = at;
                break;
            } else if (depth == 0 && token.equalsIgnoreCase("where") && where < 0 && order < 0 && limit < 0) {
                where = normalized.tokenEnd(k);
            } else if (depth == 0 && token.equalsIgnoreCase("order") && order < 0 && limit < 0) {
                order = at;
            } else if (depth == 0 && token.equalsIgnoreCase("by") && order >= 0 && by < 0) {
                by = normalized.tokenEnd(k);
            } else if (depth == 0 && token.equalsIgnoreCase("limit") && limit < 0) {
                limit = at;
            }
        }
        if (order < 0 || by < 0) {
            throw refused("no ORDER BY (MariaDB's choice of the join rows LIMIT counts is its own)");
        }
        int whereEnd = order;
        int orderEnd = limit >= 0 ? limit : end;
        Map<TableRef, Set<String>> columns = new HashMap<>();
        List<TableRef> owners = owners(multi, normalized, source, params, columns);
        List<TableRef> targets = targets(owners);
        refuseCrossReads(normalized, source, spans, owners, targets);
        // every joined table's primary key, in the FROM's order: one join row's identity
        List<TableRef> top = multi.top();
        List<List<String>> keys = new ArrayList<>();
        StringBuilder select = new StringBuilder("SELECT ");
        for (TableRef t : top) {
            List<String> key = new ArrayList<>();
            for (Column c : runner.declared(tableText(t))) {
                if (KeyedWrites.primaryKey(List.of(c)).size() == 1) {
                    key.add(KeyedWrites.name(c));
                    select.append(select.length() == 7 ? "" : ", ").append(KeyedWrites.quoted(t.exposedName())).append('.')
                            .append(KeyedWrites.quoted(KeyedWrites.name(c)));
                }
            }
            if (key.isEmpty()) {
                throw refused("table '" + t.name() + "', which has no primary key to name the chosen join rows by");
            }
            keys.add(key);
        }
        refuseTies(multi, normalized, source, params, columns, text.substring(by, orderEnd), keys);
        select.append(" FROM ").append(text, refsStart, refsEnd);
        if (where >= 0) {
            select.append(" WHERE ").append(text, where, whereEnd);
        }
        select.append(' ').append(text, order, end).append(" FOR UPDATE");
        NormalizedSql chooser = session.normalize(select.toString());
        CachedPlan chooserPlan = engine.plan(chooser);
        List<Object> chooserParams = params(normalized, params, where >= 0
                ? List.of(new int[] {refsStart, refsEnd}, new int[] {where, end}) : List.of(new int[] {refsStart, refsEnd}, new int[] {order, end}));
        List<byte[][]> rows;
        List<Column> cells;
        StatementResult chosen = runner.select((Select) chooserPlan.statement(), chooser, chooserPlan, chooserParams);
        try (ResultCursor cursor = ((StatementResult.Rows) chosen).cursor()) {
            cells = cursor.columns();
            rows = KeyedWrites.read(cursor);
        }
        List<StatementResult.Update> results = new ArrayList<>();
        List<MultiTable.Assigned> assignments = spans.assignments();
        for (TableRef target : targets) {
            int first = 0; // the target's key cells start here
            for (int i = 0; i < top.size() && top.get(i) != target; i++) {
                first += keys.get(i).size();
            }
            int width = keys.get(indexOf(top, target)).size();
            Map<List<String>, byte[][]> firsts = new java.util.LinkedHashMap<>();
            for (byte[][] row : rows) {
                List<String> key = new ArrayList<>();
                boolean missing = false;
                for (int c = first; c < first + width; c++) {
                    missing |= row[c] == null;
                    key.add(row[c] == null ? "" : java.util.HexFormat.of().formatHex(row[c]));
                }
                if (!missing) { // an outer join's missing row is no row of the target's
                    firsts.putIfAbsent(key, row);
                }
            }
            StringBuilder predicate = new StringBuilder();
            for (byte[][] row : firsts.values()) {
                predicate.append(predicate.isEmpty() ? "(" : " OR (");
                int c = 0;
                for (int i = 0; i < top.size(); i++) {
                    for (String column : keys.get(i)) {
                        predicate.append(c == 0 ? "" : " AND ").append(KeyedWrites.quoted(top.get(i).exposedName())).append('.')
                                .append(KeyedWrites.quoted(column)).append(" <=> ").append(KeyedWrites.literal(row[c], cells.get(c),
                                        normalized.lexicalMode()));
                        c++;
                    }
                }
                predicate.append(')');
            }
            StringBuilder sql = new StringBuilder(text.length() + predicate.length() + 32).append(text, 0, refsEnd).append("SET ");
            List<int[]> pieces = new ArrayList<>();
            pieces.add(new int[] {0, refsEnd});
            boolean firstAssigned = true;
            for (int i = 0; i < assignments.size(); i++) {
                if (owners.get(i) != target) {
                    continue;
                }
                MultiTable.Assigned a = assignments.get(i);
                int start = source.at(a.start());
                int stop = source.at(a.end());
                sql.append(firstAssigned ? "" : ", ");
                if (a.target() == null) {
                    sql.append(KeyedWrites.quoted(target.exposedName())).append('.');
                }
                sql.append(text, start, stop);
                pieces.add(new int[] {start, stop});
                firstAssigned = false;
            }
            sql.append(" WHERE ");
            if (where >= 0) {
                sql.append('(').append(text, where, whereEnd).append(") AND ");
                pieces.add(new int[] {where, whereEnd});
            }
            sql.append(firsts.isEmpty() ? "FALSE" : predicate.length() > 0 ? "(" + predicate + ")" : "FALSE");
            results.add(written(sql.toString(), params(normalized, params, pieces)));
        }
        return sum(results);
    }

    /**
     * Refuses an ORDER BY that does not order the join rows totally: each joined table's primary key columns must all be
     * among its items that are plain columns (unqualified ones resolved as MySQL resolves them).
     */
    private void refuseTies(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params,
                            Map<TableRef, Set<String>> columns, String items, List<List<String>> keys) {
        String refs = source.text().substring(source.at(multi.spans().refsStart()), source.at(multi.spans().refsEnd()));
        Map<TableRef, Set<String>> ordered = new HashMap<>();
        for (String item : splitTopLevel(items)) {
            String s = item.strip().replaceFirst("(?i)\\s+(asc|desc)$", "");
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?:(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)\\s*\\.\\s*)?(`(?:[^`]|``)+`|[A-Za-z0-9_$]+)")
                    .matcher(s);
            if (!m.matches()) {
                continue; // an expression: it may order, but does not say it orders totally
            }
            String qualifier = m.group(1) == null ? null : identifier(m.group(1));
            String column = identifier(m.group(2));
            TableRef owner = null;
            if (qualifier != null) {
                for (TableRef t : multi.top()) {
                    owner = owner == null && t.exposedName().equalsIgnoreCase(qualifier) ? t : owner;
                }
            } else if (column != null) {
                owner = owner(column, multi, normalized, params, source, refs, columns);
            }
            if (owner != null && column != null) {
                ordered.computeIfAbsent(owner, t -> new HashSet<>()).add(column.toLowerCase(Locale.ROOT));
            }
        }
        for (int i = 0; i < multi.top().size(); i++) {
            TableRef t = multi.top().get(i);
            for (String column : keys.get(i)) {
                if (!ordered.getOrDefault(t, Set.of()).contains(column.toLowerCase(Locale.ROOT))) {
                    throw refused("an ORDER BY that does not order the join rows totally (by every joined table's primary key:"
                            + " '" + t.exposedName() + "." + column + "' missing), whose ties MariaDB breaks as it chooses");
                }
            }
        }
    }

    /** The comma-separated parts of {@code text} outside parentheses and quotes. */
    private static List<String> splitTopLevel(String text) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        char quote = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(text.substring(start, i));
                start = i + 1;
            }
        }
        out.add(text.substring(start));
        return out;
    }

    private static ShardwiseException refused(String why) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, "ORDER BY or LIMIT in a multi-table UPDATE whose target rows span shards"
                + " with " + why);
    }

    /** Each assignment's table: its qualifier's reference, or the one table of the FROM having its column. */
    private List<TableRef> owners(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params,
                                  Map<TableRef, Set<String>> columns) {
        String refs = source.text().substring(source.at(multi.spans().refsStart()), source.at(multi.spans().refsEnd()));
        List<TableRef> owners = new ArrayList<>();
        for (MultiTable.Assigned a : multi.spans().assignments()) {
            owners.add(a.target() != null ? a.target() : owner(a.column(), multi, normalized, params, source, refs, columns));
        }
        return owners;
    }

    /** The distinct references of {@code owners}, in their first assignment's order. */
    private static List<TableRef> targets(List<TableRef> owners) {
        List<TableRef> targets = new ArrayList<>();
        for (TableRef t : owners) {
            if (indexOf(targets, t) < 0) {
                targets.add(t);
            }
        }
        return targets;
    }

    private StatementResult delete(MultiTable multi, NormalizedSql normalized, SourceText source, List<Object> params) {
        String text = source.text();
        int refsStart = source.at(multi.spans().refsStart());
        List<Object> fromParams = params(normalized, params, List.of(new int[] {refsStart, text.length()}));
        List<String> deletes = new ArrayList<>();
        // every target's rows chosen before any is deleted: MySQL reads the whole join first
        for (TableRef target : multi.targets()) {
            String table = tableText(target);
            List<Column> declared = runner.declared(table);
            if (KeyedWrites.primaryKey(declared).isEmpty()) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table DELETE across shards of table '" + target.name()
                        + "', which has no primary key to delete the joined rows by");
            }
            // a locking read: MySQL's DELETE locks the join rows it reads until the transaction ends, so neither a
            // chosen row nor a row it was chosen by changes before the delete by key (on the third tier the copies'
            // source reads lock them on their own nodes)
            NormalizedSql chooser = session.normalize("SELECT " + KeyedWrites.quoted(target.exposedName()) + ".* FROM "
                    + text.substring(refsStart) + " FOR UPDATE");
            CachedPlan chooserPlan = engine.plan(chooser);
            String shardingColumn = engine.rule().table(target.name()) instanceof TableRule.Sharded s ? s.keyColumn() : "";
            String predicate;
            StatementResult chosen = runner.select((Select) chooserPlan.statement(), chooser, chooserPlan, fromParams);
            try (ResultCursor rows = ((StatementResult.Rows) chosen).cursor()) {
                predicate = KeyedWrites.predicate(rows, declared, target.name(), shardingColumn, normalized.lexicalMode());
            }
            if (!predicate.equals("FALSE")) {
                deletes.add("DELETE FROM " + table + " WHERE " + predicate);
            }
        }
        List<StatementResult.Update> results = new ArrayList<>();
        for (String delete : deletes) {
            results.add(written(delete, List.of()));
        }
        return sum(results);
    }

    /** One target's write, through the engine as a statement of its own (in the same transaction). */
    private StatementResult.Update written(String sql, List<Object> params) {
        NormalizedSql written = session.normalize(sql);
        CachedPlan writePlan = engine.plan(written);
        return (StatementResult.Update) runner.keyable(writePlan.statement(), null, written, writePlan, params);
    }

    /**
     * The reference whose table has {@code column}, as MySQL resolves a SET column without a qualifier among the
     * FROM's tables and derived tables (a derived table's columns as a query of it names them, or its own column
     * list): 1054 when none has it, 1052 when several do. A column only a derived table has is refused: MySQL
     * writes through a derived table it merges into the statement and refuses one it materializes (1288), a choice
     * of its optimizer's.
     */
    private TableRef owner(String column, MultiTable multi, NormalizedSql normalized, List<Object> params, SourceText source,
                           String refs, Map<TableRef, Set<String>> columns) {
        List<TableRef> top = multi.top();
        String lower = column.toLowerCase(Locale.ROOT);
        boolean inDerived = false;
        for (MultiTable.Derived d : multi.derived()) {
            boolean has = false;
            if (d.start() < 0) {
                throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE over a derived table whose SET column '"
                        + column + "' names no table, spanning shards");
            } else if (d.columns() != null) {
                for (String c : d.columns()) {
                    has |= c.equalsIgnoreCase(column);
                }
            } else {
                int start = source.at(d.start());
                int end = source.at(d.end());
                // its ? bound to the statement's values: the names a query of it returns with them (read per execution, never
                // kept with the plan, so another execution's values name its own columns)
                List<Object> derivedParams = params(normalized, params, List.of(new int[] {start, end}));
                for (Column c : runner.declared(source.text().substring(start, end) + " AS " + KeyedWrites.quoted(d.alias()),
                        derivedParams)) {
                    has |= KeyedWrites.name(c).equalsIgnoreCase(column);
                }
            }
            if (has && inDerived) {
                throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, column, "field list");
            }
            inDerived |= has;
        }
        if (multi.derived().isEmpty() && refs.toLowerCase(Locale.ROOT).matches("(?s).*\\bselect\\b.*")) {
            // a query in the FROM that is no aliased derived table read by the analyzer: its columns are unknown here
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE over a derived table whose SET column '"
                    + column + "' names no table, spanning shards");
        }
        TableRef owner = null;
        for (TableRef t : top) {
            Set<String> names = columns.computeIfAbsent(t, r -> {
                Set<String> out = new HashSet<>();
                for (Column c : runner.declared(tableText(r))) {
                    out.add(KeyedWrites.name(c).toLowerCase(Locale.ROOT));
                }
                return out;
            });
            if (names.contains(lower)) {
                if (owner != null || inDerived) {
                    throw new ShardwiseException(ErrorCode.AMBIGUOUS_FIELD, column, "field list");
                }
                owner = t;
            }
        }
        if (owner == null && inDerived) {
            throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE spanning shards whose SET column '" + column
                    + "' is a derived table's (MySQL writes through a derived table it merges, and refuses one it materializes)");
        }
        if (owner == null) {
            throw new ShardwiseException(ErrorCode.BAD_FIELD, column, "field list");
        }
        return owner;
    }

    /**
     * Refuses the split when a part one target's write reads (the FROM, the WHERE, its own values) names a column
     * another target assigns: an identifier of that name, unqualified or qualified by that target's reference.
     */
    private static void refuseCrossReads(NormalizedSql normalized, SourceText source, MultiTable.Spans spans, List<TableRef> owners,
                                         List<TableRef> targets) {
        if (targets.size() < 2) {
            return;
        }
        List<MultiTable.Assigned> assignments = spans.assignments();
        int[] starts = new int[assignments.size()];
        int[] columnEnds = new int[assignments.size()];
        int[] ends = new int[assignments.size()];
        for (int i = 0; i < assignments.size(); i++) {
            starts[i] = source.at(assignments.get(i).start());
            columnEnds[i] = source.at(assignments.get(i).columnEnd());
            ends[i] = source.at(assignments.get(i).end());
        }
        int refsStart = source.at(spans.refsStart());
        String sql = source.text();
        for (int k = 0; k < normalized.tokenCount(); k++) {
            int at = normalized.tokenStart(k);
            if (at < refsStart) {
                continue;
            }
            String name = identifier(sql.substring(at, normalized.tokenEnd(k)));
            if (name == null) {
                continue;
            }
            String qualifier = k >= 2 && sql.startsWith(".", normalized.tokenStart(k - 1))
                    ? identifier(sql.substring(normalized.tokenStart(k - 2), normalized.tokenEnd(k - 2))) : null;
            int in = -1; // the assignment the token is in, or -1: the FROM or the WHERE, read by every target's write
            for (int i = 0; i < starts.length && in < 0; i++) {
                if (at >= starts[i] && at < ends[i]) {
                    in = i;
                }
            }
            if (in >= 0 && at < columnEnds[in]) {
                continue; // the assigned column itself
            }
            for (int i = 0; i < assignments.size(); i++) {
                TableRef assigner = owners.get(i);
                boolean readByOther = in < 0 || owners.get(in) != assigner;
                if (readByOther && assignments.get(i).column().equalsIgnoreCase(name)
                        && (qualifier == null || qualifier.equalsIgnoreCase(assigner.exposedName()))) {
                    throw new ShardwiseException(ErrorCode.UNSUPPORTED, "a multi-table UPDATE spanning shards that reads column '" + name
                            + "', which it assigns in table '" + assigner.exposedName() + "' (MySQL reads it before or after the change"
                            + " as its join order falls)");
                }
            }
        }
    }

    /** A token's identifier (backticks removed), or null when it is no name (a literal, an operator). */
    private static String identifier(String token) {
        if (token.length() > 1 && token.charAt(0) == '`') {
            return token.substring(1, token.length() - 1).replace("``", "`");
        }
        if (token.isEmpty() || !(Character.isLetter(token.charAt(0)) || token.charAt(0) == '_' || token.charAt(0) == '$')) {
            return null;
        }
        return token;
    }

    /** The client's {@code ?} values of the statement's parts spanning {@code pieces} (original offsets), in their order. */
    private static List<Object> params(NormalizedSql normalized, List<Object> params, List<int[]> pieces) {
        if (params.isEmpty()) {
            return params;
        }
        List<Object> out = new ArrayList<>();
        for (int[] piece : pieces) {
            int p = 0;
            for (Literal l : normalized.literals()) {
                if (l.isParameter()) {
                    if (l.start() >= piece[0] && l.start() < piece[1]) {
                        out.add(params.get(p));
                    }
                    p++;
                }
            }
        }
        return out;
    }

    private static String tableText(TableRef t) {
        return t.schema() == null ? KeyedWrites.quoted(t.name()) : KeyedWrites.quoted(t.schema()) + "." + KeyedWrites.quoted(t.name());
    }

    private static int indexOf(List<TableRef> refs, TableRef ref) {
        for (int i = 0; i < refs.size(); i++) {
            if (refs.get(i) == ref) {
                return i;
            }
        }
        return -1;
    }

    /** The targets' results as one: counts, warnings and the info string's numbers summed. */
    private static StatementResult.Update sum(List<StatementResult.Update> results) {
        long affected = 0;
        int warnings = 0;
        String[] labels = null;
        long[] sums = null;
        boolean infos = true;
        for (StatementResult.Update u : results) {
            affected += u.affectedRows();
            warnings += u.warnings();
            if (labels == null && !u.info().isEmpty()) {
                labels = WriteInfo.labels(u.info());
                sums = labels == null ? null : new long[labels.length];
            }
            infos &= labels != null && WriteInfo.add(u.info(), labels, sums);
        }
        return new StatementResult.Update(affected, 0, List.of(), warnings, infos && labels != null ? WriteInfo.format(labels, sums) : "");
    }
}
