package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sql.analyze.DigestScanner.Kind;
import io.shardwise.core.sql.analyze.DigestScanner.Token;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSelectKeyword;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/** Analyzes a SELECT (or a set operation, which is nested by nature). */
final class SelectAnalyzer {
    static final Set<String> AGGREGATES = Set.of("count", "sum", "min", "max", "avg", "group_concat", "std", "stddev",
            "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "bit_and", "bit_or", "bit_xor",
            "json_arrayagg", "json_objectagg");

    private SelectAnalyzer() {}

    static Select analyze(ParsedText parsed, ShardingRule rule) {
        SqlNode root = parsed.node;
        SqlSelect select = root instanceof SqlOrderBy ob && ob.query instanceof SqlSelect s ? s
                : root instanceof SqlSelect s ? s : null;
        FromWalker from = new FromWalker(parsed, rule);
        if (select == null) {
            from.nested = true;
            from.subquery(root instanceof SqlOrderBy ob ? ob.query : root);
        } else {
            from.walkTop(select.getFrom());
            from.nestedIn(select.getSelectList());
            from.nestedIn(select.getWhere());
            from.nestedIn(select.getHaving());
            // a subquery in GROUP BY or ORDER BY names tables too (renamed on each node); over sharded tables it
            // makes the statement nested (one node, or the third tier: the merger's sort columns repeat its text
            // unrenamed), over broadcast and single tables it stays what it was (per row, the same on every node)
            boolean before = from.nested;
            int firstScope = from.scopes.size();
            from.nestedIn(select.getGroup());
            from.nestedIn(root instanceof SqlOrderBy ob ? ob.orderList : select.getOrderList());
            if (!before && !readsSharded(from, rule, firstScope)) {
                from.nested = false;
            }
        }
        from.qualifierSlots(root);
        boolean window = hasWindow(root);
        if (window) {
            from.nested = true; // a window spans every row: per-shard windows are wrong
        }
        List<Slot> slots = new ArrayList<>(from.slots);
        addParamSlots(parsed, slots);

        ConditionExtractor extractor = new ConditionExtractor(parsed, rule, from.topTables);
        Map<TableRef, KeyCondition> conditions = Map.of();
        SelectShape shape = null;
        Map<Clause.Kind, Clause> clauses = new EnumMap<>(Clause.Kind.class);
        boolean nested = from.nested;
        boolean perRow = false;
        boolean rowSource = false;
        if (select != null) {
            List<SqlNode> where = new ArrayList<>(from.innerJoinConditions);
            if (select.getWhere() != null) {
                where.add(select.getWhere());
            }
            conditions = new java.util.HashMap<>(extractor.extract(where));
            conditions.keySet().removeAll(from.nullSupplying);
            extractor.keyJoinsOnly(from.outerJoinConditions);
            extractor.keyJoins.addAll(from.usingJoins);
            Clauses c = Clauses.of(parsed.tokens);
            nested |= c.setOperation || c.into;
            shape = shape(parsed, select, c, extractor);
            clauses = clauses(parsed, c);
            perRow = nested && !from.derived && !window && !c.setOperation && !c.into && perRowShape(parsed, select, shape);
            rowSource = !window && !c.setOperation && !c.into;
        }
        SqlTemplate template = new SqlTemplate(parsed.sql, slots, clauses);
        return new Select(template, from.allTables, from.topTables, conditions, extractor.keyJoins, shape, nested,
                inner(parsed, rule, from), select == null ? branchItems(parsed, root) : List.of(), perRow,
                rowSource);
    }

    /**
     * The items MySQL labels with their own text in the query block that names a set operation's (or a
     * WITH's) result columns: its leftmost SELECT. The federated tier aliases those that name a renamed
     * copy, so the label stays the user's. Empty when the block cannot be found with certainty.
     */
    private static List<SelectShape.Span> branchItems(ParsedText parsed, SqlNode root) {
        SqlNode n = root;
        while (true) {
            if (n instanceof SqlOrderBy ob) {
                n = ob.query;
            } else if (n instanceof org.apache.calcite.sql.SqlWith w) {
                n = w.body;
            } else if (n instanceof SqlBasicCall call && n.getKind().belongsTo(SqlKind.SET_QUERY)) {
                n = call.operand(0);
            } else {
                break;
            }
        }
        if (!(n instanceof SqlSelect first)) {
            return List.of();
        }
        int offset = parsed.start(first);
        int index = -1;
        for (int i = 0; i < parsed.tokens.size() && index < 0; i++) {
            if (parsed.tokens.get(i).start() >= offset && parsed.tokens.get(i).is("select")) {
                index = i;
            }
        }
        if (index < 0) {
            return List.of();
        }
        Clauses c = Clauses.of(parsed.tokens, index);
        List<Clauses.Range> ranges = c.items(c.selectList);
        SqlNodeList list = first.getSelectList();
        if (ranges.size() != list.size()) {
            return List.of();
        }
        List<SelectShape.Span> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            SqlNode item = list.get(i);
            if (item.getKind() != SqlKind.AS && !(item instanceof SqlIdentifier)) {
                out.add(new SelectShape.Span(c.startOffset(ranges.get(i)), c.endOffset(ranges.get(i))));
            }
        }
        return out;

    }

    private static boolean readsSharded(FromWalker from, ShardingRule rule, int firstScope) {
        for (FromWalker.Scope scope : from.scopes.subList(firstScope, from.scopes.size())) {
            for (TableRef t : scope.tables()) {
                if (!from.isLogical(t) || rule.table(t.name()) instanceof io.shardwise.core.rule.TableRule.Sharded) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the merger can read every subquery of the top SELECT as a value of its own row ({@link Select#perRow}).
     * A subquery in WHERE or ON only filters rows; in the select list it is a column the merger passes on,
     * unless the statement groups or aggregates (the merger would combine it as a group's value, or compute
     * an expression over it itself) or the merger sorts or de-duplicates by it (its hidden sort columns repeat
     * the item's text without the nodes' table names), or labels it by its text while editing the units' SQL.
     * GROUP BY, ORDER BY and HAVING are evaluated again by
     * the merger across nodes: no subquery there.
     */
    private static boolean perRowShape(ParsedText parsed, SqlSelect select, SelectShape shape) {
        SqlNodeList order = parsed.node instanceof SqlOrderBy ob ? ob.orderList : select.getOrderList();
        if (hasSubquery(select.getGroup()) || hasSubquery(order) || hasSubquery(select.getHaving())) {
            return false;
        }
        SqlNodeList list = select.getSelectList();
        boolean any = false;
        for (int i = 0; i < list.size(); i++) {
            if (hasSubquery(list.get(i))) {
                any = true;
                if (shape.items().get(i).alias() == null && (!shape.orderBy().isEmpty() || shape.limit() != null)) {
                    // labelled by its text: the units' own labels would name the nodes' tables, and a merge that edits
                    // the units' text (sort columns, LIMIT) leaves no room for the label alias (Router.withLabels)
                    return false;
                }
                String alias = shape.items().get(i).alias();
                for (SelectShape.Key key : shape.orderBy()) {
                    // by the item, its position, or an expression over its alias (the sort column would repeat that text)
                    if (key.item() == i || key.ordinal() != null || alias != null && key.item() < 0 && key.text() != null
                            && java.util.regex.Pattern.compile("(?i)(^|[^\\w$])`?" + java.util.regex.Pattern.quote(alias) + "`?($|[^\\w$])")
                                    .matcher(key.text()).find()) {
                        return false;
                    }
                }
            }
        }
        return !any || !shape.isAggregate() && shape.having() == null && !shape.distinct();
    }

    private static boolean hasSubquery(SqlNode node) {
        return node != null && anyCall(node, call -> call instanceof SqlSelect || call.getKind() == SqlKind.UNION
                || call.getKind() == SqlKind.EXCEPT || call.getKind() == SqlKind.INTERSECT || call.getKind() == SqlKind.WITH);
    }

    /**
     * What each nested SELECT's own WHERE says about the keys of its FROM's tables (the router lets a
     * nested statement run on one node only when those rows are all there). Conservative by design:
     * anything not understood reads as {@link KeyCondition#ANY}, which only sends the statement to the
     * third tier.
     */
    private static List<Select.Inner> inner(ParsedText parsed, ShardingRule rule, FromWalker from) {
        List<Select.Inner> out = new ArrayList<>();
        for (FromWalker.Scope scope : from.scopes) {
            Map<TableRef, KeyCondition> conditions = Map.of();
            java.util.Set<TableRef> follows = new java.util.HashSet<>();
            if (scope.where() != null && !scope.outerJoin()) {
                ConditionExtractor extractor = new ConditionExtractor(parsed, rule, scope.tables());
                conditions = extractor.extract(List.of(scope.where()));
                for (SqlNode conjunct : ConditionExtractor.conjuncts(scope.where())) {
                    if (conjunct instanceof SqlCall call && call.getKind() == SqlKind.EQUALS) {
                        TableRef left = extractor.keyOf(call.operand(0));
                        TableRef right = extractor.keyOf(call.operand(1));
                        if (left != null && right == null && isOuterKey(call.operand(1), rule, from)) {
                            follows.add(left);
                        } else if (right != null && left == null && isOuterKey(call.operand(0), rule, from)) {
                            follows.add(right);
                        }
                    }
                }
            }
            for (TableRef t : scope.tables()) {
                out.add(new Select.Inner(t, conditions.getOrDefault(t, KeyCondition.ANY), follows.contains(t)));
            }
        }
        return out;
    }

    /**
     * Whether a node is {@code q.key}: the sharding key of a top-level table that {@code q} names, and no
     * other table of the statement is exposed as {@code q} (so no inner scope can shadow it).
     */
    private static boolean isOuterKey(SqlNode node, ShardingRule rule, FromWalker from) {
        if (!(node instanceof SqlIdentifier id) || id.isStar() || id.names.size() != 2) {
            return false;
        }
        String qualifier = id.names.get(0);
        TableRef named = null;
        for (TableRef t : from.allTables) {
            if (t.exposedName().equalsIgnoreCase(qualifier)) {
                if (named != null) {
                    return false;
                }
                named = t;
            }
        }
        if (named == null || !from.topTables.contains(named) || !from.isLogical(named)) {
            return false;
        }
        return rule.table(named.name()) instanceof io.shardwise.core.rule.TableRule.Sharded s
                && s.keyColumn().equalsIgnoreCase(id.names.get(1));
    }

    static void addParamSlots(ParsedText parsed, List<Slot> slots) {
        int ordinal = 0;
        for (Token t : parsed.tokens) {
            if (t.kind() == Kind.PARAM) {
                slots.add(new Slot.Param(t.start(), t.end(), ordinal++));
            }
        }
    }

    private static Map<Clause.Kind, Clause> clauses(ParsedText parsed, Clauses c) {
        Map<Clause.Kind, Clause> out = new EnumMap<>(Clause.Kind.class);
        List<Token> tokens = parsed.tokens;
        if (c.selectList.present()) {
            int end = c.endOffset(c.selectList);
            out.put(Clause.Kind.SELECT_LIST_END, new Clause(Clause.Kind.SELECT_LIST_END, end, end));
        }
        if (c.limit.present()) {
            out.put(Clause.Kind.LIMIT, new Clause(Clause.Kind.LIMIT, c.startOffset(c.limit), c.endOffset(c.limit)));
        }
        if (c.groupBy.present()) {
            out.put(Clause.Kind.GROUP_BY, new Clause(Clause.Kind.GROUP_BY, c.startOffset(c.groupBy), c.endOffset(c.groupBy)));
            if (c.withRollup) {
                // the two tokens right after the GROUP BY list (Clauses cut them off it)
                out.put(Clause.Kind.ROLLUP, new Clause(Clause.Kind.ROLLUP, c.tokens.get(c.groupBy.last()).start(),
                        c.tokens.get(c.groupBy.last() + 1).end()));
            }
        }
        int groupPoint;
        if (c.groupBy.present()) {
            groupPoint = c.endOffset(c.groupBy);
        } else if (c.having.present()) {
            groupPoint = tokens.get(c.having.first() - 1).start();
        } else if (c.orderBy.present()) {
            groupPoint = tokens.get(c.orderBy.first() - 2).start();
        } else if (c.limit.present()) {
            groupPoint = c.startOffset(c.limit);
        } else if (c.lockingTail >= 0) {
            groupPoint = tokens.get(c.lockingTail).start();
        } else {
            groupPoint = tokens.isEmpty() ? 0 : trimmedEnd(tokens);
        }
        out.put(Clause.Kind.GROUP_BY_POINT, new Clause(Clause.Kind.GROUP_BY_POINT, groupPoint, groupPoint));
        if (c.having.present()) {
            int start = tokens.get(c.having.first() - 1).start(); // the HAVING keyword
            out.put(Clause.Kind.HAVING, new Clause(Clause.Kind.HAVING, start, c.endOffset(c.having)));
        }
        if (c.orderBy.present()) {
            int start = tokens.get(c.orderBy.first() - 2).start(); // ORDER BY
            out.put(Clause.Kind.ORDER_BY, new Clause(Clause.Kind.ORDER_BY, start, c.endOffset(c.orderBy)));
        }
        int point;
        if (c.limit.present()) {
            point = c.startOffset(c.limit);
        } else if (c.lockingTail >= 0) {
            point = tokens.get(c.lockingTail).start();
        } else {
            point = tokens.isEmpty() ? 0 : trimmedEnd(tokens);
        }
        out.put(Clause.Kind.ORDER_BY_POINT, new Clause(Clause.Kind.ORDER_BY_POINT, point, point));
        return out;
    }

    private static int trimmedEnd(List<Token> tokens) {
        int i = tokens.size() - 1;
        while (i > 0 && (tokens.get(i).kind() == Kind.SEMICOLON || tokens.get(i).kind() == Kind.COMMENT)) {
            i--;
        }
        return tokens.get(i).end();
    }

    private static SelectShape shape(ParsedText parsed, SqlSelect select, Clauses c, ConditionExtractor extractor) {
        String sql = parsed.sql;
        List<Clauses.Range> itemRanges = c.items(c.selectList);
        SqlNodeList list = select.getSelectList();
        List<SelectShape.Item> items = new ArrayList<>();
        boolean star = false;
        for (int i = 0; i < list.size(); i++) {
            SqlNode node = list.get(i);
            String alias = null;
            SqlNode expr = node;
            if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.AS) {
                expr = call.operand(0);
                alias = ((SqlIdentifier) call.operand(1)).getSimple();
            }
            String text = i < itemRanges.size() ? itemText(sql, c, itemRanges.get(i), alias != null) : expr.toString();
            int start = i < itemRanges.size() ? c.startOffset(itemRanges.get(i)) : -1;
            int end = start < 0 ? -1 : start + text.length();
            boolean isStar = expr instanceof SqlIdentifier id && id.isStar();
            star |= isStar;
            SelectShape.Aggregate aggregate = aggregate(expr, sql, parsed);
            boolean contains = aggregate == null && containsAggregate(expr);
            HavingExpr expression = contains ? HavingReader.read(parsed, expr) : null;
            List<SelectShape.Span> divisors = expression == null ? List.of() : ExpressionSpans.divisors(parsed, expr);
            items.add(new SelectShape.Item(text, alias, aggregate, contains, expression, divisors, isStar, start, end));
        }
        List<SelectShape.Key> groupBy = keys(parsed, c, c.groupBy, items, null);
        SqlNodeList orderNodes = parsed.node instanceof SqlOrderBy ob ? ob.orderList : select.getOrderList();
        List<SelectShape.Key> orderBy = keys(parsed, c, c.orderBy, items, orderNodes);
        String having = c.having.present() ? c.text(sql, c.having) : null;
        ValueRef offset = null;
        ValueRef limit = null;
        if (c.limit.present()) {
            List<ValueRef> values = new ArrayList<>();
            boolean offsetKeyword = false;
            for (int i = c.limit.first() + 1; i < c.limit.last(); i++) {
                Token t = parsed.tokens.get(i);
                if (t.kind() == Kind.PARAM) {
                    values.add(new ValueRef.Param(ordinalAt(parsed, t)));
                } else if (t.kind() == Kind.NUMBER) {
                    values.add(new ValueRef.Const(Long.parseLong(t.text())));
                } else if (t.is("offset")) {
                    offsetKeyword = true;
                }
            }
            if (values.size() == 1) {
                limit = values.get(0);
            } else if (values.size() == 2) {
                limit = offsetKeyword ? values.get(0) : values.get(1);
                offset = offsetKeyword ? values.get(1) : values.get(0);
            }
        }
        boolean distinct = c.distinct || select.getModifierNode(SqlSelectKeyword.DISTINCT) != null;
        HavingExpr havingExpr = select.getHaving() == null ? null : HavingReader.read(parsed, select.getHaving());
        return new SelectShape(items, star, distinct, groupBy, having, havingExpr, orderBy, offset, limit);
    }

    private static int ordinalAt(ParsedText parsed, Token param) {
        int ordinal = 0;
        for (Token t : parsed.tokens) {
            if (t == param) {
                return ordinal;
            }
            if (t.kind() == Kind.PARAM) {
                ordinal++;
            }
        }
        throw new IllegalStateException("param token not found");
    }

    /** An item's text without its alias ({@code a + 1 as x} gives {@code a + 1}). */
    private static String itemText(String sql, Clauses c, Clauses.Range r, boolean aliased) {
        int last = r.last();
        if (aliased && last - r.first() >= 2) {
            Token lastToken = c.tokens.get(last - 1);
            if (lastToken.kind() == Kind.WORD || lastToken.kind() == Kind.QUOTED_ID || lastToken.kind() == Kind.PARAM) {
                last--;
                if (c.tokens.get(last - 1).is("as")) {
                    last--;
                }
            }
        }
        return sql.substring(c.tokens.get(r.first()).start(), c.tokens.get(last - 1).end());
    }

    static SelectShape.Aggregate aggregate(SqlNode expr, String sql, ParsedText parsed) {
        if (!(expr instanceof SqlCall call) || call.getOperator() == null) {
            return null;
        }
        String name = aggregateName(call);
        if (!AGGREGATES.contains(name) || call.getKind() == SqlKind.OVER) {
            return null;
        }
        if (call.getKind() == SqlKind.WITHIN_GROUP || call.getKind() == SqlKind.JSON_ARRAYAGG || call.getKind() == SqlKind.JSON_OBJECTAGG) {
            return json(call, parsed);
        }
        boolean distinct = call.getFunctionQuantifier() != null
                && call.getFunctionQuantifier().getValue() == SqlSelectKeyword.DISTINCT;
        if (name.equals("group_concat")) {
            return groupConcat(call, distinct, sql, parsed);
        }
        SelectShape.AggregateKind kind = switch (name) {
            case "count" -> SelectShape.AggregateKind.COUNT;
            case "sum" -> SelectShape.AggregateKind.SUM;
            case "min" -> SelectShape.AggregateKind.MIN;
            case "max" -> SelectShape.AggregateKind.MAX;
            case "avg" -> SelectShape.AggregateKind.AVG;
            case "bit_and" -> SelectShape.AggregateKind.BIT_AND;
            case "bit_or" -> SelectShape.AggregateKind.BIT_OR;
            case "bit_xor" -> SelectShape.AggregateKind.BIT_XOR;
            case "variance", "var_pop" -> SelectShape.AggregateKind.VAR_POP;
            case "var_samp" -> SelectShape.AggregateKind.VAR_SAMP;
            case "std", "stddev", "stddev_pop" -> SelectShape.AggregateKind.STDDEV_POP;
            case "stddev_samp" -> SelectShape.AggregateKind.STDDEV_SAMP;
            default -> SelectShape.AggregateKind.OTHER;
        };
        if (distinct) {
            kind = switch (kind) {
                case COUNT, SUM, MIN, MAX, AVG, GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG, OTHER -> kind;
                // not MySQL syntax: leave it to the backend's own error, never a merge
                case BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> SelectShape.AggregateKind.OTHER;
            };
        }
        if (call.operandCount() > 1 && kind == SelectShape.AggregateKind.COUNT && distinct) {
            // COUNT(DISTINCT a, b): distinct tuples of non-NULL values; the argument is the whole list
            int[] span = argumentSpan(parsed, call);
            if (span == null) {
                return new SelectShape.Aggregate(SelectShape.AggregateKind.OTHER, true, call.toString());
            }
            List<SelectShape.Span> arguments = new ArrayList<>();
            for (SqlNode operand : call.getOperandList()) {
                arguments.add(ExpressionSpans.of(parsed, operand));
            }
            return new SelectShape.Aggregate(kind, true, sql.substring(span[0], span[1]), span[0], span[1], arguments);
        }
        if (call.operandCount() != 1 && kind != SelectShape.AggregateKind.OTHER) {
            kind = SelectShape.AggregateKind.OTHER; // SUM(a, b) is not MySQL's: the backend says so
        }
        if (call.operandCount() == 1 && !(call.operand(0) instanceof SqlIdentifier id && id.isStar())) {
            int[] span = argumentSpan(parsed, call);
            if (span != null) {
                return new SelectShape.Aggregate(kind, distinct, sql.substring(span[0], span[1]), span[0], span[1]);
            }
            return new SelectShape.Aggregate(kind, distinct, call.operand(0).toString());
        }
        return new SelectShape.Aggregate(kind, distinct, "*");
    }

    /**
     * GROUP_CONCAT: Calcite gives its arguments as operands, then its ORDER BY as a node list and its
     * SEPARATOR as a call over the literal. Every part needs its span (the units group by the
     * arguments and keys and return them); an ORDER BY position (a number) is left to OTHER.
     */
    private static SelectShape.Aggregate groupConcat(SqlCall call, boolean distinct, String sql, ParsedText parsed) {
        int[] span = argumentSpan(parsed, call);
        List<SelectShape.Span> arguments = new ArrayList<>();
        List<SelectShape.ConcatKey> order = new ArrayList<>();
        SelectShape.Span separator = null;
        boolean known = span != null;
        for (SqlNode operand : call.getOperandList()) {
            if (operand instanceof SqlNodeList keys) {
                for (SqlNode key : keys) {
                    boolean descending = key.getKind() == SqlKind.DESCENDING;
                    SqlNode expr = descending ? ((SqlCall) key).operand(0) : key;
                    // ORDER BY 1 (a literal, or the ? standing for it) is a position, not a value
                    known &= !(expr instanceof SqlLiteral) && !(expr instanceof SqlDynamicParam);
                    order.add(new SelectShape.ConcatKey(ExpressionSpans.of(parsed, expr), descending));
                }
            } else if (operand instanceof SqlCall c && c.getKind() == SqlKind.SEPARATOR) {
                known = false; // CalciteMasking removes SEPARATOR before Calcite: found in the tokens below
            } else if (operand != null && !(operand instanceof SqlLiteral) && !(operand instanceof SqlDynamicParam)) {
                // a literal or parameter alone is the same in every row (no key), and GROUP BY 2 would be a position
                arguments.add(ExpressionSpans.of(parsed, operand));
            }
        }
        if (span != null) {
            // SEPARATOR 's' is masked from Calcite (CalciteMasking); aggregates do not nest, so the one in the span is this call's
            List<Token> tokens = parsed.tokens;
            for (int i = 0; i + 1 < tokens.size(); i++) {
                Token t = tokens.get(i);
                if (t.start() >= span[0] && t.end() <= span[1] && t.is("separator")) {
                    separator = new SelectShape.Span(tokens.get(i + 1).start(), tokens.get(i + 1).end());
                }
            }
        }
        for (SelectShape.Span s : arguments) {
            known &= s.start() >= 0 && s.end() > s.start();
        }
        for (SelectShape.ConcatKey k : order) {
            known &= k.span().start() >= 0 && k.span().end() > k.span().start();
        }
        known &= separator == null || separator.start() >= 0 && separator.end() > separator.start();
        if (!known) {
            return new SelectShape.Aggregate(SelectShape.AggregateKind.OTHER, distinct, call.toString());
        }
        return new SelectShape.Aggregate(SelectShape.AggregateKind.GROUP_CONCAT, distinct, sql.substring(span[0], span[1]),
                span[0], span[1], List.of(), new SelectShape.GroupConcat(arguments, order, separator));
    }

    /**
     * JSON_ARRAYAGG(x [ORDER BY k [DESC], …]) and JSON_OBJECTAGG(k, v), as GROUP_CONCAT's parts: Calcite
     * parses the ORDER BY into a WITHIN GROUP call around JSON_ARRAYAGG, whose other operands are the keys.
     * (Calcite's core parser has no DISTINCT or LIMIT inside them: such a statement never gets here.)
     */
    private static SelectShape.Aggregate json(SqlCall call, ParsedText parsed) {
        SqlCall inner = call.getKind() == SqlKind.WITHIN_GROUP ? (SqlCall) call.operand(0) : call;
        SelectShape.AggregateKind kind = inner.getKind() == SqlKind.JSON_ARRAYAGG ? SelectShape.AggregateKind.JSON_ARRAYAGG
                : inner.getKind() == SqlKind.JSON_OBJECTAGG ? SelectShape.AggregateKind.JSON_OBJECTAGG : SelectShape.AggregateKind.OTHER;
        int[] span = argumentSpan(parsed, inner);
        if (kind == SelectShape.AggregateKind.OTHER || span == null) {
            return new SelectShape.Aggregate(SelectShape.AggregateKind.OTHER, false, call.toString());
        }
        boolean known = true;
        List<SelectShape.Span> arguments = new ArrayList<>();
        for (SqlNode operand : inner.getOperandList()) {
            if (operand != null && !(operand instanceof SqlLiteral) && !(operand instanceof SqlDynamicParam)) {
                arguments.add(ExpressionSpans.of(parsed, operand));
            }
        }
        List<SelectShape.ConcatKey> order = new ArrayList<>();
        if (call != inner) {
            for (SqlNode keys : call.getOperandList().subList(1, call.operandCount())) {
                for (SqlNode key : keys instanceof SqlNodeList list ? list : List.of(keys)) {
                    boolean descending = key.getKind() == SqlKind.DESCENDING;
                    SqlNode expr = descending ? ((SqlCall) key).operand(0) : key;
                    known &= !(expr instanceof SqlLiteral) && !(expr instanceof SqlDynamicParam);
                    order.add(new SelectShape.ConcatKey(ExpressionSpans.of(parsed, expr), descending));
                }
            }
        }
        for (SelectShape.Span s : arguments) {
            known &= s.start() >= 0 && s.end() > s.start();
        }
        for (SelectShape.ConcatKey k : order) {
            known &= k.span().start() >= 0 && k.span().end() > k.span().start();
        }
        if (!known) {
            return new SelectShape.Aggregate(SelectShape.AggregateKind.OTHER, false, call.toString());
        }
        return new SelectShape.Aggregate(kind, false, parsed.sql.substring(span[0], span[1]), span[0], span[1], List.of(),
                new SelectShape.GroupConcat(arguments, order, null));
    }

    /**
     * The span of the tokens between an aggregate call's parentheses, without DISTINCT or ALL; null
     * when not found. Found from the call's name (its position), not from the operand's: Calcite places
     * an infix call ({@code a * 2}) at its operator.
     */
    private static int[] argumentSpan(ParsedText parsed, SqlCall call) {
        int at = parsed.start(call);
        List<Token> tokens = parsed.tokens;
        for (int i = 0; i + 1 < tokens.size(); i++) {
            Token name = tokens.get(i);
            if (name.start() < at) {
                continue;
            }
            boolean atName = name.start() == at;
            // Calcite's position of a parenthesized call includes its parentheses: ((max(a)))
            while (atName && i + 2 < tokens.size() && name.kind() == Kind.OPEN) {
                name = tokens.get(++i);
            }
            Token open = tokens.get(i + 1);
            if (!atName || open.kind() != Kind.OPEN) {
                return null; // the position is not a call's name: do not guess
            }
            int first = i + 2;
            if (first < tokens.size() && (tokens.get(first).is("distinct") || tokens.get(first).is("all"))) {
                first++;
            }
            for (int j = first; j < tokens.size(); j++) {
                Token u = tokens.get(j);
                if (u.kind() == Kind.CLOSE && u.depth() == open.depth()) {
                    return j == first ? null : new int[] {tokens.get(first).start(), tokens.get(j - 1).end()};
                }
            }
            return null;
        }
        return null;
    }

    private static boolean hasWindow(SqlNode root) {
        return anyCall(root, call -> call.getKind() == SqlKind.OVER || call.getKind() == SqlKind.WINDOW);
    }

    /** Whether a call anywhere under {@code root} (subqueries included) is one {@code test} accepts. */
    private static boolean anyCall(SqlNode root, java.util.function.Predicate<SqlCall> test) {
        Boolean found = root.accept(new SqlBasicVisitor<>() {
            @Override
            public Boolean visit(SqlCall call) {
                if (test.test(call)) {
                    return true;
                }
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null && Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }

            @Override
            public Boolean visit(SqlNodeList list) {
                for (SqlNode n : list) {
                    if (n != null && Boolean.TRUE.equals(n.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    /**
     * The call's function name as MySQL spells it. Calcite parses JSON_ARRAYAGG and JSON_OBJECTAGG into
     * operators named by their NULL clause ({@code JSON_ARRAYAGG_ABSENT_ON_NULL}) and an ORDER BY inside
     * into a WITHIN GROUP call around them; read by the raw name, they looked like no aggregate at all,
     * and each shard's JSON array came back as a row of its own.
     */
    private static String aggregateName(SqlCall call) {
        if (call.getKind() == SqlKind.WITHIN_GROUP && call.operand(0) instanceof SqlCall inner && inner.getOperator() != null) {
            return aggregateName(inner);
        }
        String name = call.getOperator().getName().toLowerCase(Locale.ROOT);
        return call.getKind() == SqlKind.JSON_ARRAYAGG ? "json_arrayagg" : call.getKind() == SqlKind.JSON_OBJECTAGG ? "json_objectagg" : name;
    }

    static boolean containsAggregate(SqlNode expr) {
        Boolean found = expr.accept(new SqlBasicVisitor<>() {
            @Override
            public Boolean visit(SqlCall call) {
                if (call.getOperator() != null && AGGREGATES.contains(aggregateName(call))) {
                    return true;
                }
                if (call instanceof SqlSelect) {
                    return false;
                }
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null && Boolean.TRUE.equals(operand.accept(this))) {
                        return true;
                    }
                }
                return false;
            }
        });
        return Boolean.TRUE.equals(found);
    }

    /** GROUP BY or ORDER BY keys, matched to select items where they name one. */
    private static List<SelectShape.Key> keys(ParsedText parsed, Clauses c, Clauses.Range range, List<SelectShape.Item> items,
                                              SqlNodeList nodes) {
        List<SelectShape.Key> keys = new ArrayList<>();
        for (Clauses.Range r : c.items(range)) {
            int last = r.last();
            boolean descending = false;
            Token lastToken = c.tokens.get(last - 1);
            if (lastToken.is("desc") || lastToken.is("asc")) {
                descending = lastToken.is("desc");
                last--;
            }
            if (last <= r.first()) {
                continue;
            }
            Clauses.Range keyRange = new Clauses.Range(r.first(), last);
            String text = c.text(parsed.sql, keyRange);
            if (last - r.first() == 1 && c.tokens.get(r.first()).kind() == Kind.PARAM) {
                keys.add(new SelectShape.Key(-1, new ValueRef.Param(ordinalAt(parsed, c.tokens.get(r.first()))), null, descending));
                continue;
            }
            int item = matchItem(text, items);
            int start = c.startOffset(keyRange);
            if (item >= 0) {
                keys.add(SelectShape.Key.ofItem(item, descending));
                continue;
            }
            SqlNode node = ExpressionSpans.nodeAt(parsed, nodes, start);
            SelectShape.Aggregate aggregate = node == null ? null : aggregate(node, parsed.sql, parsed);
            boolean contains = aggregate == null && node != null && containsAggregate(node);
            HavingExpr expression = contains ? HavingReader.read(parsed, node) : null;
            List<SelectShape.Span> divisors = expression == null ? List.of() : ExpressionSpans.divisors(parsed, node);
            keys.add(new SelectShape.Key(-1, null, text, descending, start, c.endOffset(keyRange), aggregate, contains, expression,
                    divisors));
        }
        return keys;
    }

    private static int matchItem(String text, List<SelectShape.Item> items) {
        String wanted = canonical(text);
        for (int i = 0; i < items.size(); i++) {
            SelectShape.Item item = items.get(i);
            if (item.alias() != null && canonical(item.alias()).equals(wanted)) {
                return i;
            }
        }
        if (wanted.indexOf('?') >= 0) {
            return -1; // equal texts, but their literals or parameters may differ: the router compares values
        }
        for (int i = 0; i < items.size(); i++) {
            SelectShape.Item item = items.get(i);
            String itemText = canonical(item.text());
            if (itemText.equals(wanted) || lastPart(itemText).equals(wanted) && !wanted.contains(".")) {
                return i;
            }
        }
        return -1;
    }

    private static String canonical(String s) {
        return s.replace("`", "").toLowerCase(Locale.ROOT).strip();
    }

    private static String lastPart(String s) {
        int dot = s.lastIndexOf('.');
        return dot < 0 ? s : s.substring(dot + 1);
    }
}
