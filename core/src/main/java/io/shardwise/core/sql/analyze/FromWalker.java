package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * Finds every table a statement names (FROM, JOIN, subqueries anywhere), with the text slots the
 * rewriter replaces: each table name, and each column qualifier that uses a table's own name
 * ({@code orders.user_id} must become {@code orders_1.user_id}). Collects the top-level FROM's
 * references and inner-join conditions separately, since only those narrow the route.
 */
final class FromWalker {
    private final ParsedText parsed;
    private final ShardingRule rule;
    final List<TableRef> allTables = new ArrayList<>();
    final List<TableRef> topTables = new ArrayList<>();
    final List<SqlNode> innerJoinConditions = new ArrayList<>();
    /** ON conditions of outer joins: they co-locate rows (key joins) but narrow nothing. */
    final List<SqlNode> outerJoinConditions = new ArrayList<>();
    /** USING (...) columns, as pairs of the references on each side. */
    final List<Select.KeyJoin> usingJoins = new ArrayList<>();
    /** Tables an outer join may fill with NULLs: WHERE conditions on them do not narrow the route. */
    final List<TableRef> nullSupplying = new ArrayList<>();
    final List<Slot> slots = new ArrayList<>();
    /** Names WITH defines (lower case): a reference to one is no table. */
    private final Set<String> cteNames = new HashSet<>();
    /** Every nested SELECT's own FROM tables and WHERE, for {@link SelectAnalyzer}'s subquery routes. */
    final List<Scope> scopes = new ArrayList<>();
    /** The tables of the FROM being walked when it is a nested SELECT's (null at the top level). */
    private List<TableRef> scope;
    /** Whether the nested FROM being walked has an outer join (its WHERE then narrows no table of it). */
    private boolean scopeOuterJoin;
    boolean nested;
    /** A derived table (or any FROM item that is no table) in the top-level FROM: its rows are not one node's rows. */
    boolean derived;
    /** The top-level FROM's derived tables with an alias, in text order: a multi-table write resolves SET columns among their columns too. */
    final List<MultiTable.Derived> derivedTables = new ArrayList<>();

    /**
     * A nested SELECT: the tables its own FROM names (not those of deeper subqueries) and its WHERE.
     * {@code outerJoin}: its FROM has an outer join.
     */
    record Scope(List<TableRef> tables, SqlNode where, boolean outerJoin) {}

    FromWalker(ParsedText parsed, ShardingRule rule) {
        this.parsed = parsed;
        this.rule = rule;
    }

    /** Walks the top-level FROM; then {@link #walkNested} finds subqueries everywhere else. */
    void walkTop(SqlNode from) {
        if (from != null) {
            from(from, true, true);
        }
    }

    private void from(SqlNode node, boolean top, boolean inner) {
        switch (node) {
            case SqlIdentifier id -> table(id, null, top);
            case SqlJoin join -> {
                boolean innerJoin = join.getJoinType() == JoinType.INNER || join.getJoinType() == JoinType.COMMA
                        || join.getJoinType() == JoinType.CROSS;
                int leftStart = topTables.size();
                from(join.getLeft(), top, inner);
                int rightStart = topTables.size();
                from(join.getRight(), top, inner && innerJoin);
                if (!top && !innerJoin) {
                    scopeOuterJoin = true;
                }
                if (top && (join.getJoinType() == JoinType.LEFT || join.getJoinType() == JoinType.FULL)) {
                    nullSupplying.addAll(topTables.subList(rightStart, topTables.size()));
                }
                if (top && (join.getJoinType() == JoinType.RIGHT || join.getJoinType() == JoinType.FULL)) {
                    nullSupplying.addAll(topTables.subList(leftStart, rightStart));
                }
                if (join.getCondition() instanceof org.apache.calcite.sql.SqlNodeList using && top) {
                    using(using, topTables.subList(leftStart, rightStart), topTables.subList(rightStart, topTables.size()));
                } else if (join.getCondition() != null && top && inner && innerJoin) {
                    innerJoinConditions.add(join.getCondition());
                } else if (join.getCondition() != null && top) {
                    outerJoinConditions.add(join.getCondition());
                }
                if (join.getCondition() != null) {
                    nestedIn(join.getCondition());
                }
            }
            case SqlBasicCall call when call.getKind() == SqlKind.AS -> {
                SqlNode source = call.operand(0);
                String alias = ((SqlIdentifier) call.operand(1)).getSimple();
                if (source instanceof SqlIdentifier id) {
                    table(id, alias, top);
                } else {
                    nested = true;
                    derived |= top;
                    if (top) {
                        derivedTable(source, call);
                    }
                    subquery(source);
                }
            }
            case SqlSelect select -> {
                nested = true;
                derived |= top;
                subquery(select);
            }
            default -> {
                nested = true;
                derived |= top;
                subquery(node);
            }
        }
    }

    /**
     * Records a top derived table: the span of its parenthesised query (from the {@code (} before the query's start to
     * its matching {@code )}), its alias and its column list when it names one ({@code AS d (a, b)}).
     */
    private void derivedTable(SqlNode query, SqlBasicCall as) {
        int start = parsed.start(query);
        int open = -1; // the ( at the query's start (Calcite may widen its position to it), else the one just before it
        for (int i = 0; i < parsed.tokens.size() && parsed.tokens.get(i).start() <= start; i++) {
            DigestScanner.Token t = parsed.tokens.get(i);
            if (t.start() == start) {
                open = t.kind() == DigestScanner.Kind.OPEN ? i : open;
                break;
            }
            open = t.kind() == DigestScanner.Kind.OPEN ? i : t.kind() == DigestScanner.Kind.COMMENT ? open : -1;
        }
        if (open < 0) {
            derivedTables.add(new MultiTable.Derived(((SqlIdentifier) as.operand(1)).getSimple(), -1, -1, null)); // its columns unread
            return;
        }
        int depth = parsed.tokens.get(open).depth();
        for (int i = open + 1; i < parsed.tokens.size(); i++) {
            DigestScanner.Token t = parsed.tokens.get(i);
            if (t.kind() == DigestScanner.Kind.CLOSE && t.depth() == depth) {
                List<String> columns = null;
                if (as.operandCount() > 2) {
                    columns = new ArrayList<>();
                    for (SqlNode c : as.getOperandList().subList(2, as.operandCount())) {
                        columns.add(((SqlIdentifier) c).getSimple());
                    }
                }
                derivedTables.add(new MultiTable.Derived(((SqlIdentifier) as.operand(1)).getSimple(), parsed.tokens.get(open).start(),
                        t.end(), columns));
                return;
            }
        }
    }

    private void using(org.apache.calcite.sql.SqlNodeList columns, List<TableRef> left, List<TableRef> right) {
        for (SqlNode column : columns) {
            String name = ((SqlIdentifier) column).getSimple();
            for (TableRef l : left) {
                for (TableRef r : right) {
                    if (isKey(l, name) && isKey(r, name)) {
                        usingJoins.add(new Select.KeyJoin(l, r));
                    }
                }
            }
        }
    }

    private boolean isKey(TableRef t, String column) {
        return isLogical(t) && rule.table(t.name()) instanceof io.shardwise.core.rule.TableRule.Sharded s
                && s.keyColumn().equalsIgnoreCase(column);
    }

    private void table(SqlIdentifier id, String alias, boolean top) {
        String name = id.names.get(id.names.size() - 1);
        String schema = id.names.size() > 1 ? id.names.get(id.names.size() - 2) : null;
        if (schema == null && (name.equalsIgnoreCase("dual") || cteNames.contains(name.toLowerCase(Locale.ROOT)))) {
            return;
        }
        TableRef ref = new TableRef(name, schema, alias, parsed.start(id));
        allTables.add(ref);
        if (top) {
            topTables.add(ref);
        } else if (scope != null) {
            scope.add(ref);
        }
        if (isLogical(ref)) {
            slots.add(new Slot.Table(parsed.start(id), parsed.end(id.getParserPosition()), name));
        }
    }

    /** Whether a reference is to this configuration's logical schema (not information_schema ...). */
    boolean isLogical(TableRef ref) {
        return ref.schema() == null || ref.schema().equalsIgnoreCase(rule.schema());
    }

    /** Every table and subquery under a node that is not the top-level FROM (WHERE, select list ...). */
    void nestedIn(SqlNode node) {
        if (node == null) {
            return;
        }
        node.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect || call.getKind() == SqlKind.UNION || call.getKind() == SqlKind.EXCEPT
                        || call.getKind() == SqlKind.INTERSECT || call.getKind() == SqlKind.ORDER_BY
                        || call.getKind() == SqlKind.WITH) {
                    nested = true;
                    subquery(call);
                    return call;
                }
                return super.visit(call);
            }
        });
    }

    /** All tables of a subquery or set operation (they only need renaming: they are never narrowed). */
    void subquery(SqlNode node) {
        switch (node) {
            case SqlSelect s -> {
                if (s.getFrom() != null) {
                    List<TableRef> outerScope = scope;
                    boolean outerJoin = scopeOuterJoin;
                    scope = new ArrayList<>();
                    scopeOuterJoin = false;
                    from(s.getFrom(), false, false);
                    scopes.add(new Scope(List.copyOf(scope), s.getWhere(), scopeOuterJoin));
                    scope = outerScope;
                    scopeOuterJoin = outerJoin;
                }
                nestedIn(s.getSelectList());
                nestedIn(s.getWhere());
                nestedIn(s.getHaving());
            }
            case SqlWith with -> {
                // the definitions' tables are the statement's tables; their names are not
                for (SqlNode item : with.withList) {
                    SqlWithItem w = (SqlWithItem) item;
                    cteNames.add(w.name.getSimple().toLowerCase(Locale.ROOT));
                    subquery(w.query);
                }
                subquery(with.body);
            }
            case SqlCall call -> {
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null) {
                        subquery(operand);
                    }
                }
            }
            default -> { }
        }
    }

    /**
     * Slots for column qualifiers naming a table by its own name. Run after every table is known, over
     * the whole statement.
     */
    void qualifierSlots(SqlNode root) {
        List<TableRef> unaliased = new ArrayList<>();
        for (TableRef t : allTables) {
            if (t.alias() == null && isLogical(t)) {
                unaliased.add(t);
            }
        }
        if (unaliased.isEmpty()) {
            return;
        }
        List<int[]> tableSpans = new ArrayList<>();
        for (Slot s : slots) {
            tableSpans.add(new int[] {s.start(), s.end()});
        }
        root.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier id) {
                int parts = id.names.size();
                if (parts < 2 || isTableSpan(id)) {
                    return id;
                }
                // t.col or schema.t.col (t.* has an empty last name)
                int tablePart = parts - 2;
                String qualifier = id.names.get(tablePart);
                for (TableRef t : unaliased) {
                    if (t.name().equalsIgnoreCase(qualifier)) {
                        int start = parsed.start(id.getComponentParserPosition(0));
                        int end = parsed.end(id.getComponentParserPosition(tablePart));
                        slots.add(new Slot.Table(start, end, t.name()));
                        break;
                    }
                }
                return id;
            }

            private boolean isTableSpan(SqlIdentifier id) {
                int start = parsed.start(id);
                for (int[] span : tableSpans) {
                    if (span[0] == start) {
                        return true;
                    }
                }
                return false;
            }
        });
    }

    static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
