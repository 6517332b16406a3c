package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/**
 * UPDATE of one table. {@code assigned} the columns its SET writes (the router refuses writes to a
 * sharding key, which would have to move rows between nodes); {@code limited} whether it has
 * ORDER BY or LIMIT, which a multi-node route cannot honour by itself; {@code choice} how it then chooses
 * its rows across nodes first (null: it cannot, and such a route is refused). {@code multi}: the tables of a
 * multi-table UPDATE ({@code UPDATE a JOIN b … SET …}), whose {@code tables} start with its one target when it
 * has one; null for an UPDATE of one table.
 */
public record Update(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                     List<String> assigned, boolean limited, boolean nested, RowChoice choice, MultiTable multi) implements Statement {
    public Update {
        tables = List.copyOf(tables);
        conditions = Map.copyOf(conditions);
        assigned = List.copyOf(assigned);
    }

    public Update(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                  List<String> assigned, boolean limited, boolean nested, RowChoice choice) {
        this(template, tables, conditions, assigned, limited, nested, choice, null);
    }
}
