package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;

/**
 * A statement the analyzer could not read and that involves shards, so it cannot pass through.
 * Error 1235, unless the statement is simply not valid MySQL: the engine asks a backend to parse it
 * (PREPARE) and then reports the backend's own 1064 instead.
 */
public final class UnanalyzableException extends ShardwiseException {
    public UnanalyzableException(String what) {
        super(ErrorCode.UNSUPPORTED, what);
    }
}
