package io.shardwise.it.oracle;

import java.util.List;

/**
 * One face of Shardwise the oracle drives: the engine in process, the JDBC driver, or the server
 * through Connector/J (relay off or on). Every side turns a corpus statement into an {@link Outcome}
 * as a client of that face sees it; failures of the side's own kind become {@link Outcome.Failure},
 * anything else {@link Outcome.Crash}.
 */
interface Side extends AutoCloseable {

    Outcome run(OracleCase c);

    /**
     * Runs an INSERT that leaves keys to Shardwise's generator and answers what the face reports of
     * them: the keys it hands out (the engine, the driver's getGeneratedKeys), or the keys read back
     * where the face has no way to report several (the MySQL protocol carries one last insert id).
     */
    Inserted insertGeneratingKeys(String sql, String keysQuery) throws Exception;

    /** The matched-row count and the generated keys, in row order, of one INSERT. */
    record Inserted(long affectedRows, List<Object> keys) {
        public Inserted {
            keys = List.copyOf(keys);
        }
    }

    @Override
    void close() throws Exception;
}
