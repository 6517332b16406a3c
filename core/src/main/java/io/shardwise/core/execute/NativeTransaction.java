package io.shardwise.core.execute;

import io.shardwise.core.route.ExecutionUnit;
import java.util.List;

/**
 * A session's transaction held on a face's own native backend connections (the server's relay
 * connections) instead of the JDBC pools: once attached ({@link ExecutionSession#attachNative}),
 * every statement, COMMIT, ROLLBACK and savepoint of the transaction runs here, so a transaction
 * is never split between a JDBC connection and a native one to the same backend.
 *
 * <p>Threads: the blocking methods are called by the session's thread (never an event loop), one
 * at a time, while the face runs nothing else for the session; {@link #rollback} may also come from
 * the thread that closes the session.
 *
 * <p>Errors: a backend's error is a {@link io.shardwise.core.error.BackendException} with the
 * backend's errno and SQLSTATE and logical names in its message; a lost connection (SQLSTATE 08)
 * dooms the transaction, as on the JDBC path.
 */
public interface NativeTransaction {
    /**
     * The statement savepoint of {@link #markStatement} (and of the JDBC executor's), quoted: 65
     * characters, one more than a client's savepoint may have here, so a client can neither set,
     * move nor release it.
     */
    String STATEMENT_SAVEPOINT = "`shardwise_statement_savepoint_" + "0".repeat(35) + "`";

    /**
     * Runs a statement's units on the transaction's connections (a backend joins at its first unit):
     * backends in parallel, one backend's units in order, each unit's warnings recorded in
     * {@code diagnostics}. Unless {@code readWhole}, the last unit of each backend streams: its cursor
     * reads rows off the connection as they are taken, with bounded memory, and holds the connection
     * until it ends or closes (the caller closes every cursor before the session's next command; the
     * transaction's next call here, COMMIT, ROLLBACK or savepoint closes what is still open, as the
     * JDBC executor closes a transaction's cursors); the units before it on the same backend are read
     * whole (bounded: past it the statement fails with 1235). With {@code readWhole} every result set is
     * read whole before this returns, bounded alike (its cursor holds no connection).
     *
     * @param settings the SET the session's connections must carry now (it may have changed since the
     *     transaction began: a connection that carries other settings runs it first)
     * @param allResults each unit may return several results (CALL): each unit's result is then a
     *     {@link UnitResult.Results}, as {@link ExecutionSession#executeAll} answers (read whole, unbounded)
     * @param readWhole the cursors outlive the command (a prepared statement's cursor fetched in batches
     *     between other commands): nothing may hold a connection past this call
     */
    List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, String settings, boolean allResults, boolean readWhole);

    /** COMMIT on every joined backend, in join order; the connections go back to their pool. */
    void commit();

    /** ROLLBACK on every joined backend; the connections go back (or close when their state is unknown). Never throws for a lost one. */
    void rollback();

    /**
     * The statement that runs next may run several units or steps: until {@link #statementEnded},
     * each backend it reaches sets the statement savepoint before its first unit there (a backend
     * joining too). Returns at once; a single-unit statement that relays never comes here.
     */
    void markStatement();

    /**
     * Ends the marked statement; {@code failed}: ROLLBACK TO its savepoint on every backend it
     * reached, so the statement changes nothing and the transaction goes on. Doomed: does nothing.
     */
    void statementEnded(boolean failed);

    void savepoint(String name);

    void rollbackToSavepoint(String name);

    void releaseSavepoint(String name);

    /** KILL QUERY on what the transaction's connections run now; from any thread, returns at once. */
    void cancel();

    /** Still holding its connections: false once COMMIT or ROLLBACK ended it (a doomed COMMIT leaves it open). */
    boolean open();
}
