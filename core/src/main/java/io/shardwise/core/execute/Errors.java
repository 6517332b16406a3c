package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;

/** Translation of what backends and threads throw into the one exception type core raises. */
final class Errors {
    private Errors() {}

    static boolean connectionLost(SQLException e) {
        return e != null && e.getSQLState() != null && e.getSQLState().startsWith("08");
    }

    static ShardwiseException of(BackendPools pools, String backend, Throwable t) {
        return switch (t) {
            case ShardwiseException s -> s;
            case SQLException s -> pools.error(backend, s);
            default -> ShardwiseException.bug("running a unit on backend " + backend, t);
        };
    }

    static ShardwiseException interrupted() {
        return new ShardwiseException(ErrorCode.QUERY_INTERRUPTED);
    }
}
