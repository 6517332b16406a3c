package io.shardwise.server.protocol;

/** The server status bitmap of OK and EOF packets. Immutable. */
public record ServerStatus(int bits) {
    public static final int IN_TRANSACTION = 1;
    public static final int AUTOCOMMIT = 1 << 1;
    public static final int MORE_RESULTS_EXIST = 1 << 3;
    /** A COM_STMT_EXECUTE opened a cursor, or a COM_STMT_FETCH left rows in it. */
    public static final int CURSOR_EXISTS = 1 << 6;
    /** A COM_STMT_FETCH sent the cursor's last row (the cursor is closed). */
    public static final int LAST_ROW_SENT = 1 << 7;
    /**
     * The session's sql_mode has NO_BACKSLASH_ESCAPES: a client escaping values itself must double
     * quotes instead of prefixing a backslash (PyMySQL, go-sql-driver and libmysqlclient read this bit).
     */
    public static final int NO_BACKSLASH_ESCAPES = 1 << 9;
    /**
     * SERVER_STATUS_METADATA_CHANGED: this execute's column count is not the one its statement had (MariaDB, as MySQL,
     * sets it when a reprepare after DDL changes the number of columns, in the packets of that one execute).
     */
    public static final int METADATA_CHANGED = 1 << 10;

    /** The four statuses {@link #of} answers, made once: it is asked at the end of every relayed statement. */
    private static final ServerStatus[] OF = {new ServerStatus(0), new ServerStatus(1), new ServerStatus(2), new ServerStatus(3)};

    public static ServerStatus of(boolean inTransaction, boolean autocommit) {
        return OF[(inTransaction ? IN_TRANSACTION : 0) | (autocommit ? AUTOCOMMIT : 0)];
    }

    public ServerStatus with(int flags) {
        return new ServerStatus(bits | flags);
    }

    /** The same status for a result that more results of the same COM_QUERY follow (multi-statements). */
    public ServerStatus withMoreResults() {
        return new ServerStatus(bits | MORE_RESULTS_EXIST);
    }

    public boolean inTransaction() {
        return (bits & IN_TRANSACTION) != 0;
    }

    public boolean autocommit() {
        return (bits & AUTOCOMMIT) != 0;
    }

    public boolean moreResultsExist() {
        return (bits & MORE_RESULTS_EXIST) != 0;
    }

    public boolean cursorExists() {
        return (bits & CURSOR_EXISTS) != 0;
    }

    public boolean noBackslashEscapes() {
        return (bits & NO_BACKSLASH_ESCAPES) != 0;
    }

    public boolean lastRowSent() {
        return (bits & LAST_ROW_SENT) != 0;
    }
}
