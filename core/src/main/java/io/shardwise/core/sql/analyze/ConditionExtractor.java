package io.shardwise.core.sql.analyze;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDynamicParam;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Reads what WHERE and inner-join conditions say about each sharded table's key: equalities, IN
 * lists, ranges, IS NULL, combined with AND and OR. Anything else about a key (functions of it,
 * NOT, comparisons with other columns) says nothing, which is always safe: it only widens the route.
 */
final class ConditionExtractor {
    private final ParsedText parsed;
    private final ShardingRule rule;
    private final List<TableRef> tables;
    final List<Select.KeyJoin> keyJoins = new ArrayList<>();

    ConditionExtractor(ParsedText parsed, ShardingRule rule, List<TableRef> tables) {
        this.parsed = parsed;
        this.rule = rule;
        this.tables = tables;
    }

    /** Records the key joins in conditions that co-locate rows without narrowing them (outer-join ON). */
    void keyJoinsOnly(List<SqlNode> conditions) {
        for (SqlNode condition : conditions) {
            for (SqlNode conjunct : conjuncts(condition)) {
                if (conjunct instanceof SqlCall call && call.getKind() == SqlKind.EQUALS) {
                    TableRef l = keyOf(call.operand(0));
                    TableRef r = keyOf(call.operand(1));
                    if (l != null && r != null) {
                        keyJoins.add(new Select.KeyJoin(l, r));
                    }
                }
            }
        }
    }

    /** Per sharded table reference, the AND of what each conjunct says about its key. */
    Map<TableRef, KeyCondition> extract(List<SqlNode> conditions) {
        Map<TableRef, List<KeyCondition>> found = new LinkedHashMap<>();
        for (SqlNode condition : conditions) {
            for (SqlNode conjunct : conjuncts(condition)) {
                Map<TableRef, KeyCondition> one = condition(conjunct);
                one.forEach((t, c) -> found.computeIfAbsent(t, k -> new ArrayList<>()).add(c));
            }
        }
        Map<TableRef, KeyCondition> result = new HashMap<>();
        found.forEach((t, list) -> result.put(t, list.size() == 1 ? list.get(0) : new KeyCondition.And(list)));
        return result;
    }

    static List<SqlNode> conjuncts(SqlNode node) {
        List<SqlNode> out = new ArrayList<>();
        if (node instanceof SqlCall call && call.getKind() == SqlKind.AND) {
            for (SqlNode operand : call.getOperandList()) {
                out.addAll(conjuncts(operand));
            }
        } else if (node != null) {
            out.add(node);
        }
        return out;
    }

    /** What one condition says about each table's key (tables it says nothing about are absent). */
    private Map<TableRef, KeyCondition> condition(SqlNode node) {
        if (!(node instanceof SqlCall call)) {
            return Map.of();
        }
        SqlKind kind = call.getKind();
        switch (kind) {
            case AND -> {
                Map<TableRef, List<KeyCondition>> parts = new LinkedHashMap<>();
                for (SqlNode operand : call.getOperandList()) {
                    condition(operand).forEach((t, c) -> parts.computeIfAbsent(t, k -> new ArrayList<>()).add(c));
                }
                Map<TableRef, KeyCondition> out = new HashMap<>();
                parts.forEach((t, list) -> out.put(t, list.size() == 1 ? list.get(0) : new KeyCondition.And(list)));
                return out;
            }
            case OR -> {
                // a table is narrowed by an OR only if every branch narrows it
                List<Map<TableRef, KeyCondition>> branches = new ArrayList<>();
                for (SqlNode operand : call.getOperandList()) {
                    branches.add(condition(operand));
                }
                Map<TableRef, KeyCondition> out = new HashMap<>();
                for (TableRef t : branches.get(0).keySet()) {
                    List<KeyCondition> each = new ArrayList<>();
                    for (Map<TableRef, KeyCondition> b : branches) {
                        if (b.containsKey(t)) {
                            each.add(b.get(t));
                        }
                    }
                    if (each.size() == branches.size()) {
                        out.put(t, new KeyCondition.Or(each));
                    }
                }
                return out;
            }
            case EQUALS -> {
                SqlNode left = call.operand(0);
                SqlNode right = call.operand(1);
                TableRef lk = keyOf(left);
                TableRef rk = keyOf(right);
                if (lk != null && rk != null) {
                    keyJoins.add(new Select.KeyJoin(lk, rk));
                    return Map.of();
                }
                boolean nullSafe = isNullSafe(left, right);
                if (lk != null && value(right) != null) {
                    return Map.of(lk, new KeyCondition.Eq(value(right), nullSafe));
                }
                if (rk != null && value(left) != null) {
                    return Map.of(rk, new KeyCondition.Eq(value(left), nullSafe));
                }
                return Map.of();
            }
            case IN -> {
                TableRef key = keyOf(call.operand(0));
                if (key != null && call.operand(1) instanceof SqlNodeList list) {
                    List<ValueRef> values = new ArrayList<>();
                    for (SqlNode v : list) {
                        ValueRef ref = value(v);
                        if (ref == null) {
                            return Map.of();
                        }
                        values.add(ref);
                    }
                    return Map.of(key, new KeyCondition.In(values));
                }
                return Map.of();
            }
            case BETWEEN -> {
                TableRef key = keyOf(call.operand(0));
                ValueRef lo = value(call.operand(1));
                ValueRef hi = value(call.operand(2));
                if (key != null && lo != null && hi != null && !isSymmetricOrNegated(call)) {
                    return Map.of(key, new KeyCondition.Range(lo, true, hi, true));
                }
                return Map.of();
            }
            case LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                return range(kind, call.operand(0), call.operand(1));
            }
            case IS_NULL -> {
                TableRef key = keyOf(call.operand(0));
                return key == null ? Map.of() : Map.of(key, new KeyCondition.IsNull());
            }
            default -> {
                return Map.of();
            }
        }
    }

    private Map<TableRef, KeyCondition> range(SqlKind kind, SqlNode left, SqlNode right) {
        TableRef key = keyOf(left);
        ValueRef v = value(right);
        SqlKind k = kind;
        if (key == null) {
            key = keyOf(right);
            v = value(left);
            k = kind.reverse(); // ? < key  is  key > ?
        }
        if (key == null || v == null) {
            return Map.of();
        }
        KeyCondition c = switch (k) {
            case LESS_THAN -> new KeyCondition.Range(null, false, v, false);
            case LESS_THAN_OR_EQUAL -> new KeyCondition.Range(null, false, v, true);
            case GREATER_THAN -> new KeyCondition.Range(v, false, null, false);
            default -> new KeyCondition.Range(v, true, null, false);
        };
        return Map.of(key, c);
    }

    private static boolean isSymmetricOrNegated(SqlCall between) {
        String text = between.getOperator().getName();
        return text.contains("NOT") || text.contains("SYMMETRIC") && !text.contains("ASYMMETRIC");
    }

    private boolean isNullSafe(SqlNode left, SqlNode right) {
        int from = parsed.end(left.getParserPosition());
        int to = parsed.start(right);
        for (int offset : parsed.masking.nullSafeEqualities()) {
            if (offset >= from && offset < to) {
                return true;
            }
        }
        return false;
    }

    /** A bindable value: a {@code ?}, NULL, TRUE/FALSE or a number kept in the text. */
    ValueRef value(SqlNode node) {
        if (node instanceof SqlDynamicParam p) {
            return new ValueRef.Param(parsed.paramOrdinal(p));
        }
        if (node instanceof SqlLiteral literal) {
            return switch (literal.getTypeName()) {
                case NULL -> new ValueRef.Const(null);
                case BOOLEAN -> new ValueRef.Const(literal.booleanValue() ? 1L : 0L);
                case DECIMAL -> new ValueRef.Const(literal.bigDecimalValue());
                case CHAR -> new ValueRef.Const(literal.toValue());
                default -> null;
            };
        }
        if (node instanceof SqlBasicCall call && call.getKind() == SqlKind.MINUS_PREFIX
                && call.operand(0) instanceof SqlLiteral l && l.getTypeName() == org.apache.calcite.sql.type.SqlTypeName.DECIMAL) {
            return new ValueRef.Const(l.bigDecimalValue().negate());
        }
        return null;
    }

    /** The sharded table reference whose key column this node is, or null. */
    TableRef keyOf(SqlNode node) {
        if (!(node instanceof SqlIdentifier id) || id.isStar()) {
            return null;
        }
        String column = id.names.get(id.names.size() - 1);
        if (id.names.size() >= 2) {
            String qualifier = id.names.get(id.names.size() - 2);
            for (TableRef t : tables) {
                if (t.exposedName().equalsIgnoreCase(qualifier) && isKey(t, column)) {
                    return t;
                }
            }
            return null;
        }
        TableRef match = null;
        for (TableRef t : tables) {
            if (isKey(t, column)) {
                if (match != null) {
                    return null; // ambiguous: MySQL decides which table has it; narrow nothing
                }
                match = t;
            }
        }
        return match;
    }

    private boolean isKey(TableRef t, String column) {
        if (t.schema() != null && !t.schema().equalsIgnoreCase(rule.schema())) {
            return false;
        }
        return rule.table(t.name()) instanceof TableRule.Sharded s && s.keyColumn().equalsIgnoreCase(column);
    }
}
