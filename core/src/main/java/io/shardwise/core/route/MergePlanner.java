package io.shardwise.core.route;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rewrite.Renderer;
import io.shardwise.core.sql.analyze.Clause;
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
            if (item.aggregate() != null && item.aggregate().distinct()) {
                throw unsupported("aggregate over DISTINCT values across shards: " + item.text());
            }
        }
        long offset = number(shape.offset(), 0);
        long limit = number(shape.limit(), -1);
        List<Renderer.Edit> edits = new ArrayList<>();
        MergeSpec spec;
        if (shape.isAggregate()) {
            spec = aggregate(offset, limit);
            Clause limitClause = template.clause(Clause.Kind.LIMIT);
            if (limitClause != null) {
                edits.add(new Renderer.Edit(limitClause.start(), limitClause.end(), ""));
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
        if (shape.having() != null) {
            throw unsupported("HAVING across shards");
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
        return new MergeSpec.GroupedAggregate(groupKeys, aggregates, false, null, order,
                new MergeSpec.Tail(false, offset, limit, visibleWidth()));
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
                throw new ShardwiseException(ErrorCode.BACKEND_ERROR, "Unknown column '" + position + "' in 'order clause'");
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
        return hide("weight_string(" + expression + ")");
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
