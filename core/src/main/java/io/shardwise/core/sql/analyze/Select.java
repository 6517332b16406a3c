package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/**
 * A SELECT. {@code topTables} are the tables of the outermost FROM (the others are in subqueries);
 * {@code conditions} holds, per sharded table reference, what the top-level WHERE says
 * about its key (absent: nothing); {@code keyJoins} the pairs of references joined on their
 * sharding keys (so they meet on one node); {@code shape} what the merger needs of the top-level
 * query. {@code nested} is true when the statement has subqueries, derived tables or set
 * operations, which are correct only when the whole statement runs on one node. {@code inner} says,
 * for each table of a nested SELECT, which rows of it that SELECT can read: a nested statement may run
 * on one node only if every inner sharded table's rows it reads are on that node too.
 * {@code branchItems}, for a statement with no {@code shape} (a set operation, a WITH), are the spans of
 * the select items that name its result's columns (its first branch's) and that MySQL labels with
 * their own text: neither aliased nor a bare column or star; empty when the statement has a shape.
 * {@code perRow}: the nesting is only subqueries in the top SELECT's select list, WHERE or join
 * conditions, in a shape whose merge reads each subquery's value as a per-row value (no subquery in
 * GROUP BY, ORDER BY or HAVING, none in the select list of a grouped or aggregated statement; no derived
 * table, set operation, window or INTO). Such a statement may run on several nodes and be merged when
 * each subquery reads, for each outer row, only rows on that row's node ({@link Inner#followsOuter}, or
 * broadcast tables).
 * {@code rowSource}: each result row is sent as one row of the top FROM's tables (derived ones included) is read (no set
 * operation, window, INTO; subqueries allowed): what an INSERT ... SELECT ... ON DUPLICATE KEY UPDATE naming the SELECT's
 * columns needs, as MySQL reads them from the row its plan read last.
 */
public record Select(SqlTemplate template, List<TableRef> tables, List<TableRef> topTables,
                     Map<TableRef, KeyCondition> conditions, List<KeyJoin> keyJoins, SelectShape shape, boolean nested,
                     List<Inner> inner, List<SelectShape.Span> branchItems, boolean perRow, boolean rowSource)
        implements Statement {
    public Select {
        tables = List.copyOf(tables);
        topTables = List.copyOf(topTables);
        conditions = Map.copyOf(conditions);
        keyJoins = List.copyOf(keyJoins);
        inner = List.copyOf(inner);
        branchItems = List.copyOf(branchItems);
    }

    public Select(SqlTemplate template, List<TableRef> tables, List<TableRef> topTables, Map<TableRef, KeyCondition> conditions,
                  List<KeyJoin> keyJoins, SelectShape shape, boolean nested, List<Inner> inner) {
        this(template, tables, topTables, conditions, keyJoins, shape, nested, inner, List.of(), false, !nested);
    }

    /**
     * A table of a nested SELECT: what that SELECT's own WHERE says about its key ({@link KeyCondition#ANY}
     * when nothing or when its FROM has an outer join), and whether the WHERE equates its key with the
     * key of an outer-query table ({@code followsOuter}: for each outer row it reads only rows on that
     * row's node).
     */
    public record Inner(TableRef table, KeyCondition condition, boolean followsOuter) {}

    /** Two table references joined by equality of their sharding keys. */
    public record KeyJoin(TableRef left, TableRef right) {}
}
