package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * {@code CALL procedure[(args)]} on the backend of the single tables its arguments name (else the
 * default backend), where the procedure lives. It returns every result set its statements produce,
 * then its own OK, so it runs to completion before its results are handed on. {@code procedure} is
 * the name as written (unquoted), for the check that its body names no sharded or broadcast table.
 */
public record Call(SqlTemplate template, List<TableRef> tables, String procedure) implements Statement {
    public Call {
        tables = List.copyOf(tables);
    }
}
