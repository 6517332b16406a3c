package io.shardwise.core.error;

import java.sql.SQLException;

/**
 * An error a backend returned, passed through with its own errno, SQLSTATE and text, so clients
 * react as they would to MySQL; the message only gains the backend's name. Never parse an errno out
 * of text: it comes from the driver's exception.
 */
public final class BackendException extends ShardwiseException {
    private final int errno;
    private final String sqlState;
    private final String backend;

    public BackendException(String backend, SQLException cause) {
        super(cause, ErrorCode.BACKEND_ERROR, cause.getMessage() + " (backend " + backend + ")");
        this.errno = cause.getErrorCode();
        this.sqlState = cause.getSQLState() == null ? "HY000" : cause.getSQLState();
        this.backend = backend;
    }

    @Override
    public int errno() {
        return errno;
    }

    @Override
    public String sqlState() {
        return sqlState;
    }

    public String backend() {
        return backend;
    }

    /** Whether the connection it came from is broken (SQLSTATE class 08) and must be evicted. */
    public boolean isConnectionLost() {
        return sqlState.startsWith("08");
    }
}
