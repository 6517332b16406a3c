package io.shardwise.core.error;

import java.util.Objects;

/**
 * The only exception core throws on purpose. The faces translate it: the JDBC driver into an
 * {@code SQLException(message, sqlState, errno)}, the server into an ERR packet.
 */
public class ShardwiseException extends RuntimeException {
    private final ErrorCode code;

    public ShardwiseException(ErrorCode code, Object... args) {
        super(Objects.requireNonNull(code, "code").message(args));
        this.code = code;
    }

    public ShardwiseException(Throwable cause, ErrorCode code, Object... args) {
        super(Objects.requireNonNull(code, "code").message(args), cause);
        this.code = code;
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
