package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * A statement Shardwise does not need to understand because every table it names is a single
 * table on one backend (or it names none, like {@code SELECT 1}); it runs there unchanged.
 * {@code reason} says why it was not analyzed further, for PREVIEW.
 */
public record Passthrough(SqlTemplate template, List<TableRef> tables, String reason) implements Statement {
    public Passthrough {
        tables = List.copyOf(tables);
    }
}
