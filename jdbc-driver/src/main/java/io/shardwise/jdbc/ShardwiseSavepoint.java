package io.shardwise.jdbc;

import java.sql.SQLException;
import java.sql.Savepoint;

/** A savepoint set through {@link ShardwiseConnection#setSavepoint}: named by the caller or numbered. */
record ShardwiseSavepoint(String givenName, int id) implements Savepoint {
    @Override
    public int getSavepointId() throws SQLException {
        if (givenName != null) {
            throw new SQLException("Only unnamed savepoints have an id", SqlErrors.ILLEGAL_ARGUMENT);
        }
        return id;
    }

    @Override
    public String getSavepointName() throws SQLException {
        if (givenName == null) {
            throw new SQLException("Unnamed savepoints have no name", SqlErrors.ILLEGAL_ARGUMENT);
        }
        return givenName;
    }

    String name() {
        return givenName != null ? givenName : "shardwise_sp_" + id;
    }

    static String nameOf(Savepoint savepoint) throws SQLException {
        if (savepoint instanceof ShardwiseSavepoint s) {
            return s.name();
        }
        if (savepoint == null) {
            throw SqlErrors.illegal("savepoint is null");
        }
        return savepoint.getSavepointName();
    }
}
