package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/**
 * A SELECT. {@code topTables} are the tables of the outermost FROM (the others are in subqueries);
 * {@code conditions} holds, per sharded table reference, what the top-level WHERE says
 * about its key (absent: nothing); {@code keyJoins} the pairs of references joined on their
 * sharding keys (so they meet on one node); {@code shape} what the merger needs of the top-level
 * query. {@code nested} is true when the statement has subqueries, derived tables or set
 * operations, which are correct only when the whole statement runs on one node.
 */
public record Select(SqlTemplate template, List<TableRef> tables, List<TableRef> topTables,
                     Map<TableRef, KeyCondition> conditions, List<KeyJoin> keyJoins, SelectShape shape, boolean nested)
        implements Statement {
    public Select {
        tables = List.copyOf(tables);
        topTables = List.copyOf(topTables);
        conditions = Map.copyOf(conditions);
        keyJoins = List.copyOf(keyJoins);
    }

    /** Two table references joined by equality of their sharding keys. */
    public record KeyJoin(TableRef left, TableRef right) {}
}
