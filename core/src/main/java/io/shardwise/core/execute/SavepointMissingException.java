package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;

/**
 * MySQL's ER_SP_DOES_NOT_EXIST (1305, 42000) for a savepoint the session never set: the session,
 * not a backend, knows the transaction's savepoints (a transaction may have touched no backend yet).
 * Stand-in until {@link ErrorCode} has an entry of its own for it.
 */
final class SavepointMissingException extends ShardwiseException {
    SavepointMissingException(String name) {
        super(ErrorCode.BACKEND_ERROR, "SAVEPOINT " + name + " does not exist");
    }

    @Override
    public int errno() {
        return 1305;
    }

    @Override
    public String sqlState() {
        return "42000";
    }
}
