package io.shardwise.core.sql.analyze;

import java.util.List;
import java.util.Map;

/**
 * DELETE from one table; {@code limited}, {@code choice} and {@code multi} (a multi-table DELETE's tables: {@code
 * DELETE a, b FROM a JOIN b …}) as in {@link Update}.
 */
public record Delete(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                     boolean limited, boolean nested, RowChoice choice, MultiTable multi) implements Statement {
    public Delete {
        tables = List.copyOf(tables);
        conditions = Map.copyOf(conditions);
    }

    public Delete(SqlTemplate template, List<TableRef> tables, Map<TableRef, KeyCondition> conditions,
                  boolean limited, boolean nested, RowChoice choice) {
        this(template, tables, conditions, limited, nested, choice, null);
    }
}
