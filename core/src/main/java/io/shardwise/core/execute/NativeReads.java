package io.shardwise.core.execute;

import io.shardwise.core.route.ExecutionUnit;
import java.util.List;

/**
 * A face's own native executor for an autocommit read of several units (a merge: ORDER BY,
 * aggregates, DISTINCT, LIMIT over several shards) — the server's relay connections instead of the
 * JDBC pools. {@link ExecutionSession} offers it such a statement's units only when a fresh
 * connection carrying the session's settings answers as its JDBC connection would
 * ({@link ExecutionSession#relaySetup}): autocommit, no transaction, no LOCK TABLES, no statement
 * timeout; it may decline (null) and the JDBC executor runs them.
 *
 * <p>Threads: {@link #execute} is called by the session's thread, one statement at a time;
 * {@link #cancel} from any thread.
 */
public interface NativeReads {
    /**
     * Runs the units (plain SELECTs, parameters already inlined): backends in parallel, one
     * backend's units in order, each result set read whole before this returns, each unit's
     * warnings recorded in {@code diagnostics} (slot = unit index). Null, having run nothing, when
     * it cannot (a backend not relayable, or its relay connections all in use).
     *
     * @param settings the SET a connection needs to carry the session's settings ("" for none)
     * @param logicalSchema reported as the schema of every column that comes from a table
     * @throws io.shardwise.core.error.ShardwiseException a unit's backend error (the lowest unit's
     *     that failed), a lost backend (1105), or 1317 when {@link #cancel}led
     */
    List<UnitResult> execute(List<ExecutionUnit> units, Diagnostics diagnostics, String settings, String logicalSchema);

    /** KILL QUERY on what the running statement's connections run now; returns at once. */
    void cancel();
}
