package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/** DELETE from one table; {@code limited} and {@code choice} as in {@link Update}. */
public record Delete(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                     boolean limited, boolean nested, RowChoice choice) implements Statement {
    public Delete {
        tables = List.copyOf(tables);
        conditions = Map.copyOf(conditions);
    }
}
