package io.shardwise.jdbc;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;

/**
 * Engine errors as the {@link SQLException} subclasses Connector/J throws for the same SQLSTATE,
 * with the MySQL errno as vendor code (a backend's own errno and SQLSTATE for backend errors):
 * class 08 → {@link SQLNonTransientConnectionException}, 22 → {@link SQLDataException}, 23 →
 * {@link SQLIntegrityConstraintViolationException}, 40 and errnos 1205/1213 →
 * {@link SQLTransactionRollbackException}, 42 → {@link SQLSyntaxErrorException}, 70100 →
 * {@link SQLNonTransientException} (Connector/J's MySQLQueryInterruptedException), others plain.
 */
final class SqlErrors {
    /** Connector/J's "illegal argument" SQLSTATE for driver-side misuse. */
    static final String ILLEGAL_ARGUMENT = "S1009";
    static final String CONNECTION_NOT_OPEN = "08003";

    private SqlErrors() {}

    static SQLException translate(RuntimeException e) {
        if (e instanceof ShardwiseException s) {
            return of(s.getMessage(), s.sqlState(), s.errno(), s);
        }
        return of(ErrorCode.BUG.message(e), ErrorCode.BUG.sqlState(), ErrorCode.BUG.errno(), e);
    }

    static SQLException of(String message, String sqlState, int errno, Throwable cause) {
        String state = sqlState == null ? "HY000" : sqlState;
        SQLException out;
        if (state.startsWith("08")) {
            out = new SQLNonTransientConnectionException(message, state, errno);
        } else if (state.startsWith("22")) {
            out = new SQLDataException(message, state, errno);
        } else if (state.startsWith("23")) {
            out = new SQLIntegrityConstraintViolationException(message, state, errno);
        } else if (state.startsWith("40") || ErrorCode.LOCK_WAIT_TIMEOUT.is(errno) || ErrorCode.LOCK_DEADLOCK.is(errno)) {
            out = new SQLTransactionRollbackException(message, state, errno);
        } else if (state.startsWith("42")) {
            out = new SQLSyntaxErrorException(message, state, errno);
        } else if (state.equals("70100")) {
            out = new SQLNonTransientException(message, state, errno);
        } else {
            out = new SQLException(message, state, errno);
        }
        if (cause != null) {
            out.initCause(cause);
        }
        return out;
    }

    /** {@code Wrapper.unwrap} for a Shardwise object that wraps nothing but itself. */
    static <T> T unwrapSelf(Object self, Class<T> iface, String what) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw illegal(what + " does not wrap a " + iface.getName());
    }

    static SQLException illegal(String message) {
        return new SQLException(message, ILLEGAL_ARGUMENT);
    }

    static SQLException closed(String what) {
        return new SQLNonTransientConnectionException("No operations allowed after " + what + " closed.", CONNECTION_NOT_OPEN);
    }

    static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by the Shardwise JDBC driver", "0A000");
    }
}
