package io.shardwise.core.route;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.route.HiddenColumns.Expr;
import io.shardwise.core.sql.analyze.Clause;
import io.shardwise.core.sql.analyze.HavingExpr;
import io.shardwise.core.sql.analyze.SelectShape;
import io.shardwise.core.sql.analyze.SqlTemplate;
import io.shardwise.core.sql.analyze.ValueRef;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Plans how a SELECT that runs on several nodes is merged: the merge spec, and the edits every
 * node's SQL needs for it — helper columns appended to the select list (sort keys not selected,
 * WEIGHT_STRING() of each key for collation-aware comparison, SUM and COUNT behind AVG), LIMIT o,n
 * turned into LIMIT o+n (or dropped under aggregation), HAVING and LIMIT left to the merger.
 * Whatever it cannot merge exactly it refuses with 1235.
 */
final class MergePlanner {
    record Plan(MergeSpec spec, List<Renderer.Edit> edits, int width) {
        Plan {
            edits = List.copyOf(edits); // a plan that read no value is kept with the statement's plan and shared
        }
    }

    private final SelectShape shape;
    private final SqlTemplate template;
    private final Bindings bindings;
    private final int visible;
    private final HiddenColumns hidden;
    /** The arguments of COUNT/SUM/AVG(DISTINCT ...) the units group by, collected while planning. */
    private final DistinctArguments distincts;
    /** Columns the merger computes over merged aggregates: select items, then ORDER BY keys. */
    private final List<MergeSpec.ComputedColumn> computed = new ArrayList<>();
    /** Per select item, the expression the merger computes it by (null: a column of the units). */
    private final RowExpr[] itemExpressions;

    private MergePlanner(SelectShape shape, SqlTemplate template, Bindings bindings) {
        this.shape = shape;
        this.template = template;
        this.bindings = bindings;
        this.visible = shape.items().size();
        this.hidden = new HiddenColumns(template, bindings, visible);
        this.distincts = new DistinctArguments(hidden);
        this.itemExpressions = new RowExpr[visible];
    }

    static Plan plan(SelectShape shape, SqlTemplate template, Bindings bindings) {
        return plan(shape, template, bindings, java.util.Set.of());
    }

    /** As {@link #plan(SelectShape, SqlTemplate, Bindings)}, with the weight columns {@code byIndex} made ENUM/SET member indexes. */
    static Plan plan(SelectShape shape, SqlTemplate template, Bindings bindings, java.util.Set<Integer> byIndex) {
        return new MergePlanner(shape, template, bindings).plan(byIndex);
    }

    /**
     * As {@link #plan(SelectShape, SqlTemplate, Bindings)}, or null when the plan read any of {@code bindings} (a value
     * in LIMIT, OFFSET, HAVING or an ORDER BY position, a literal's text compared): a plan that read none is a function of
     * the statement alone, the same for every execution, so its statement's cached plan may keep it ({@link Router}).
     */
    static Plan valueFree(SelectShape shape, SqlTemplate template, Bindings bindings, Plan[] planned) {
        Watched watched = new Watched(bindings);
        Plan plan = new MergePlanner(shape, template, watched).plan(java.util.Set.of());
        planned[0] = plan;
        return watched.read ? null : plan;
    }

    /** Bindings that note whether the planner read anything of them, even their count. */
    private static final class Watched implements Bindings {
        private final Bindings bindings;
        private boolean read;

        Watched(Bindings bindings) {
            this.bindings = bindings;
        }

        @Override
        public int size() {
            read = true;
            return bindings.size();
        }

        @Override
        public Object value(int ordinal) {
            read = true;
            return bindings.value(ordinal);
        }

        @Override
        public String text(int ordinal) {
            read = true;
            return bindings.text(ordinal);
        }

        @Override
        public boolean inline(int ordinal) {
            read = true;
            return bindings.inline(ordinal);
        }

        @Override
        public boolean hasParameters() {
            read = true;
            return bindings.hasParameters();
        }
    }

    private Plan plan(java.util.Set<Integer> byIndex) {
        for (SelectShape.Item item : shape.items()) {
            if (item.containsAggregate() && item.expression() == null) {
                throw unsupported("this expression over aggregates across shards: " + item.text());
            }
            if (item.aggregate() != null && item.aggregate().kind() == SelectShape.AggregateKind.OTHER) {
                throw unsupported("aggregate " + item.text() + " across shards");
            }
        }
        checkDistinctItems();
        long offset = number(shape.offset(), 0);
        long limit = number(shape.limit(), -1);
        List<Renderer.Edit> edits = new ArrayList<>();
        MergeSpec spec;
        if (shape.isAggregate()) {
            spec = aggregate(offset, limit);
            if (!distincts.isEmpty()) {
                distinctEdits(edits);
            }
            for (SelectShape.Item item : shape.items()) {
                if (item.expression() != null && !item.divisors().isEmpty() && item.start() >= 0) {
                    edits.add(new Renderer.Edit(item.start(), item.end(), SafeDivisors.pieces(item.start(), item.end(), item.divisors()),
                            item.alias() == null));
                }
            }
            // groups are complete only after the merge: LIMIT and HAVING apply there, not per shard
            Clause limitClause = template.clause(Clause.Kind.LIMIT);
            if (limitClause != null) {
                edits.add(new Renderer.Edit(limitClause.start(), limitClause.end(), ""));
            }
            Clause havingClause = template.clause(Clause.Kind.HAVING);
            if (havingClause != null) {
                edits.add(new Renderer.Edit(havingClause.start(), havingClause.end(), ""));
            }
            Clause rollupClause = template.clause(Clause.Kind.ROLLUP);
            if (rollupClause != null && shape.orderBy().isEmpty()) {
                // the units group plainly; the merge adds the super-aggregate rows (with an ORDER BY the
                // units keep it, and refuse the statement as MySQL does: 1221)
                edits.add(new Renderer.Edit(rollupClause.start(), rollupClause.end(), ""));
            }
        } else {
            MergeSpec.Tail tail = new MergeSpec.Tail(false, offset, limit, visibleWidth());
            if (shape.distinct() && wholeRows()) {
                // every row carries its sharding key, and rows of two nodes never have equal keys: each
                // node's DISTINCT is already the global one, so the rows only merge (sorted) and limit
                List<SortKey> keys = orderKeys();
                spec = keys.isEmpty() ? new MergeSpec.Concat(tail) : new MergeSpec.SortedMerge(keys, tail);
            } else if (shape.distinct()) {
                if (shape.star()) {
                    throw unsupported("SELECT DISTINCT " + starText() + " across shards (only an unqualified * is distinct per shard)");
                }
                List<SortKey> all = new ArrayList<>();
                for (int i = 0; i < visible; i++) {
                    all.add(new SortKey(i, false, weight(itemExpr(i))));
                }
                spec = new MergeSpec.GroupedAggregate(all, List.of(), false, null, orderKeys(), tail);
            } else if (!shape.orderBy().isEmpty()) {
                List<SortKey> keys = orderKeys();
                spec = keys.isEmpty() ? new MergeSpec.Concat(tail) : new MergeSpec.SortedMerge(keys, tail);
            } else {
                spec = new MergeSpec.Concat(tail);
            }
            Clause limitClause = template.clause(Clause.Kind.LIMIT);
            if (limitClause != null && limit >= 0) {
                // each node returns enough rows for any of them to be the global row at offset+limit
                edits.add(new Renderer.Edit(limitClause.start(), limitClause.end(), "limit " + (offset + limit)));
            }
        }
        if (!hidden.isEmpty()) {
            hidden.indexesFor(byIndex);
            Clause end = template.clause(Clause.Kind.SELECT_LIST_END);
            edits.add(hidden.edit(end.start()));
        }
        edits.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return new Plan(hidden.isEmpty() ? showAll(spec) : spec, edits, visible + hidden.size());
    }

    /** Whether the select list has an unqualified {@code *}: every column of every table, the sharding keys among them. */
    private boolean wholeRows() {
        for (SelectShape.Item item : shape.items()) {
            if (item.isStar() && item.text().strip().equals("*")) {
                return true;
            }
        }
        return false;
    }

    private String starText() {
        for (SelectShape.Item item : shape.items()) {
            if (item.isStar()) {
                return item.text();
            }
        }
        return "*";
    }

    /** A DISTINCT aggregate item the units must return the argument of needs its spans. */
    private void checkDistinctItems() {
        for (SelectShape.Item item : shape.items()) {
            SelectShape.Aggregate a = item.aggregate();
            if (DistinctArguments.groupsBy(a) && (item.start() < 0 || (a.isTuple() || a.argument().indexOf('?') >= 0) && a.argumentStart() < 0)) {
                throw unsupported("an aggregate over DISTINCT values of this expression across shards: " + item.text());
            }
        }
    }

    /**
     * Each DISTINCT aggregate item becomes its own argument (under the item's label), and the units
     * group by every DISTINCT argument of the statement besides its GROUP BY.
     */
    private void distinctEdits(List<Renderer.Edit> edits) {
        for (SelectShape.Item item : shape.items()) {
            SelectShape.Aggregate a = item.aggregate();
            if (DistinctArguments.groupsBy(a)) {
                List<Renderer.Piece> value = a.isTuple() ? DistinctArguments.tuple(a) : hidden.pieces("", argumentExpr(a), "");
                edits.add(new Renderer.Edit(item.start(), item.end(), value, item.alias() == null));
            }
        }
        Clause group = template.clause(Clause.Kind.GROUP_BY);
        if (group != null) {
            edits.add(new Renderer.Edit(group.end(), group.end(), distincts.groupByList(", ", ""), false));
        } else {
            Clause point = template.clause(Clause.Kind.GROUP_BY_POINT);
            edits.add(new Renderer.Edit(point.start(), point.start(), distincts.groupByList(" group by ", " "), false));
        }
    }

    /** Nothing hidden: the tail shows every column (a * stays correct whatever its width). */
    private static MergeSpec showAll(MergeSpec spec) {
        MergeSpec.Tail t = spec.tail();
        MergeSpec.Tail all = new MergeSpec.Tail(t.distinct(), t.offset(), t.limit(), -1);
        return switch (spec) {
            case MergeSpec.PassThrough p -> p;
            case MergeSpec.Concat c -> new MergeSpec.Concat(all);
            case MergeSpec.SortedMerge s -> new MergeSpec.SortedMerge(s.keys(), all);
            case MergeSpec.GroupedAggregate g -> new MergeSpec.GroupedAggregate(g.groupKeys(), g.aggregates(), g.computed(),
                    g.inputSortedByGroup(), g.having(), g.order(), all, g.rollup());
        };
    }

    private MergeSpec aggregate(long offset, long limit) {
        if (shape.having() != null && shape.havingExpr() == null) {
            throw unsupported("this HAVING condition across shards: " + shape.having());
        }
        List<SortKey> groupKeys = new ArrayList<>();
        boolean rollup = template.clause(Clause.Kind.ROLLUP) != null && shape.orderBy().isEmpty();
        for (SelectShape.Key key : shape.groupBy()) {
            int column = keyColumn(key);
            if (column >= 0) {
                groupKeys.add(new SortKey(column, false, weight(keyExpr(key))));
            } else if (rollup) {
                throw unsupported("GROUP BY " + keyExpr(key).text() + " WITH ROLLUP across shards");
            }
        }
        List<AggregateSlot> aggregates = new ArrayList<>();
        for (int i = 0; i < shape.items().size(); i++) {
            SelectShape.Item item = shape.items().get(i);
            SelectShape.Aggregate a = item.aggregate();
            if (a == null) {
                continue;
            }
            if (DistinctArguments.groupsBy(a)) {
                // each unit returns the distinct values themselves (grouped by them); the merge counts them once
                Expr argument = distincts.add(argumentExpr(a));
                // a tuple's column is its identity already (weights inside); one argument compares by its weight
                aggregates.add(new AggregateSlot(DistinctArguments.kind(a), i, -1, -1, a.isTuple() ? -1 : weight(argument)));
                continue;
            }
            aggregates.add(switch (a.kind()) {
                case COUNT -> AggregateSlot.of(AggregateSlot.Kind.COUNT, i);
                case SUM -> AggregateSlot.of(AggregateSlot.Kind.SUM, i);
                case MIN -> new AggregateSlot(AggregateSlot.Kind.MIN, i, -1, -1, weight(itemExpr(i)));
                case MAX -> new AggregateSlot(AggregateSlot.Kind.MAX, i, -1, -1, weight(itemExpr(i)));
                case AVG -> new AggregateSlot(AggregateSlot.Kind.AVG, i, hidden.add("sum(", argumentExpr(a), ")"),
                        hidden.add("count(", argumentExpr(a), ")"), -1);
                case BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP ->
                        PartialAggregates.slot(a.kind(), i, argumentExpr(a), hidden);
                case GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG -> concatSlot(a, i);
                case OTHER -> throw unsupported("aggregate " + item.text() + " across shards");
            });
        }
        for (int i = 0; i < visible; i++) {
            SelectShape.Item item = shape.items().get(i);
            if (item.expression() != null) {
                // the units compute the item too: its value is replaced, its column definition is MySQL's
                itemExpressions[i] = having(item.expression(), aggregates);
                computed.add(new MergeSpec.ComputedColumn(i, itemExpressions[i]));
            }
        }
        RowExpr having = shape.havingExpr() == null ? null : having(shape.havingExpr(), aggregates);
        List<SortKey> order = new ArrayList<>();
        for (SelectShape.Key key : shape.orderBy()) {
            if (key.aggregate() != null) {
                order.add(unselectedAggregate(key, aggregates));
                continue;
            }
            if (key.containsAggregate()) {
                order.add(computedKey(key, aggregates));
                continue;
            }
            int column = keyColumn(key);
            if (column < 0) {
                continue;
            }
            if (column >= visible && !isGroupExpression(key)) {
                throw unsupported("ORDER BY an aggregate that is not selected, across shards: " + keyExpr(key).text());
            }
            order.add(new SortKey(column, key.descending(), orderWeight(column, key)));
        }
        return new MergeSpec.GroupedAggregate(groupKeys, aggregates, computed, false, having, order,
                // SELECT DISTINCT over groups (DISTINCT COUNT(*) ... GROUP BY): the merged groups' visible rows de-duplicated
                new MergeSpec.Tail(shape.distinct(), offset, limit, visibleWidth()), rollup && !groupKeys.isEmpty());
    }

    /**
     * GROUP_CONCAT: the units group by its arguments and ORDER BY keys besides the statement's GROUP BY
     * (as for DISTINCT arguments), so each unit row's GROUP_CONCAT is a piece over rows equal in all of
     * them, with MySQL's own column definition; hidden columns carry the keys (and for DISTINCT the
     * arguments) with their weights, and the SEPARATOR literal as the units return it. The merger sorts,
     * de-duplicates and joins the pieces (Accumulator.Concat).
     */
    private AggregateSlot concatSlot(SelectShape.Aggregate a, int column) {
        SelectShape.GroupConcat parts = a.concat();
        List<SortKey> identity = new ArrayList<>();
        for (SelectShape.Span span : parts.arguments()) {
            Expr argument = distincts.add(spanExpr(span));
            if (a.distinct()) {
                identity.add(new SortKey(hidden.add("", argument, ""), false, weight(argument)));
            }
        }
        List<SortKey> order = new ArrayList<>();
        for (SelectShape.ConcatKey key : parts.order()) {
            Expr expression = distincts.add(spanExpr(key.span()));
            order.add(new SortKey(hidden.add("", expression, ""), key.descending(), weight(expression)));
        }
        int separator = parts.separator() == null ? -1 : hidden.add("", spanExpr(parts.separator()), "");
        // MariaDB cuts JSON_ARRAYAGG at group_concat_max_len as GROUP_CONCAT (then closes the array); never JSON_OBJECTAGG
        int maxLength = a.kind() == SelectShape.AggregateKind.JSON_OBJECTAGG ? -1
                : hidden.add("", new Expr("@@group_concat_max_len", -1, -1), "");
        AggregateSlot.Kind kind = switch (a.kind()) {
            case JSON_ARRAYAGG -> AggregateSlot.Kind.JSON_ARRAYAGG;
            case JSON_OBJECTAGG -> AggregateSlot.Kind.JSON_OBJECTAGG;
            case GROUP_CONCAT -> AggregateSlot.Kind.GROUP_CONCAT;
            case COUNT, SUM, MIN, MAX, AVG, BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, OTHER ->
                    throw new IllegalArgumentException("not joined from pieces: " + a.kind());
        };
        return new AggregateSlot(kind, column, -1, -1, -1, new AggregateSlot.Concat(order, identity, a.distinct(), separator, maxLength));
    }

    private boolean isConcatItem(int column) {
        if (column < 0 || column >= visible) {
            return false;
        }
        SelectShape.Aggregate a = shape.items().get(column).aggregate();
        return a != null && a.kind().isConcat();
    }

    private Expr spanExpr(SelectShape.Span span) {
        return new Expr(template.text().substring(span.start(), span.end()), span.start(), span.end());
    }

    /**
     * ORDER BY an expression over aggregates that is not a select item ({@code ORDER BY SUM(a) / COUNT(*)}):
     * a hidden column the units compute (for its column definition, whose scale the sort compares at, as
     * MySQL's sort key does) and the merger overwrites with the expression over merged aggregates.
     */
    private SortKey computedKey(SelectShape.Key key, List<AggregateSlot> aggregates) {
        if (key.expression() == null) {
            throw unsupported("ORDER BY this expression over aggregates across shards: " + key.text());
        }
        int column = key.start() < 0 || key.divisors().isEmpty() ? hidden.add("", keyExpr(key), "")
                : hidden.add("", keyExpr(key), "", SafeDivisors.pieces(key.start(), key.end(), key.divisors()));
        boolean known = false;
        for (MergeSpec.ComputedColumn c : computed) {
            known |= c.column() == column;
        }
        if (!known) {
            computed.add(new MergeSpec.ComputedColumn(column, having(key.expression(), aggregates)));
        }
        return new SortKey(column, key.descending(), -1);
    }

    /**
     * ORDER BY an aggregate that is not selected: merged in a hidden column of its own (or the one a
     * HAVING already merges), like a HAVING aggregate, and the groups sorted by its merged value.
     */
    private SortKey unselectedAggregate(SelectShape.Key key, List<AggregateSlot> aggregates) {
        SelectShape.Aggregate a = key.aggregate();
        if (a.kind() == SelectShape.AggregateKind.OTHER) {
            throw unsupported("ORDER BY aggregate " + key.text() + " across shards");
        }
        int column = havingColumn(new HavingExpr.Ref(key.text(), a), aggregates);
        int weight = -1;
        for (AggregateSlot slot : aggregates) {
            if (slot.column() == column && (slot.kind() == AggregateSlot.Kind.MIN || slot.kind() == AggregateSlot.Kind.MAX)) {
                weight = slot.weightColumn(); // merged with the value by the accumulator
            }
        }
        return new SortKey(column, key.descending(), weight);
    }

    /** The HAVING condition over merged columns; aggregates it needs that are not selected become hidden ones. */
    private RowExpr having(HavingExpr e, List<AggregateSlot> aggregates) {
        return switch (e) {
            case HavingExpr.Value v -> new RowExpr.Constant(NodeSelector.value(v.value(), bindings));
            case HavingExpr.Ref r when r.aggregate() != null && r.aggregate().kind() == SelectShape.AggregateKind.AVG ->
                    average(r.aggregate(), aggregates);
            case HavingExpr.Ref r -> {
                int column = havingColumn(r, aggregates);
                if (isConcatItem(column)) {
                    throw unsupported("a GROUP_CONCAT item in HAVING or ORDER BY across shards: " + r.text());
                }
                if (r.aggregate() == null && column < visible && itemExpressions[column] != null) {
                    yield itemExpressions[column]; // an alias of a computed item: its exact value, not its rounded text
                }
                SelectShape.Aggregate itemAggregate = r.aggregate() == null && column < visible ? shape.items().get(column).aggregate() : null;
                if (itemAggregate != null && itemAggregate.kind() == SelectShape.AggregateKind.AVG) {
                    yield average(itemAggregate, aggregates);
                }
                Expr expression = r.aggregate() != null ? null
                        : column < visible ? itemExpr(column) : new Expr(r.text(), r.start(), r.end());
                yield new RowExpr.ColumnRef(column, expression == null ? -1 : weight(expression));
            }
            case HavingExpr.Binary b -> switch (b.op()) {
                case EQ -> new RowExpr.Compare(RowExpr.CompareOp.EQ, having(b.left(), aggregates), having(b.right(), aggregates));
                case NE -> new RowExpr.Compare(RowExpr.CompareOp.NE, having(b.left(), aggregates), having(b.right(), aggregates));
                case LT -> new RowExpr.Compare(RowExpr.CompareOp.LT, having(b.left(), aggregates), having(b.right(), aggregates));
                case LE -> new RowExpr.Compare(RowExpr.CompareOp.LE, having(b.left(), aggregates), having(b.right(), aggregates));
                case GT -> new RowExpr.Compare(RowExpr.CompareOp.GT, having(b.left(), aggregates), having(b.right(), aggregates));
                case GE -> new RowExpr.Compare(RowExpr.CompareOp.GE, having(b.left(), aggregates), having(b.right(), aggregates));
                case ADD -> new RowExpr.Arithmetic(RowExpr.ArithmeticOp.ADD, having(b.left(), aggregates), having(b.right(), aggregates));
                case SUBTRACT -> new RowExpr.Arithmetic(RowExpr.ArithmeticOp.SUBTRACT, having(b.left(), aggregates), having(b.right(), aggregates));
                case MULTIPLY -> new RowExpr.Arithmetic(RowExpr.ArithmeticOp.MULTIPLY, having(b.left(), aggregates), having(b.right(), aggregates));
                case DIVIDE -> new RowExpr.Arithmetic(RowExpr.ArithmeticOp.DIVIDE, having(b.left(), aggregates), having(b.right(), aggregates));
            };
            case HavingExpr.And a -> new RowExpr.And(a.operands().stream().map(x -> having(x, aggregates)).toList());
            case HavingExpr.Or o -> new RowExpr.Or(o.operands().stream().map(x -> having(x, aggregates)).toList());
            case HavingExpr.Not n -> new RowExpr.Not(having(n.operand(), aggregates));
            case HavingExpr.Negate n -> new RowExpr.Negate(having(n.operand(), aggregates));
            case HavingExpr.Coalesce c -> new RowExpr.Coalesce(c.operands().stream().map(x -> having(x, aggregates)).toList());
            case HavingExpr.If i -> new RowExpr.If(having(i.condition(), aggregates), having(i.then(), aggregates),
                    having(i.otherwise(), aggregates));
            case HavingExpr.IsNull n -> new RowExpr.IsNull(having(n.operand(), aggregates), n.negated());
        };
    }

    /**
     * AVG(x) inside an expression is SUM(x) / COUNT(x) (or their DISTINCT forms) merged and divided
     * as MySQL's AVG divides, unrounded: MySQL computes {@code AVG(x) * 3} from the unrounded quotient,
     * not from the AVG column's text at its scale.
     */
    private RowExpr average(SelectShape.Aggregate avg, List<AggregateSlot> aggregates) {
        String distinct = avg.distinct() ? "distinct " : "";
        SelectShape.Aggregate sum = new SelectShape.Aggregate(SelectShape.AggregateKind.SUM, avg.distinct(), avg.argument(),
                avg.argumentStart(), avg.argumentEnd());
        SelectShape.Aggregate count = new SelectShape.Aggregate(SelectShape.AggregateKind.COUNT, avg.distinct(), avg.argument(),
                avg.argumentStart(), avg.argumentEnd());
        return new RowExpr.Average(
                having(new HavingExpr.Ref("sum(" + distinct + avg.argument() + ")", sum), aggregates),
                having(new HavingExpr.Ref("count(" + distinct + avg.argument() + ")", count), aggregates));
    }

    private int havingColumn(HavingExpr.Ref ref, List<AggregateSlot> aggregates) {
        SelectShape.Aggregate wanted = ref.aggregate();
        for (int i = 0; i < shape.items().size(); i++) {
            SelectShape.Item item = shape.items().get(i);
            if (wanted != null && sameAggregate(wanted, item.aggregate())
                    || wanted == null && (item.alias() != null && item.alias().equalsIgnoreCase(unquote(ref.text()))
                    || item.text().equalsIgnoreCase(ref.text()))) {
                return i;
            }
        }
        if (wanted == null) {
            return hidden.add("", new Expr(ref.text(), ref.start(), ref.end()), "");
        }
        if (DistinctArguments.groupsBy(wanted)) {
            return distinctColumn(wanted, aggregates);
        }
        if (wanted.kind().isConcat()) {
            throw unsupported(ref.text() + " in HAVING or ORDER BY across shards (only as a select item)");
        }
        String name = wanted.kind().name().toLowerCase(Locale.ROOT) + "(";
        Expr argument = argumentExpr(wanted);
        int column = hidden.add(name, argument, ")");
        for (AggregateSlot slot : aggregates) {
            if (slot.column() == column) {
                return column; // the same aggregate named twice (HAVING and ORDER BY): merged once
            }
        }
        aggregates.add(switch (wanted.kind()) {
            case COUNT -> AggregateSlot.of(AggregateSlot.Kind.COUNT, column);
            case SUM -> AggregateSlot.of(AggregateSlot.Kind.SUM, column);
            case MIN, MAX -> new AggregateSlot(wanted.kind() == SelectShape.AggregateKind.MIN ? AggregateSlot.Kind.MIN
                    : AggregateSlot.Kind.MAX, column, -1, -1, weightOf(name, argument, ")"));
            case AVG -> new AggregateSlot(AggregateSlot.Kind.AVG, column, hidden.add("sum(", argument, ")"),
                    hidden.add("count(", argument, ")"), -1);
            case BIT_AND, BIT_OR, BIT_XOR, VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP ->
                    PartialAggregates.slot(wanted.kind(), column, argument, hidden);
            case GROUP_CONCAT, JSON_ARRAYAGG, JSON_OBJECTAGG ->
                    throw unsupported(ref.text() + " in HAVING or ORDER BY across shards (only as a select item)");
            case OTHER -> throw unsupported("aggregate " + ref.text() + " in HAVING across shards");
        });
        return column;
    }

    /**
     * A DISTINCT aggregate that is not selected (HAVING, ORDER BY): a hidden column holding its argument,
     * merged like a selected one. COUNT, SUM and AVG over one argument need three columns, which the
     * argument's nesting in parentheses keeps apart (a parenthesized expression keeps its type and value).
     */
    private int distinctColumn(SelectShape.Aggregate wanted, List<AggregateSlot> aggregates) {
        Expr argument = argumentExpr(wanted);
        AggregateSlot.Kind kind = DistinctArguments.kind(wanted);
        if (wanted.isTuple()) {
            int column = hidden.add("tuple(", argument, ")", DistinctArguments.tuple(wanted));
            for (AggregateSlot slot : aggregates) {
                if (slot.column() == column) {
                    return column;
                }
            }
            distincts.add(argument);
            aggregates.add(new AggregateSlot(kind, column, -1, -1, -1));
            return column;
        }
        int depth = DistinctArguments.nesting(kind);
        int column = hidden.add("(".repeat(depth), argument, ")".repeat(depth));
        for (AggregateSlot slot : aggregates) {
            if (slot.column() == column) {
                return column; // named twice (HAVING and ORDER BY): merged once
            }
        }
        aggregates.add(new AggregateSlot(kind, column, -1, -1, weight(distincts.add(argument))));
        return column;
    }

    private static String unquote(String s) {
        return s.startsWith("`") && s.endsWith("`") ? s.substring(1, s.length() - 1) : s;
    }

    /**
     * The weight column for ordering groups by {@code column}. A merged aggregate's weight must be
     * merged with it: MIN/MAX carry theirs (the slot's own weight column, which the accumulator
     * writes with the winning value); COUNT, SUM and AVG are numbers and take none. A weight of the
     * unit's text would hold one shard's partial value, or for COUNT/SUM/AVG(DISTINCT x) the weight
     * of x itself (the units return x there), and order the groups by that instead (issue 12).
     */
    private int orderWeight(int column, SelectShape.Key key) {
        if (isConcatItem(column)) {
            // the units' WEIGHT_STRING of it would be a piece's; the merged text's weight is not known here
            throw unsupported("ORDER BY a GROUP_CONCAT item across shards: " + shape.items().get(column).text());
        }
        SelectShape.Aggregate a = column < visible ? shape.items().get(column).aggregate() : null;
        if (a != null && a.kind() != SelectShape.AggregateKind.MIN && a.kind() != SelectShape.AggregateKind.MAX) {
            return -1;
        }
        if (column < visible && itemExpressions[column] != null) {
            return -1; // computed by the merger: a number, and the units' text of it is a partial value
        }
        return weight(keyExpr(key));
    }

    private boolean isGroupExpression(SelectShape.Key key) {
        Expr expr = keyExpr(key);
        for (SelectShape.Key g : shape.groupBy()) {
            if (hidden.same(expr, keyExpr(g))) {
                return true;
            }
        }
        return false;
    }

    private List<SortKey> orderKeys() {
        List<SortKey> keys = new ArrayList<>();
        for (SelectShape.Key key : shape.orderBy()) {
            int column = keyColumn(key);
            if (column >= 0) {
                keys.add(new SortKey(column, key.descending(), weight(keyExpr(key))));
            }
        }
        return keys;
    }

    /** The column a key sorts by, adding a hidden one when needed; -1 for a constant (no effect). */
    private int keyColumn(SelectShape.Key key) {
        if (key.item() >= 0) {
            return key.item();
        }
        if (key.ordinal() != null) {
            if (key.ordinal() instanceof ValueRef.Param p && bindings.text(p.index()) == null) {
                return -1; // a bound parameter in ORDER BY is a constant, not a position
            }
            long position = number(key.ordinal(), -1);
            if (position < 1 || position > visible) {
                throw new ShardwiseException(ErrorCode.BAD_FIELD, String.valueOf(position), "order clause");
            }
            if (shape.items().get((int) position - 1).isStar()) {
                throw unsupported("ORDER BY the position of a * item across shards");
            }
            return (int) position - 1;
        }
        Expr expr = keyExpr(key);
        if (expr.hasValues()) {
            // matched here, not at analysis: an item is this key only with the same values in its ?s
            for (int i = 0; i < visible; i++) {
                if (hidden.same(expr, itemExpr(i))) {
                    return i;
                }
            }
        }
        return hidden.add("", expr, "");
    }

    private Expr keyExpr(SelectShape.Key key) {
        if (key.item() >= 0) {
            return itemExpr(key.item());
        }
        if (key.ordinal() != null) {
            int column = keyColumn(key);
            return column < 0 ? new Expr("", -1, -1) : itemExpr(column);
        }
        return new Expr(key.text(), key.start(), key.end());
    }

    private Expr itemExpr(int item) {
        SelectShape.Item i = shape.items().get(item);
        return new Expr(i.text(), i.start(), i.end());
    }

    private static Expr argumentExpr(SelectShape.Aggregate a) {
        return new Expr(a.argument(), a.argumentStart(), a.argumentEnd());
    }

    /** The same aggregate call: same text, and where the argument holds values, the same values. */
    private boolean sameAggregate(SelectShape.Aggregate a, SelectShape.Aggregate b) {
        return a.sameText(b) && hidden.same(argumentExpr(a), argumentExpr(b));
    }

    private int weight(Expr expression) {
        return expression.text().isEmpty() ? -1 : hidden.weight(expression);
    }

    /** A hidden WEIGHT_STRING of {@code before + expression + after}; -1 for no expression. */
    private int weightOf(String before, Expr expression, String after) {
        if (expression.text().isEmpty()) {
            return -1;
        }
        // rtrim: under PAD SPACE collations 'a ' = 'a', but WEIGHT_STRING keeps trailing spaces
        return hidden.add("weight_string(rtrim(" + before, expression, after + "))");
    }

    private int visibleWidth() {
        return visible;
    }

    private long number(ValueRef ref, long absent) {
        if (ref == null) {
            return absent;
        }
        Object v = NodeSelector.value(ref, bindings);
        return switch (v) {
            case Long l -> l;
            case Integer i -> i;
            case BigInteger b -> b.min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
            case BigDecimal d -> d.longValue();
            case String s -> Long.parseLong(s.trim());
            case null -> absent;
            default -> Long.parseLong(v.toString());
        };
    }

    static ShardwiseException unsupported(String what) {
        return new ShardwiseException(ErrorCode.UNSUPPORTED, what);
    }
}
