package io.shardwise.core.route;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.sql.analyze.Clause;
import io.shardwise.core.sql.analyze.HavingExpr;
import io.shardwise.core.sql.analyze.SelectShape;
import io.shardwise.core.sql.analyze.SqlTemplate;
import io.shardwise.core.sql.analyze.ValueRef;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Plans how a SELECT that runs on several nodes is merged: the merge spec, and the edits every
 * node's SQL needs for it — helper columns appended to the select list (sort keys not selected,
 * WEIGHT_STRING() of each key for collation-aware comparison, SUM and COUNT behind AVG), LIMIT o,n
 * turned into LIMIT o+n (or dropped under aggregation), HAVING and LIMIT left to the merger.
 * Whatever it cannot merge exactly it refuses with 1235.
 */
final class MergePlanner {
    record Plan(MergeSpec spec, List<Renderer.Edit> edits, int width) {}

    private final SelectShape shape;
    private final SqlTemplate template;
    private final Bindings bindings;
    private final int visible;
    private final Map<String, Integer> hidden = new LinkedHashMap<>();
    private final List<String> hiddenTexts = new ArrayList<>();

    private MergePlanner(SelectShape shape, SqlTemplate template, Bindings bindings) {
        this.shape = shape;
        this.template = template;
        this.bindings = bindings;
        this.visible = shape.items().size();
    }

    static Plan plan(SelectShape shape, SqlTemplate template, Bindings bindings) {
        return new MergePlanner(shape, template, bindings).plan();
    }

    private Plan plan() {
        for (SelectShape.Item item : shape.items()) {
            if (item.containsAggregate()) {
                throw unsupported("an expression over aggregates across shards: " + item.text());
            }
            if (item.aggregate() != null && item.aggregate().kind() == SelectShape.AggregateKind.OTHER) {
                throw unsupported("aggregate " + item.text() + " across shards");
            }
        }
        String distinctArgument = distinctArgument();
        long offset = number(shape.offset(), 0);
        long limit = number(shape.limit(), -1);
        List<Renderer.Edit> edits = new ArrayList<>();
        MergeSpec spec;
        if (shape.isAggregate()) {
            spec = aggregate(offset, limit);
            if (distinctArgument != null) {
                distinctEdits(distinctArgument, edits);
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
        } else {
            MergeSpec.Tail tail = new MergeSpec.Tail(false, offset, limit, visibleWidth());
            if (shape.distinct()) {
                if (shape.star()) {
                    throw unsupported("SELECT DISTINCT * across shards");
                }
                List<SortKey> all = new ArrayList<>();
                for (int i = 0; i < visible; i++) {
                    all.add(new SortKey(i, false, weight(shape.items().get(i).text())));
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
            Clause end = template.clause(Clause.Kind.SELECT_LIST_END);
            StringBuilder sb = new StringBuilder();
            for (String expr : hiddenTexts) {
                sb.append(", ").append(expr);
            }
            edits.add(new Renderer.Edit(end.start(), end.start(), sb.toString()));
        }
        edits.sort((a, b) -> Integer.compare(a.start(), b.start()));
        return new Plan(hidden.isEmpty() ? showAll(spec) : spec, edits, visible + hidden.size());
    }

    /**
     * The one argument of the COUNT/SUM/AVG(DISTINCT ...) items, or null when there are none. Shards
     * can group by one extra expression, so several different DISTINCT arguments are refused.
     */
    private String distinctArgument() {
        String argument = null;
        for (SelectShape.Item item : shape.items()) {
            SelectShape.Aggregate a = item.aggregate();
            if (a == null || !a.distinct() || a.kind() == SelectShape.AggregateKind.MIN || a.kind() == SelectShape.AggregateKind.MAX) {
                continue;
            }
            if (a.argument().indexOf('?') >= 0 || item.start() < 0) {
                throw unsupported("an aggregate over DISTINCT values of an expression with a literal, across shards: " + item.text());
            }
            if (argument != null && !argument.equalsIgnoreCase(a.argument())) {
                throw unsupported("aggregates over DISTINCT values of different expressions (" + argument + ", " + a.argument()
                        + ") across shards");
            }
            argument = a.argument();
        }
        return argument;
    }

    /** Each distinct aggregate item becomes its argument (under the item's label), and shards group by it. */
    private void distinctEdits(String argument, List<Renderer.Edit> edits) {
        for (SelectShape.Item item : shape.items()) {
            SelectShape.Aggregate a = item.aggregate();
            if (a != null && a.distinct() && a.kind() != SelectShape.AggregateKind.MIN && a.kind() != SelectShape.AggregateKind.MAX) {
                edits.add(new Renderer.Edit(item.start(), item.end(), argument, item.alias() == null));
            }
        }
        Clause group = template.clause(Clause.Kind.GROUP_BY);
        if (group != null) {
            edits.add(new Renderer.Edit(group.end(), group.end(), ", " + argument));
        } else {
            Clause point = template.clause(Clause.Kind.GROUP_BY_POINT);
            edits.add(new Renderer.Edit(point.start(), point.start(), " group by " + argument + " "));
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
            case MergeSpec.GroupedAggregate g -> new MergeSpec.GroupedAggregate(g.groupKeys(), g.aggregates(), g.inputSortedByGroup(),
                    g.having(), g.order(), all);
        };
    }

    private MergeSpec aggregate(long offset, long limit) {
        if (shape.having() != null && shape.havingExpr() == null) {
            throw unsupported("this HAVING condition across shards: " + shape.having());
        }
        List<SortKey> groupKeys = new ArrayList<>();
        for (SelectShape.Key key : shape.groupBy()) {
            int column = keyColumn(key);
            if (column >= 0) {
                groupKeys.add(new SortKey(column, false, weight(keyText(key))));
            }
        }
        List<AggregateSlot> aggregates = new ArrayList<>();
        for (int i = 0; i < shape.items().size(); i++) {
            SelectShape.Item item = shape.items().get(i);
            SelectShape.Aggregate a = item.aggregate();
            if (a == null) {
                continue;
            }
            if (a.distinct() && a.kind() != SelectShape.AggregateKind.MIN && a.kind() != SelectShape.AggregateKind.MAX) {
                // each shard returns the distinct values themselves (grouped by them); the merge counts them once
                AggregateSlot.Kind kind = switch (a.kind()) {
                    case COUNT -> AggregateSlot.Kind.COUNT_DISTINCT;
                    case SUM -> AggregateSlot.Kind.SUM_DISTINCT;
                    default -> AggregateSlot.Kind.AVG_DISTINCT;
                };
                aggregates.add(new AggregateSlot(kind, i, -1, -1, weight(a.argument())));
                continue;
            }
            aggregates.add(switch (a.kind()) {
                case COUNT -> AggregateSlot.of(AggregateSlot.Kind.COUNT, i);
                case SUM -> AggregateSlot.of(AggregateSlot.Kind.SUM, i);
                case MIN -> new AggregateSlot(AggregateSlot.Kind.MIN, i, -1, -1, weight(item.text()));
                case MAX -> new AggregateSlot(AggregateSlot.Kind.MAX, i, -1, -1, weight(item.text()));
                case AVG -> new AggregateSlot(AggregateSlot.Kind.AVG, i, hide("sum(" + a.argument() + ")"),
                        hide("count(" + a.argument() + ")"), -1);
                case OTHER -> throw unsupported("aggregate " + item.text() + " across shards");
            });
        }
        RowExpr having = shape.havingExpr() == null ? null : having(shape.havingExpr(), aggregates);
        List<SortKey> order = new ArrayList<>();
        for (SelectShape.Key key : shape.orderBy()) {
            int column = keyColumn(key);
            if (column < 0) {
                continue;
            }
            if (column >= visible && !isGroupExpression(key)) {
                throw unsupported("ORDER BY an aggregate that is not selected, across shards: " + keyText(key));
            }
            order.add(new SortKey(column, key.descending(), weight(keyText(key))));
        }
        return new MergeSpec.GroupedAggregate(groupKeys, aggregates, false, having, order,
                new MergeSpec.Tail(false, offset, limit, visibleWidth()));
    }

    /** The HAVING condition over merged columns; aggregates it needs that are not selected become hidden ones. */
    private RowExpr having(HavingExpr e, List<AggregateSlot> aggregates) {
        return switch (e) {
            case HavingExpr.Value v -> new RowExpr.Constant(NodeSelector.value(v.value(), bindings));
            case HavingExpr.Ref r -> {
                int column = havingColumn(r, aggregates);
                String expression = r.aggregate() != null ? "" : column < visible ? shape.items().get(column).text() : r.text();
                yield new RowExpr.ColumnRef(column, weight(expression));
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
            case HavingExpr.IsNull n -> new RowExpr.IsNull(having(n.operand(), aggregates), n.negated());
        };
    }

    private int havingColumn(HavingExpr.Ref ref, List<AggregateSlot> aggregates) {
        SelectShape.Aggregate wanted = ref.aggregate();
        for (int i = 0; i < shape.items().size(); i++) {
            SelectShape.Item item = shape.items().get(i);
            if (wanted != null && wanted.equals(item.aggregate())
                    || wanted == null && (item.alias() != null && item.alias().equalsIgnoreCase(unquote(ref.text()))
                    || item.text().equalsIgnoreCase(ref.text()))) {
                return i;
            }
        }
        if (wanted == null) {
            return hide(ref.text());
        }
        if (wanted.distinct()) {
            throw unsupported("aggregate over DISTINCT values in HAVING across shards: " + ref.text());
        }
        int column = hide(ref.text());
        aggregates.add(switch (wanted.kind()) {
            case COUNT -> AggregateSlot.of(AggregateSlot.Kind.COUNT, column);
            case SUM -> AggregateSlot.of(AggregateSlot.Kind.SUM, column);
            case MIN -> new AggregateSlot(AggregateSlot.Kind.MIN, column, -1, -1, weight(ref.text()));
            case MAX -> new AggregateSlot(AggregateSlot.Kind.MAX, column, -1, -1, weight(ref.text()));
            case AVG -> new AggregateSlot(AggregateSlot.Kind.AVG, column, hide("sum(" + wanted.argument() + ")"),
                    hide("count(" + wanted.argument() + ")"), -1);
            case OTHER -> throw unsupported("aggregate " + ref.text() + " in HAVING across shards");
        });
        return column;
    }

    private static String unquote(String s) {
        return s.startsWith("`") && s.endsWith("`") ? s.substring(1, s.length() - 1) : s;
    }

    private boolean isGroupExpression(SelectShape.Key key) {
        String text = keyText(key);
        for (SelectShape.Key g : shape.groupBy()) {
            if (text.equalsIgnoreCase(keyText(g))) {
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
                keys.add(new SortKey(column, key.descending(), weight(keyText(key))));
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
        return hide(key.text());
    }

    private String keyText(SelectShape.Key key) {
        if (key.item() >= 0) {
            return shape.items().get(key.item()).text();
        }
        if (key.ordinal() != null) {
            int column = keyColumn(key);
            return column < 0 ? "" : shape.items().get(column).text();
        }
        return key.text();
    }

    private int weight(String expression) {
        if (expression.isEmpty()) {
            return -1;
        }
        // rtrim: under PAD SPACE collations 'a ' = 'a', but WEIGHT_STRING keeps trailing spaces
        return hide("weight_string(rtrim(" + expression + "))");
    }

    private int hide(String expression) {
        if (expression.indexOf('?') >= 0) {
            throw unsupported("a sort, group or aggregate expression with a literal or parameter across shards: " + expression);
        }
        String key = expression.toLowerCase(Locale.ROOT);
        Integer existing = hidden.get(key);
        if (existing != null) {
            return existing;
        }
        int index = visible + hidden.size();
        hidden.put(key, index);
        hiddenTexts.add(expression);
        return index;
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
