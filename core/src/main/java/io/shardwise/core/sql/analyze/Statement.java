package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * An analyzed statement, cached per digest and shared by every execution of it: immutable, and
 * free of values (those are bound per execution through {@link ValueRef}s).
 */
public sealed interface Statement permits Select, Insert, Update, Delete, Ddl, Call, SessionCommand, Passthrough {
    /** The normalized text with its slots. */
    SqlTemplate template();

    /** Every table the statement names, in text order (subqueries included). */
    List<TableRef> tables();
}
