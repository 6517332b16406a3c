package io.shardwise.core.error;

/**
 * The one catalogue of errors Shardwise raises itself. Each carries the MySQL errno and SQLSTATE a
 * client would get from a MySQL server in the same situation, so drivers and applications react as
 * they do to MySQL; Shardwise-only conditions reuse the closest MySQL code (1105 for bugs, with a
 * "[BUG]" prefix). Backend errors never go through here: they pass through with their own codes.
 */
public enum ErrorCode {
    PARSE_ERROR(1064, "42000", "You have an error in your SQL syntax; %s"),
    EMPTY_QUERY(1065, "42000", "Query was empty"),
    UNSUPPORTED(1235, "42000", "This version of Shardwise doesn't yet support '%s'"),
    NO_SUCH_TABLE(1146, "42S02", "Table '%s.%s' doesn't exist"),
    BAD_FIELD(1054, "42S22", "Unknown column '%s' in '%s'"),
    UNKNOWN_DATABASE(1049, "42000", "Unknown database '%s'"),
    DATABASE_EXISTS(1007, "HY000", "Can't create database '%s'; database exists"),
    NO_DATABASE_SELECTED(1046, "3D000", "No database selected"),
    ACCESS_DENIED(1045, "28000", "Access denied for user '%s'@'%s' (using password: %s)"),
    BAD_HANDSHAKE(1047, "08S01", "Unknown command"),
    PACKET_TOO_LARGE(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"),
    UNKNOWN_STATEMENT_HANDLER(1243, "HY000", "Unknown prepared statement handler (%s) given to %s"),
    SAVEPOINT_DOES_NOT_EXIST(1305, "42000", "SAVEPOINT %s does not exist"),
    NO_OPEN_CURSOR(1421, "HY000", "The statement (%s) has no open cursor."),
    QUERY_INTERRUPTED(1317, "70100", "Query execution was interrupted"),
    UNKNOWN_THREAD(1094, "HY000", "Unknown thread id: %s"),
    NOT_THREAD_OWNER(1095, "HY000", "You are not owner of thread %s"),
    INVALID_CONFIG(1105, "HY000", "Invalid Shardwise configuration in %s:%n%s"),
    NO_ROUTE(1105, "HY000", "No shard holds %s = %s for table '%s'"),
    SHARD_UNAVAILABLE(1105, "HY000", "Shard %s is unavailable: %s"),
    /** A backend's own error; {@link BackendException} carries the backend's errno and SQLSTATE. */
    BACKEND_ERROR(1105, "HY000", "%s"),
    BUG(1105, "HY000", "[BUG] %s");

    private final int errno;
    private final String sqlState;
    private final String format;

    ErrorCode(int errno, String sqlState, String format) {
        this.errno = errno;
        this.sqlState = sqlState;
        this.format = format;
    }

    public int errno() {
        return errno;
    }

    public String sqlState() {
        return sqlState;
    }

    public String format() {
        return format;
    }

    public String message(Object... args) {
        return String.format(format, args);
    }
}
