package io.shardwise.core;

import io.shardwise.core.execute.Condition;
import java.util.List;

/**
 * All a face's packet relay may ask of or tell a session: whether a text statement may be relayed
 * and with what plan and session setup ({@link #plan}), that it started, ended or failed, and how a
 * backend's message reads in logical names. A relay (a second executor for single-pass reads) touches
 * session state only through this interface.
 *
 * <p>Threads: called on the relay's event loop, only while the session runs no statement of its
 * own (the face guarantees it), so implementations need no locks; every call must stay cheap and
 * never block.
 */
public interface RelaySession {
    /**
     * The relay plan of a text statement, or null when it must run through the session's own
     * executor. Conservative: anything unexpected answers null, and the executor reports it.
     */
    RelayPlan plan(String sql);

    /**
     * The relay plan of one execution of a prepared statement ({@code sql} with {@code ?} markers,
     * {@code params} the values bound this time), or null when the session's executor must run it.
     * The plan's one unit keeps the markers, in the order and number of {@code sql}'s, with no other
     * change than names (its params are empty): a face binds the client's values to it as they came. Or, for a read
     * of several units that core merges, a {@link RelayPlan#merged} plan as {@link #plan}'s, its units' text with the
     * values written in as the session's thread writes them for the face's native connections.
     */
    default RelayPlan prepared(String sql, List<Object> params) {
        return null;
    }

    /**
     * BEGIN / START TRANSACTION, COMMIT or ROLLBACK, SAVEPOINT, ROLLBACK TO or RELEASE SAVEPOINT (one statement, in
     * its plain forms) that the face may
     * answer on its event loop, the session's part done (its transaction begun, or the transaction to end
     * handed over: see {@link TransactionCommand}), its diagnostics area cleared; null when the session's
     * own executor must run it: another form or statement, a transaction on the JDBC executor (one a backend
     * joined), an open transaction BEGIN would first commit, table locks, xa, a statement timeout.
     */
    default TransactionCommand transactionCommand(String sql) {
        return null;
    }

    /**
     * From now on a transaction's first statement that the session's thread runs (one the loop could not
     * plan) opens its transaction natively through {@code opener} when it may, as a relayed one would.
     */
    default void nativeOpener(NativeOpener opener) {
    }

    /** A relayed statement starts: a fresh diagnostics area with a slot per unit. */
    void started(String sql, RelayPlan plan);

    /**
     * A merged read the face answered on its own ({@link RelayPlan#mergeRoute}) starts, its diagnostics
     * area {@code area}: the one its units' warnings and its merge filled ({@link #merge}).
     */
    default void started(String sql, RelayPlan plan, io.shardwise.core.execute.Diagnostics area) {
        started(sql, plan);
    }

    /**
     * The units' results of a merged read ({@link RelayPlan#mergeRoute} non-null) merged as the session's
     * thread merges them: the merged cursor, its merge's own warnings (x / 0, a cut GROUP_CONCAT) going to
     * {@code area}. Touches no session state and never blocks: the rows are in memory. Null when only the
     * session's thread can merge them (ENUM or SET ordering keys, which it orders by a route of its own).
     */
    default io.shardwise.core.execute.ResultCursor merge(RelayPlan plan, List<io.shardwise.core.execute.UnitResult> results,
                                                        io.shardwise.core.execute.Diagnostics area) {
        throw new UnsupportedOperationException("merge");
    }

    /** A backend's message of a relayed unit as the executor would report it (logical names). */
    String translate(String backend, int errno, String message);

    /** What a relayed unit's backend listed in SHOW WARNINGS ({@code count} raised), in backend names. */
    void warnings(int unit, String backend, int count, List<Condition> conditions);

    /** The relayed statement ended with this error (already in logical names): SHOW ERRORS reads it. */
    void failed(int errno, String message);

    /** The relayed statement is over, whatever its outcome. */
    void ended();

    /** Warnings the relayed statement raised so far (for its final EOF/OK). */
    int warningCount();

    boolean inTransaction();

    /** A relayed write's OK: LAST_INSERT_ID() and the description cache follow it as after the executor's write. */
    void wrote(long affectedRows, long lastInsertId);

    /**
     * A transactional relay plan ({@link RelayPlan#transactional}) joined its first connection: the
     * session's transaction runs on {@code transaction} until it ends.
     */
    void attach(io.shardwise.core.execute.NativeTransaction transaction);

    /** The session's native transaction, or null. */
    io.shardwise.core.execute.NativeTransaction nativeTransaction();

    /**
     * The savepoints (names, oldest first) the session's open transaction holds before any backend joined it
     * (SAVEPOINT right after BEGIN, as ORMs' nested blocks send it): a native transaction starting now takes
     * them, and each backend that joins it sets them after its START TRANSACTION. Empty when there are none.
     */
    default List<String> savepoints() {
        return List.of();
    }

    /** Autocommit reads of several units (merges) run on {@code reads} from now on (see {@link io.shardwise.core.execute.NativeReads}). */
    default void useNativeReads(io.shardwise.core.execute.NativeReads reads) {}

    /** The native transaction ended on its connections (a deadlock rolled it back): the session is out of it. */
    void nativeEnded();

    boolean autocommit();

    /**
     * The session's sql_mode has NO_BACKSLASH_ESCAPES: every OK and EOF a relay sends carries
     * SERVER_STATUS_NO_BACKSLASH_ESCAPES then, as one MySQL's, because clients that escape values
     * themselves (go-sql-driver's interpolateParams, PyMySQL) choose how by the last status they read.
     */
    boolean noBackslashEscapes();

    /**
     * Asks {@code backend} to KILL QUERY its connection {@code threadId} (a relay connection whose
     * statement was abandoned); returns at once, the kill runs on a thread of its own.
     */
    void killQuery(String backend, long threadId);
}
