package io.shardwise.core;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ExecutionSession;
import io.shardwise.core.execute.SessionState;
import io.shardwise.core.sql.analyze.Call;
import io.shardwise.core.sql.analyze.Ddl;
import io.shardwise.core.sql.analyze.Delete;
import io.shardwise.core.sql.analyze.Insert;
import io.shardwise.core.sql.analyze.Passthrough;
import io.shardwise.core.sql.analyze.Select;
import io.shardwise.core.sql.analyze.SessionCommand;
import io.shardwise.core.sql.analyze.Statement;
import io.shardwise.core.sql.analyze.Update;
import java.util.Locale;

/**
 * The access mode of the session's transactions (READ ONLY / READ WRITE) as MySQL and MariaDB keep
 * it: {@code START TRANSACTION READ ONLY} for one transaction, {@code SET TRANSACTION READ ONLY}
 * for the next one, {@code SET SESSION TRANSACTION READ ONLY} / {@code transaction_read_only} for
 * every later one; a write in a read-only one fails with 1792 (25006).
 *
 * <p>Enforced here, before routing, rather than left to the backends: a transaction begins on a
 * backend only when a statement first reaches it (so {@code START TRANSACTION READ ONLY} never
 * reaches one), and a write spread over shards (a broadcast table, a scatter UPDATE) must fail
 * whole, with the same error whichever shards it reaches, not on some shards after others ran it.
 * The session characteristic is also pushed to every backend connection (see StateApplier), so a
 * statement Shardwise cannot classify ({@link Passthrough}) is refused by the backend itself.
 *
 * <p>Hazard: call {@link #check} once per statement, before it runs; it consumes a pending
 * next-transaction mode the way MySQL does (the next statement outside a transaction, or the next
 * START TRANSACTION).
 */
final class TransactionAccess {
    /** The open transaction's mode, fixed when it began; null when the session's applies. */
    private Boolean current;

    /**
     * The mode a {@code START TRANSACTION} asks for: true for READ ONLY, false for READ WRITE, null
     * for neither ({@code BEGIN [WORK]}, WITH CONSISTENT SNAPSHOT alone). 1064 for anything else.
     */
    static Boolean requested(String sql) {
        String stripped = sql.strip();
        if (!stripped.regionMatches(true, 0, "start", 0, 5)) {
            return null; // BEGIN [WORK], every sysbench transaction's: no lower-casing, no regular expression compiled
        }
        String text = stripped.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        if (!text.startsWith("start transaction")) {
            return null; // BEGIN [WORK]
        }
        Boolean mode = null;
        String rest = text.substring("start transaction".length()).strip();
        if (rest.endsWith(";")) {
            rest = rest.substring(0, rest.length() - 1).strip();
        }
        if (rest.isEmpty()) {
            return null;
        }
        for (String part : rest.split(",")) {
            switch (part.strip()) {
                case "read only" -> mode = true;
                case "read write" -> mode = false;
                // accepted as MySQL does; each backend's snapshot starts when the transaction first reaches it
                case "with consistent snapshot" -> { }
                default -> throw new ShardwiseException(ErrorCode.PARSE_ERROR, "near '" + part.strip() + "'");
            }
        }
        return mode;
    }

    /** After START TRANSACTION / BEGIN began a transaction. */
    void began(Boolean requested, SessionState state) {
        Boolean next = state.takeNextReadOnly();
        current = requested != null ? requested : next != null ? next : state.readOnly();
    }

    /** Refuses {@code statement} with 1792 when it writes in a read-only transaction. */
    void check(Statement statement, ExecutionSession execution) {
        boolean readOnly = switch (statement) {
            case SessionCommand c -> false; // runs in the session: starts no transaction, consumes nothing
            // DDL commits the open transaction first, then runs in one of its own
            case Ddl d -> startingOne(execution.state());
            case Insert i -> inForce(execution);
            case Update u -> inForce(execution);
            case Delete d -> inForce(execution);
            case Select s -> reads(execution);
            // the backend judges what Shardwise cannot read (it carries the session characteristic)
            case Passthrough p -> reads(execution);
            case Call c -> reads(execution); // the backend refuses the procedure's writes in a read-only transaction
        };
        if (readOnly) {
            throw new ShardwiseException(ErrorCode.READ_ONLY_TRANSACTION);
        }
    }

    /** A write that is no analyzed statement (LOAD DATA): 1792 in a read-only transaction, as {@link #check} refuses an INSERT. */
    void checkWrite(ExecutionSession execution) {
        if (inForce(execution)) {
            throw new ShardwiseException(ErrorCode.READ_ONLY_TRANSACTION);
        }
    }

    /** As {@link #check} would answer for a write, without consuming a next-transaction mode. */
    boolean refusesWrite(ExecutionSession execution) {
        if (execution.inTransaction()) {
            return current != null ? current : execution.state().readOnly();
        }
        Boolean next = execution.state().nextReadOnly();
        return next != null ? next : execution.state().readOnly();
    }

    /** The mode of the transaction open now (after {@link #check} opened it, with autocommit off). */
    boolean readOnlyNow(ExecutionSession execution) {
        return current != null ? current : execution.state().readOnly();
    }

    /** The mode a statement runs in; outside a transaction it consumes a pending next-transaction mode. */
    private boolean inForce(ExecutionSession execution) {
        if (execution.inTransaction()) {
            return current != null ? current : execution.state().readOnly();
        }
        boolean readOnly = startingOne(execution.state());
        // autocommit off: this statement opens the transaction, which keeps the mode it began with
        current = execution.autocommit() ? null : readOnly;
        return readOnly;
    }

    /** A read runs in either mode; it may still start the transaction whose mode it fixes. */
    private boolean reads(ExecutionSession execution) {
        inForce(execution);
        return false;
    }

    private static boolean startingOne(SessionState state) {
        Boolean next = state.takeNextReadOnly();
        return next != null ? next : state.readOnly();
    }
}
