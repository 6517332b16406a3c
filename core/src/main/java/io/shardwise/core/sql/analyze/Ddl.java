package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * CREATE/ALTER/DROP/TRUNCATE TABLE, CREATE/DROP INDEX, RENAME TABLE: runs on every physical table
 * of the logical tables it names. {@code verb} for messages ("create table").
 */
public record Ddl(SqlTemplate template, List<TableRef> tables, String verb) implements Statement {
    public Ddl {
        tables = List.copyOf(tables);
    }
}
