package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlDelete;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlUpdate;

/**
 * UPDATE and DELETE through Calcite (for their WHERE), INSERT and REPLACE by explicit token rules:
 * Calcite's VALUES positions are unreliable and it lacks ON DUPLICATE KEY UPDATE, IGNORE and
 * INSERT ... SET, which the rules read directly.
 */
final class DmlAnalyzer {
    private DmlAnalyzer() {}

    static Statement update(ParsedText parsed, ShardingRule rule) {
        SqlUpdate update = (SqlUpdate) parsed.node;
        FromWalker from = target(parsed, rule, update.getTargetTable(), update.getAlias(), update.getCondition());
        for (SqlNode value : update.getSourceExpressionList()) {
            from.nestedIn(value);
        }
        from.qualifierSlots(update);
        List<String> assigned = new ArrayList<>();
        for (SqlNode column : update.getTargetColumnList()) {
            SqlIdentifier id = (SqlIdentifier) column;
            assigned.add(id.names.get(id.names.size() - 1));
        }
        Map<TableRef, KeyCondition> conditions = conditions(parsed, rule, from, update.getCondition());
        List<Slot> slots = new ArrayList<>(from.slots);
        SelectAnalyzer.addParamSlots(parsed, slots);
        boolean limited = parsed.masking.dmlOrderLimitStart() >= 0;
        RowChoice choice = movesRows(from, rule, assigned) ? moving(parsed, rule, update, assigned)
                : limited ? RowChoice.of(parsed, rule, true) : null;
        return new Update(new SqlTemplate(parsed.sql, slots), from.allTables, conditions, assigned, limited, from.nested, choice);
    }

    /** Whether the UPDATE assigns its target's sharding column (a target of the logical schema). */
    private static boolean movesRows(FromWalker from, ShardingRule rule, List<String> assigned) {
        if (from.topTables.isEmpty() || !from.isLogical(from.topTables.get(0))
                || !(rule.table(from.topTables.get(0).name()) instanceof TableRule.Sharded sharded)) {
            return false;
        }
        for (String column : assigned) {
            if (column.equalsIgnoreCase(sharded.keyColumn())) {
                return true;
            }
        }
        return false;
    }

    /** The row choice of an UPDATE that may move rows: its assignments' values selected beside each row. */
    private static RowChoice moving(ParsedText parsed, ShardingRule rule, SqlUpdate update, List<String> assigned) {
        List<int[]> spans = new ArrayList<>();
        List<Boolean> standalone = new ArrayList<>();
        List<SqlNode> values = update.getSourceExpressionList().getList();
        for (int i = 0; i < values.size(); i++) {
            SqlNode value = values.get(i);
            spans.add(new int[] {parsed.start(value), parsed.end(value.getParserPosition())});
            standalone.add(!reads(value, assigned.subList(0, i)));
        }
        boolean ignore = false;
        for (Token t : parsed.tokens) {
            if (t.is("set")) {
                break;
            }
            ignore |= t.is("ignore");
        }
        List<Integer> flat = new ArrayList<>();
        for (int[] span : spans) {
            flat.add(span[0]);
            flat.add(span[1]);
        }
        return RowChoice.of(parsed, rule, true, new RowChoice.Moves(assigned, standalone, ignore, flat), spans);
    }

    /** Whether {@code node} names one of {@code columns} (by its last name part, as a column of any table). */
    private static boolean reads(SqlNode node, List<String> columns) {
        if (columns.isEmpty()) {
            return false;
        }
        boolean[] found = {false};
        node.accept(new org.apache.calcite.sql.util.SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                String name = id.names.get(id.names.size() - 1);
                for (String c : columns) {
                    found[0] |= c.equalsIgnoreCase(name);
                }
                return id;
            }
        });
        return found[0];
    }

    static Statement delete(ParsedText parsed, ShardingRule rule) {
        SqlDelete delete = (SqlDelete) parsed.node;
        FromWalker from = target(parsed, rule, delete.getTargetTable(), delete.getAlias(), delete.getCondition());
        from.qualifierSlots(delete);
        Map<TableRef, KeyCondition> conditions = conditions(parsed, rule, from, delete.getCondition());
        List<Slot> slots = new ArrayList<>(from.slots);
        int[] target = parsed.masking.deleteTarget();
        if (target != null && !from.topTables.isEmpty() && from.topTables.get(0).alias() == null && from.isLogical(from.topTables.get(0))) {
            // DELETE t FROM t ...: the name after DELETE is the table itself and is renamed with it
            slots.add(new Slot.Table(target[0], target[1], from.topTables.get(0).name()));
        }
        SelectAnalyzer.addParamSlots(parsed, slots);
        boolean limited = parsed.masking.dmlOrderLimitStart() >= 0;
        return new Delete(new SqlTemplate(parsed.sql, slots), from.allTables, conditions, limited, from.nested,
                limited && target == null ? RowChoice.of(parsed, rule, false) : null);
    }

    /** The walker over a write's target table (aliased or not) and the subqueries of its WHERE. */
    private static FromWalker target(ParsedText parsed, ShardingRule rule, SqlNode table, SqlIdentifier alias, SqlNode where) {
        FromWalker from = new FromWalker(parsed, rule);
        from.walkTop(alias == null ? table
                : org.apache.calcite.sql.fun.SqlStdOperatorTable.AS.createCall(table.getParserPosition(), table, alias));
        from.nestedIn(where);
        return from;
    }

    private static Map<TableRef, KeyCondition> conditions(ParsedText parsed, ShardingRule rule, FromWalker from, SqlNode where) {
        if (where == null) {
            return Map.of();
        }
        return new ConditionExtractor(parsed, rule, from.topTables).extract(List.of(where));
    }

    /**
     * INSERT/REPLACE [modifiers] [INTO] t [(cols)] VALUES|VALUE (row), ... [ON DUPLICATE KEY UPDATE ...],
     * or null when the statement has another form (INSERT ... SELECT, INSERT ... SET), which the
     * caller handles.
     */
    static Insert insert(String sql, List<Token> tokens, ShardingRule rule) {
        return insert(sql, tokens, rule, false, false);
    }

    /**
     * INSERT/REPLACE [modifiers] [INTO] t [(cols)] SELECT ... [ON DUPLICATE KEY UPDATE ...], with its
     * SELECT analyzed (without the ON DUPLICATE KEY UPDATE, whose assignments may name the SELECT's
     * columns: the session carries their values, see PlanRunner#insertSelect), or null for another form
     * or a SELECT that cannot be read.
     */
    static Insert insertSelect(String sql, List<Token> tokens, ShardingRule rule) {
        return insert(sql, tokens, rule, false, true);
    }

    private static Insert insert(String sql, List<Token> tokens, ShardingRule rule, boolean rewritten, boolean fromSelect) {
        int i = 1;
        boolean replace = tokens.get(0).is("replace");
        while (i < tokens.size() && tokens.get(i).kind() == Kind.WORD
                && Clauses.MODIFIERS.contains(tokens.get(i).lower()) || i < tokens.size() && isInsertModifier(tokens.get(i))) {
            i++;
        }
        if (i < tokens.size() && tokens.get(i).is("into")) {
            i++;
        }
        if (i >= tokens.size()) {
            return null;
        }
        // table name, possibly schema-qualified
        int nameStart = i;
        Token name = tokens.get(i);
        String schema = null;
        if (i + 2 < tokens.size() && tokens.get(i + 1).text().equals(".")) {
            schema = DigestScanner.identifier(name);
            name = tokens.get(i + 2);
            i += 2;
        }
        if (name.kind() != Kind.WORD && name.kind() != Kind.QUOTED_ID) {
            return null;
        }
        TableRef table = new TableRef(DigestScanner.identifier(name), schema, null);
        int nameEnd = name.end();
        i++;
        List<String> columns = new ArrayList<>();
        int columnsEnd = nameEnd;
        if (i < tokens.size() && tokens.get(i).kind() == Kind.OPEN) {
            int depth = tokens.get(i).depth();
            i++;
            while (i < tokens.size() && !(tokens.get(i).kind() == Kind.CLOSE && tokens.get(i).depth() == depth)) {
                Token t = tokens.get(i);
                if (t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID) {
                    // t.col qualifies with the table: keep the last part
                    if (i + 1 < tokens.size() && tokens.get(i + 1).text().equals(".")) {
                        i += 2;
                        continue;
                    }
                    columns.add(DigestScanner.identifier(t));
                }
                i++;
            }
            if (i >= tokens.size()) {
                return null;
            }
            columnsEnd = tokens.get(i).end();
            i++;
        }
        if (i < tokens.size() && tokens.get(i).is("set") && columns.isEmpty() && !rewritten) {
            String values = setAsValues(sql, tokens, i);
            if (values == null) {
                return null;
            }
            Insert insert = insert(values, DigestScanner.scan(values), rule, true, false);
            return insert == null ? null : insert.asRewritten();
        }
        if (fromSelect) {
            return i < tokens.size() ? fromSelect(sql, tokens, i, table, replace, columns, columnsEnd, rule) : null;
        }
        if (i >= tokens.size() || !(tokens.get(i).is("values") || tokens.get(i).is("value"))) {
            return null; // INSERT ... SELECT
        }
        i++;
        List<List<ValueRef>> rows = new ArrayList<>();
        List<int[]> spans = new ArrayList<>();
        int ordinal = paramsBefore(tokens, i);
        while (i < tokens.size()) {
            Token t = tokens.get(i);
            if (t.is("row")) {
                i++;
                continue;
            }
            if (t.kind() != Kind.OPEN) {
                break;
            }
            int depth = t.depth();
            int rowStart = t.start();
            List<ValueRef> row = new ArrayList<>();
            int valueStart = i + 1;
            i++;
            while (i < tokens.size() && !(tokens.get(i).kind() == Kind.CLOSE && tokens.get(i).depth() == depth)) {
                Token v = tokens.get(i);
                if (v.kind() == Kind.COMMA && v.depth() == depth + 1) {
                    row.add(valueOf(tokens, valueStart, i, ordinal));
                    ordinal += paramsIn(tokens, valueStart, i);
                    valueStart = i + 1;
                }
                i++;
            }
            if (i >= tokens.size()) {
                return null;
            }
            if (valueStart < i) {
                row.add(valueOf(tokens, valueStart, i, ordinal));
                ordinal += paramsIn(tokens, valueStart, i);
            }
            spans.add(new int[] {rowStart, tokens.get(i).end()});
            rows.add(row);
            i++;
            if (i < tokens.size() && tokens.get(i).kind() == Kind.COMMA) {
                i++;
            }
        }
        List<String> onDuplicate = new ArrayList<>();
        int tailStart = tokens.size();
        if (i < tokens.size() && tokens.get(i).is("as")) {
            return null; // VALUES ... AS alias: rare; analyzed as passthrough or refused by the caller
        }
        if (i + 3 < tokens.size() && tokens.get(i).is("on") && tokens.get(i + 1).is("duplicate")) {
            onDuplicate = changedOnDuplicate(tokens, i + 4);
            tailStart = i + 4;
        } else if (i < tokens.size() && tokens.get(i).kind() != Kind.SEMICOLON) {
            return null;
        }
        List<Slot> slots = new ArrayList<>();
        if (schemaIsLogical(schema, rule)) {
            slots.add(new Slot.Table(tokens.get(nameStart).start(), nameEnd, table.name()));
        }
        int p = 0;
        for (int j = 0; j < tokens.size(); j++) {
            Token t = tokens.get(j);
            if (t.kind() == Kind.PARAM) {
                slots.add(new Slot.Param(t.start(), t.end(), p++));
            } else if (j > tailStart && schemaIsLogical(schema, rule) && isName(t) && j + 1 < tokens.size()
                    && tokens.get(j + 1).text().equals(".") && !tokens.get(j - 1).text().equals(".")
                    && DigestScanner.identifier(t).equals(table.name())) {
                // t.col in ON DUPLICATE KEY UPDATE names the target table: renamed with it on each node
                slots.add(new Slot.Table(t.start(), t.end(), table.name()));
            }
        }
        return new Insert(new SqlTemplate(sql, slots), List.of(table), replace, columns, rows, spans, columnsEnd, onDuplicate);
    }

    /**
     * The columns an ON DUPLICATE KEY UPDATE list (from token {@code from}) assigns, leaving out
     * assignments that keep the column's value where the row lives: {@code c = c}, {@code c = t.c},
     * {@code c = VALUES(c)}. The last keeps a sharding column on its node because the row was routed
     * by that very value; the router refuses only the rest for a sharding column.
     */
    private static List<String> changedOnDuplicate(List<Token> tokens, int from) {
        List<String> changed = new ArrayList<>();
        int start = from;
        for (int j = from; j <= tokens.size(); j++) {
            boolean end = j == tokens.size() || tokens.get(j).depth() == 0
                    && (tokens.get(j).kind() == Kind.COMMA || tokens.get(j).kind() == Kind.SEMICOLON);
            if (!end) {
                continue;
            }
            int eq = -1;
            for (int k = start; k < j; k++) {
                if (tokens.get(k).depth() == 0 && tokens.get(k).text().equals("=")) {
                    eq = k;
                    break;
                }
            }
            if (eq > start) {
                Token column = tokens.get(eq - 1);
                String name = DigestScanner.identifier(column);
                if (!keepsValue(tokens.subList(eq + 1, j), name)) {
                    changed.add(name);
                }
            }
            if (j < tokens.size() && tokens.get(j).kind() == Kind.SEMICOLON) {
                break;
            }
            start = j + 1;
        }
        return changed;
    }

    /** Whether {@code value} is {@code column}, {@code t.column} or {@code VALUES(column)}. */
    private static boolean keepsValue(List<Token> value, String column) {
        int n = value.size();
        if (n == 1 || n == 3 && value.get(1).text().equals(".")) {
            Token last = value.get(n - 1);
            return isName(last) && DigestScanner.identifier(last).equalsIgnoreCase(column);
        }
        return n == 4 && (value.get(0).is("values") || value.get(0).is("value")) && value.get(1).kind() == Kind.OPEN
                && isName(value.get(2)) && DigestScanner.identifier(value.get(2)).equalsIgnoreCase(column)
                && value.get(3).kind() == Kind.CLOSE;
    }

    private static boolean isName(Token t) {
        return t.kind() == Kind.WORD || t.kind() == Kind.QUOTED_ID;
    }

    private static Insert fromSelect(String sql, List<Token> tokens, int i, TableRef table, boolean replace, List<String> columns,
                                     int columnsEnd, ShardingRule rule) {
        Token first = tokens.get(i);
        if (!(first.is("select") || first.is("with") || first.kind() == Kind.OPEN && i + 1 < tokens.size() && tokens.get(i + 1).is("select"))) {
            return null;
        }
        // ON DUPLICATE KEY UPDATE after the SELECT: the SELECT ends before it; its assignments go after each VALUES batch
        int update = -1;
        List<String> onDuplicate = List.of();
        for (int j = i; j + 1 < tokens.size(); j++) {
            if (tokens.get(j).depth() == 0 && tokens.get(j).is("on") && tokens.get(j + 1).is("duplicate")) {
                update = j;
                onDuplicate = changedOnDuplicate(tokens, j + 4);
                break;
            }
        }
        String text = update < 0 ? sql.substring(first.start()) : sql.substring(first.start(), tokens.get(update).start()).stripTrailing();
        Select select;
        try {
            select = SelectAnalyzer.analyze(ParsedText.parse(text, DigestScanner.scan(text)), rule);
        } catch (org.apache.calcite.sql.parser.SqlParseException | io.shardwise.core.error.ShardwiseException e) {
            return null;
        }
        List<TableRef> tables = new ArrayList<>();
        tables.add(table);
        tables.addAll(select.tables());
        boolean ignore = false;
        for (int k = 1; k < i && (isInsertModifier(tokens.get(k)) || tokens.get(k).kind() == Kind.COMMENT); k++) {
            ignore |= tokens.get(k).is("ignore");
        }
        InsertSource source = new InsertSource(select, paramsBefore(tokens, i), first.start(), ignore,
                update < 0 ? -1 : tokens.get(update).start());
        return new Insert(new SqlTemplate(sql, List.of()), tables, replace, columns, List.of(), List.of(), columnsEnd, onDuplicate, false,
                source);
    }

    /**
     * Why the SQL parser does not read the SELECT of an INSERT ... SELECT (the first line of its message: a table function
     * such as JSON_TABLE, say), or null when it reads it or the statement has no SELECT where one is looked for.
     */
    static String selectParseError(String sql, List<Token> tokens) {
        int start = -1;
        int end = sql.length();
        for (int j = 1; j < tokens.size(); j++) {
            Token t = tokens.get(j);
            if (t.depth() != 0) {
                continue;
            }
            if (start < 0 && (t.is("select") || t.is("with"))) {
                start = j;
            } else if (start >= 0 && t.is("on") && j + 1 < tokens.size() && tokens.get(j + 1).is("duplicate")) {
                end = t.start();
                break;
            }
        }
        if (start < 0) {
            return null;
        }
        String text = sql.substring(tokens.get(start).start(), end).stripTrailing();
        try {
            ParsedText.parse(text, DigestScanner.scan(text));
            return null;
        } catch (org.apache.calcite.sql.parser.SqlParseException e) {
            return e.getMessage() == null ? "parse error" : e.getMessage().lines().findFirst().orElse("parse error");
        }
    }

    /**
     * INSERT ... SET a = x, b = y [ON DUPLICATE KEY UPDATE ...] as INSERT ... (a, b) VALUES (x, y)
     * [ON DUPLICATE KEY UPDATE ...], MySQL's meaning of it, in digest text: the ? markers keep their
     * order (values come first in both), so the same bindings serve. Null when an assignment is not
     * {@code column = expression}.
     */
    private static String setAsValues(String sql, List<Token> tokens, int set) {
        StringBuilder columns = new StringBuilder();
        StringBuilder values = new StringBuilder();
        int start = set + 1;
        int j = start;
        for (; j <= tokens.size(); j++) {
            boolean tail = j < tokens.size() && tokens.get(j).depth() == 0 && tokens.get(j).is("on")
                    && j + 1 < tokens.size() && tokens.get(j + 1).is("duplicate");
            boolean end = j == tokens.size() || tail || tokens.get(j).depth() == 0
                    && (tokens.get(j).kind() == Kind.COMMA || tokens.get(j).kind() == Kind.SEMICOLON);
            if (!end) {
                continue;
            }
            int eq = -1;
            for (int k = start; k < j; k++) {
                if (tokens.get(k).depth() == 0 && tokens.get(k).text().equals("=")) {
                    eq = k;
                    break;
                }
            }
            if (eq < 0 || eq + 1 >= j || !isName(tokens.get(eq - 1))) {
                return null;
            }
            columns.append(columns.isEmpty() ? "" : ", ").append(sql, tokens.get(start).start(), tokens.get(eq - 1).end());
            values.append(values.isEmpty() ? "" : ", ").append(sql, tokens.get(eq + 1).start(), tokens.get(j - 1).end());
            if (j == tokens.size() || tokens.get(j).kind() != Kind.COMMA) {
                break;
            }
            start = j + 1;
        }
        String rest = j < tokens.size() ? " " + sql.substring(tokens.get(j).start()) : "";
        return sql.substring(0, tokens.get(set).start()) + "(" + columns + ") values (" + values + ")" + rest;
    }

    private static boolean isInsertModifier(Token t) {
        return t.is("ignore") || t.is("low_priority") || t.is("delayed") || t.is("high_priority");
    }

    private static boolean schemaIsLogical(String schema, ShardingRule rule) {
        return schema == null || schema.equalsIgnoreCase(rule.schema());
    }

    private static ValueRef valueOf(List<Token> tokens, int from, int to, int ordinal) {
        if (to - from == 1) {
            Token t = tokens.get(from);
            if (t.kind() == Kind.PARAM) {
                return new ValueRef.Param(ordinal);
            }
            if (t.is("null")) {
                return new ValueRef.Const(null);
            }
            if (t.is("true") || t.is("false")) {
                return new ValueRef.Const(t.is("true") ? 1L : 0L);
            }
            if (t.kind() == Kind.NUMBER) {
                return new ValueRef.Const(new java.math.BigDecimal(t.text()));
            }
        }
        return null;
    }

    private static int paramsBefore(List<Token> tokens, int end) {
        return paramsIn(tokens, 0, end);
    }

    private static int paramsIn(List<Token> tokens, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (tokens.get(i).kind() == Kind.PARAM) {
                n++;
            }
        }
        return n;
    }
}
