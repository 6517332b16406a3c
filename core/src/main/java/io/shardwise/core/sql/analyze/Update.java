package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/**
 * UPDATE of one table. {@code assigned} the columns its SET writes (the router refuses writes to a
 * sharding key, which would have to move rows between nodes); {@code limited} whether it has
 * ORDER BY or LIMIT, which a multi-node route cannot honour by itself; {@code choice} how it then chooses
 * its rows across nodes first (null: it cannot, and such a route is refused).
 */
public record Update(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                     List<String> assigned, boolean limited, boolean nested, RowChoice choice) implements Statement {
    public Update {
        tables = List.copyOf(tables);
        conditions = Map.copyOf(conditions);
        assigned = List.copyOf(assigned);
    }
}
