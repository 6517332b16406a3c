package io.shardwise.core.sql.analyze;

import java.util.List;

/**
 * A statement about the session rather than data: transactions, SET, USE, SHOW, PREVIEW ... The
 * faces and the executor act on {@code kind}; {@code argument} is what follows the keywords
 * (the SET assignments, the schema of USE, the statement of PREVIEW), from the normalized text.
 */
public record SessionCommand(SqlTemplate template, Kind kind, String argument) implements Statement {
    public enum Kind {
        BEGIN, COMMIT, ROLLBACK, SAVEPOINT, ROLLBACK_TO_SAVEPOINT, RELEASE_SAVEPOINT,
        SET, USE, SHOW, PREVIEW, EXPLAIN, DESCRIBE, KILL, LOCK_TABLES, UNLOCK_TABLES, DO, FLUSH, OTHER,
        /** {@code SHOW WARNINGS|ERRORS [LIMIT ..]}, {@code SHOW COUNT(*) WARNINGS|ERRORS}: read the last statement's area. */
        DIAGNOSTICS,
        /**
         * A SELECT of server variables and session functions only ({@code SELECT @@version_comment LIMIT 1},
         * {@code SELECT DATABASE(), USER()}): the session answers it with logical values, not a backend.
         */
        VARIABLES,
        /** A statement naming an {@code information_schema} table: answered over logical names. */
        INFORMATION_SCHEMA,
        /** Already true, so answered OK with no effect: {@code CREATE DATABASE IF NOT EXISTS} of the logical schema. */
        NO_OP
    }

    @Override
    public List<TableRef> tables() {
        return List.of();
    }
}
