package io.shardwise.core.error;

import java.util.Objects;

/**
 * The only exception core throws on purpose. The faces translate it: the JDBC driver into an
 * {@code SQLException(message, sqlState, errno)}, the server into an ERR packet.
 */
public class ShardwiseException extends RuntimeException {
    private static final System.Logger LOG = System.getLogger(ShardwiseException.class.getName());
    private final ErrorCode code;

    public ShardwiseException(ErrorCode code, Object... args) {
        super(Objects.requireNonNull(code, "code").message(args));
        this.code = code;
    }

    public ShardwiseException(Throwable cause, ErrorCode code, Object... args) {
        super(Objects.requireNonNull(code, "code").message(args), cause);
        this.code = code;
    }

    /**
     * A failure of Shardwise's own (an unexpected Java exception) as a client may see it: 1105 with
     * where it happened, never the exception's text, which the log gets with its stack trace.
     */
    public static ShardwiseException bug(String where, Throwable t) {
        LOG.log(System.Logger.Level.ERROR, "[BUG] " + where, t);
        return new ShardwiseException(t, ErrorCode.BUG, "internal error " + where + " (details in the Shardwise log)");
    }

    public ErrorCode code() {
        return code;
    }

    public int errno() {
        return code.errno();
    }

    public String sqlState() {
        return code.sqlState();
    }

    /** The text of the ERR packet a MySQL server sends for this error (the server face's message). */
    public String wireMessage() {
        return getMessage();
    }
}
