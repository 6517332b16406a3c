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
    /** LOAD DATA's ENCLOSED BY / ESCAPED BY longer than one character (ER_WRONG_FIELD_TERMINATORS). */
    WRONG_FIELD_TERMINATORS(1083, "42000", "Field separator argument is not what is expected; check the manual"),
    /** LOAD DATA LOCAL from a client without CLIENT_LOCAL_FILES, or with local files disabled: MySQL 8's ER_CLIENT_LOCAL_FILES_DISABLED. */
    LOCAL_FILES_DISABLED(3948, "42000", "Loading local data is disabled; this must be enabled on both the client and server sides"),
    /** The same in front of MariaDB backends: MariaDB's ER_LOAD_INFILE_CAPABILITY_DISABLED. */
    LOCAL_FILES_DISABLED_MARIADB(4166, "HY000",
            "The used command is not allowed because the MariaDB server or client has disabled the local infile capability"),
    NO_SUCH_TABLE(1146, "42S02", "Table '%s.%s' doesn't exist"),
    BAD_FIELD(1054, "42S22", "Unknown column '%s' in '%s'"),
    /** ER_NON_UNIQ_ERROR: a column several of the statement's tables have, named without its table. */
    AMBIGUOUS_FIELD(1052, "23000", "Column '%s' in %s is ambiguous"),
    UNKNOWN_DATABASE(1049, "42000", "Unknown database '%s'"),
    DATABASE_EXISTS(1007, "HY000", "Can't create database '%s'; database exists"),
    NO_DATABASE_SELECTED(1046, "3D000", "No database selected"),
    ACCESS_DENIED(1045, "28000", "Access denied for user '%s'@'%s' (using password: %s)"),
    DATABASE_ACCESS_DENIED(1044, "42000", "Access denied for user '%s'@'%s' to database '%s'"),
    TOO_MANY_CONNECTIONS(1040, "08004", "Too many connections"),
    BAD_HANDSHAKE(1043, "08S01", "Bad handshake"),
    UNKNOWN_COMMAND(1047, "08S01", "Unknown command"),
    PACKET_TOO_LARGE(1153, "08S01", "Got a packet bigger than 'max_allowed_packet' bytes"),
    /** MySQL's ER_HOST_IS_BLOCKED with its text: an administrator's FLUSH HOSTS (mysqladmin flush-hosts) unblocks. */
    HOST_IS_BLOCKED(1129, "HY000", "Host '%s' is blocked because of many connection errors; unblock with 'mysqladmin flush-hosts'"),
    UNKNOWN_THREAD(1094, "HY000", "Unknown thread id: %s"),
    NOT_THREAD_OWNER(1095, "HY000", "You are not owner of thread %s"),
    TABLE_ACCESS_DENIED(1142, "42000", "%s command denied to user '%s'@'%s' for table '%s'"),
    SPECIFIC_ACCESS_DENIED(1227, "42000", "Access denied; you need (at least one of) the %s privilege(s) for this operation"),
    UNKNOWN_CHARACTER_SET(1115, "42000", "Unknown character set: '%s'"),
    /** A SET of a name that cannot be a system variable (no backend is asked: none has it). */
    UNKNOWN_SYSTEM_VARIABLE(1193, "HY000", "Unknown system variable '%s'"),
    UNKNOWN_COLLATION(1273, "HY000", "Unknown collation: '%s'"),
    COLLATION_CHARSET_MISMATCH(1253, "42000", "COLLATION '%s' is not valid for CHARACTER SET '%s'"),
    WRONG_ARGUMENTS(1210, "HY000", "Incorrect arguments to %s"),
    UNKNOWN_STATEMENT_HANDLER(1243, "HY000", "Unknown prepared statement handler (%s) given to %s"),
    TABLE_NOT_LOCKED(1100, "HY000", "Table '%s' was not locked with LOCK TABLES"),
    SUBQUERY_MORE_THAN_ONE_ROW(1242, "21000", "Subquery returns more than 1 row"),
    MORE_THAN_ONE_ROW(1172, "42000", "Result consisted of more than one row"),
    NO_DATA(1329, "02000", "No data - zero rows fetched, selected, or processed"),
    SAVEPOINT_DOES_NOT_EXIST(1305, "42000", "SAVEPOINT %s does not exist"),
    NO_OPEN_CURSOR(1421, "HY000", "The statement (%s) has no open cursor."),
    TOO_MANY_PREPARED_STATEMENTS(1461, "42000",
            "Can't create more than max_prepared_stmt_count statements (current value: %s)"),
    QUERY_INTERRUPTED(1317, "70100", "Query execution was interrupted"),
    /** The configured statement timeout ended the statement: MySQL's error for max_execution_time (ER_QUERY_TIMEOUT). */
    QUERY_TIMEOUT(3024, "HY000", "Query execution was interrupted, maximum statement execution time exceeded"),
    READ_ONLY_TRANSACTION(1792, "25006", "Cannot execute statement in a READ ONLY transaction."),
    /** {@code SET TRANSACTION …} or {@code SET @@transaction_isolation} without a scope while a transaction is open. */
    TRANSACTION_CHARACTERISTICS_IN_PROGRESS(1568, "25001",
            "Transaction characteristics can't be changed while a transaction is in progress"),
    SECURE_TRANSPORT_REQUIRED(3159, "HY000",
            "Connections using insecure transport are prohibited while --require_secure_transport=ON."),
    CLIENT_INTERACTION_TIMEOUT(4031, "HY000", "The client was disconnected by the server because of inactivity."),
    INVALID_CONFIG(1105, "HY000", "Invalid Shardwise configuration in %s:%n%s"),
    NO_ROUTE(1105, "HY000", "No shard holds %s = %s for table '%s'"),
    SHARD_UNAVAILABLE(1105, "HY000", "Shard %s is unavailable: %s"),
    /** A backend's own error; {@link BackendException} carries the backend's errno and SQLSTATE. */
    BACKEND_ERROR(1105, "HY000", "%s"),
    /** A warning the merger raises where MySQL does: x / 0 over merged aggregates is NULL. */
    DIVISION_BY_ZERO(1365, "22012", "Division by 0"),
    /** A warning the merger raises where MySQL does: a merged GROUP_CONCAT (or JSON_ARRAYAGG, which MariaDB cuts too) cut at group_concat_max_len. */
    GROUP_CONCAT_CUT(1260, "HY000", "Row %s was cut by %s()"),
    /** An integer expression over merged aggregates beyond BIGINT, as MySQL refuses it. */
    BIGINT_OUT_OF_RANGE(1690, "22003", "BIGINT value is out of range in '%s'"),
    BUG(1105, "HY000", "[BUG] %s"),
    /** xa mode: the commit decision could not be made durable, so the transaction was rolled back everywhere. */
    /** xa mode: the engine cannot start without its decision log. */
    XA_LOG_UNAVAILABLE(1105, "HY000", "Transaction mode xa cannot start: the decision log %s cannot be opened (%s)"),
    XA_DECISION_NOT_LOGGED(1105, "HY000", "Commit failed and the transaction was rolled back: the decision log %s could not be written (%s)"),

    // Backend errors Shardwise recognises (it never raises these itself; they arrive with the
    // backend's own text): named here so no errno is written anywhere else.
    DATABASE_DOES_NOT_EXIST(1008, "HY000", "Can't drop database '%s'; database doesn't exist"),
    DUPLICATE_ENTRY(1062, "23000", "Duplicate entry '%s' for key '%s'"),
    DUPLICATE_ENTRY_WITH_KEY_NAME(1586, "23000", "Duplicate entry '%s' for key '%s'"),
    OUT_OF_RANGE(1264, "22003", "Out of range value for column '%s' at row %s"),
    DATA_TRUNCATED(1265, "01000", "Data truncated for column '%s' at row %s"),
    WRONG_VALUE_FOR_VARIABLE(1231, "42000", "Variable '%s' can't be set to the value of '%s'"),
    WRONG_TYPE_FOR_VARIABLE(1232, "42000", "Incorrect argument type to variable '%s'"),
    TRUNCATED_WRONG_VALUE(1292, "22007", "Truncated incorrect %s value: '%s'"),
    INCORRECT_VALUE_FOR_FIELD(1366, "HY000", "Incorrect %s value: '%s' for column '%s' at row %s"),
    ILLEGAL_VALUE_FOR_TYPE(1367, "22007", "Illegal %s '%s' value found during parsing"),
    DATA_TOO_LONG(1406, "22001", "Data too long for column '%s' at row %s"),
    IDENTIFIER_TOO_LONG(1059, "42000", "Identifier name '%s' is too long"),
    /**
     * InnoDB's lock wait timeout, and Shardwise's own wait for a transaction slot (execute/Admission), which
     * gives the reason as the argument: clients retry both the same way. The statement did nothing.
     */
    LOCK_WAIT_TIMEOUT(1205, "HY000", "Lock wait timeout exceeded; try restarting transaction%s"),
    LOCK_DEADLOCK(1213, "40001", "Deadlock found when trying to get lock; try restarting transaction"),
    // MySQL XA (xa transaction mode): what the coordinator meets while ending or resolving a branch
    XAER_NOTA(1397, "XAE04", "XAER_NOTA: Unknown XID"),
    XAER_RMFAIL(1399, "XAE07", "XAER_RMFAIL: The command cannot be executed when global transaction is in the  %s state"),
    XA_RBROLLBACK(1402, "XA100", "XA_RBROLLBACK: Transaction branch was rolled back"),
    XA_RBTIMEOUT(1613, "XA106", "XA_RBTIMEOUT: Transaction branch was rolled back: took too long"),
    XA_RBDEADLOCK(1614, "XA102", "XA_RBDEADLOCK: Transaction branch was rolled back: deadlock was detected"),
    /** MySQL's ER_CAPACITY_EXCEEDED (as range_optimizer_max_mem_size reports it): a federated statement's rows over its budget. */
    CAPACITY_EXCEEDED(3170, "HY000", "Memory capacity of %s bytes for '%s' exceeded. %s"),
    UNSUPPORTED_PREPARED_STATEMENT(1295, "HY000", "This command is not supported in the prepared statement protocol yet");

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

    /** Whether {@code errno} is this code's: for backend errors, which arrive as a bare number. */
    public boolean is(int errno) {
        return this.errno == errno;
    }
}
