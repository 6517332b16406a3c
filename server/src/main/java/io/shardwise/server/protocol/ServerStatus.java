package io.shardwise.server.protocol;

/** The server status bitmap of OK and EOF packets. Immutable. */
public record ServerStatus(int bits) {
    public static final int IN_TRANSACTION = 1;
    public static final int AUTOCOMMIT = 1 << 1;
    public static final int MORE_RESULTS_EXIST = 1 << 3;

    public static ServerStatus of(boolean inTransaction, boolean autocommit) {
        return new ServerStatus((inTransaction ? IN_TRANSACTION : 0) | (autocommit ? AUTOCOMMIT : 0));
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
}
