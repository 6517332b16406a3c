package io.shardwise.core.error;

import java.sql.DataTruncation;
import java.sql.SQLException;

/**
 * An error a backend returned, passed through with its own errno and SQLSTATE, so clients react as
 * they would to MySQL; its message is the backend's text as one unsharded database would word it
 * (physical names made logical by the executor), without the backend's name, which
 * {@link #backend()} and the logs carry. Never parse an errno out of text: it comes from the
 * driver's exception, which stays the cause.
 */
public final class BackendException extends ShardwiseException {
    /** What Connector/J puts before the server's text of a truncation error (1406, 1265 ...). */
    private static final String TRUNCATION_PREFIX = "Data truncation: ";

    private final int errno;
    private final String sqlState;
    private final String backend;

    /** The backend's error with its own text. */
    public BackendException(String backend, SQLException cause) {
        this(backend, cause, cause.getMessage());
    }

    /** The backend's error with {@code message} for its text (the same error in logical terms). */
    public BackendException(String backend, SQLException cause, String message) {
        super(cause, ErrorCode.BACKEND_ERROR, message);
        // errno 0 is an error Connector/J raised itself (no server sent it), with SQLSTATEs of its own
        // such as S1000: a client must still read a real MySQL errno and SQLSTATE
        boolean fromServer = cause.getErrorCode() != 0;
        this.errno = fromServer ? cause.getErrorCode() : ErrorCode.BACKEND_ERROR.errno();
        this.sqlState = fromServer && cause.getSQLState() != null ? cause.getSQLState()
                : cause.getSQLState() != null && cause.getSQLState().startsWith("08") ? cause.getSQLState()
                : ErrorCode.BACKEND_ERROR.sqlState();
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

    /**
     * The backend's text as MySQL sent it: Connector/J words a truncation error as {@code "Data
     * truncation: " + text} (a {@link DataTruncation}), and a MySQL client reading the ERR packet adds
     * that prefix itself, so the server face must send the text without it.
     */
    @Override
    public String wireMessage() {
        String message = getMessage();
        return getCause() instanceof DataTruncation && message.startsWith(TRUNCATION_PREFIX)
                ? message.substring(TRUNCATION_PREFIX.length()) : message;
    }

    public String backend() {
        return backend;
    }

    /** Whether the connection it came from is broken (SQLSTATE class 08) and must be evicted. */
    public boolean isConnectionLost() {
        return sqlState.startsWith("08");
    }
}
