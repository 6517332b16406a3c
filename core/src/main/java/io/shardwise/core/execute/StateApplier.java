package io.shardwise.core.execute;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

/**
 * Brings a checked-out connection to a session's state before it runs a unit (HikariCP's dirty
 * bits, STYLE 17): nothing when the connection last served this session at this version, else one
 * {@code SET SESSION} with the assignments that differ, resets included. Autocommit, isolation and
 * read-only go through JDBC, so HikariCP restores them to the pool's defaults when the connection
 * returns; session variables stay on the connection, recorded in its {@link AppliedStates.AppliedState}.
 */
final class StateApplier {
    private StateApplier() {}

    /**
     * @param isolation the level of the transaction (or autocommit statement) the lease serves, null for
     *     the pool's default: {@link SessionState#takeNextIsolation} taken when it began. Set through JDBC
     *     on this checkout only (HikariCP resets it on return), so a next-transaction level ends with it.
     */
    static void apply(Lease lease, SessionState state, SessionState.Isolation isolation, boolean inTransaction,
                      ExecutorOptions options) throws SQLException {
        Connection c = lease.connection();
        if (lease.isolation != isolation && isolation != null) {
            c.setTransactionIsolation(isolation.jdbcLevel);
            lease.isolation = isolation;
        }
        if (lease.readOnly != state.readOnly()) {
            c.setReadOnly(state.readOnly());
            lease.readOnly = state.readOnly();
        }
        AppliedStates.AppliedState applied = lease.applied();
        if (applied.owner == state && applied.version == state.version() && applied.inTransaction == inTransaction) {
            return;
        }
        Map<String, String> want = state.assignments(inTransaction, options.lockWaitSeconds());
        String set = difference(want, applied.assignments, lease.baseline());
        if (set != null) {
            // Record first: if the SET fails half-way the connection's state is unknown, so mark it unknown.
            Map<String, String> had = applied.assignments;
            applied.assignments = unknown(had, want);
            applied.owner = null;
            try (Statement s = c.createStatement()) {
                s.execute(set);
            } catch (SQLException e) {
                if (e.getErrorCode() != 0) {
                    // the server refused it (1193 unknown variable, 1231 bad value ...): MySQL checks every
                    // assignment of a SET before it makes any, so the connection still has what it had; left
                    // "unknown", its next user would reset the refused variable and fail the same way forever
                    applied.assignments = had;
                }
                throw e;
            }
            tellDriverSqlMode(lease, applied, want.get(SessionState.SQL_MODE));
        }
        applied.assignments = want;
        applied.owner = state;
        applied.version = state.version();
        applied.inTransaction = inTransaction;
    }

    /**
     * Connector/J escapes the strings it binds by the sql_mode it read at connect time, not by the
     * server's NO_BACKSLASH_ESCAPES status bit: after a SET changed sql_mode on its connection, a
     * bound {@code é' OR 1=1 -- \} would be escaped with backslashes the backend no longer reads as
     * escapes (the value stored wrong, or worse). So its copy of the variable follows every change.
     */
    private static void tellDriverSqlMode(Lease lease, AppliedStates.AppliedState applied, String assignment) {
        Map<String, String> variables = lease.physical().getSession().getServerSession().getServerVariables();
        if (applied.connectSqlMode == null) {
            applied.connectSqlMode = variables.getOrDefault(SessionState.SQL_MODE, "");
        }
        // the assignment is "sql_mode = 'X'", X without quotes (SessionState admits no quote in it)
        variables.put(SessionState.SQL_MODE, assignment == null ? applied.connectSqlMode
                : assignment.substring(assignment.indexOf('\'') + 1, assignment.length() - 1));
    }

    /** One {@code SET SESSION a = x, b = y} for every key whose value differs, or null when none does. */
    static String difference(Map<String, String> want, Map<String, String> have, BackendPools.Baseline baseline) {
        StringBuilder sql = null;
        for (Map.Entry<String, String> e : have.entrySet()) {
            if (!want.containsKey(e.getKey())) {
                sql = append(sql, reset(e.getKey(), baseline));
            }
        }
        boolean names = false;
        boolean connection = false;
        for (Map.Entry<String, String> e : want.entrySet()) {
            if (!e.getValue().equals(have.get(e.getKey()))) {
                sql = append(sql, e.getValue());
                names |= e.getKey().equals(SessionState.RESULTS) && e.getValue().contains(", NAMES ");
                connection |= e.getKey().equals(SessionState.CONNECTION);
            }
        }
        if (names && !connection) {
            // the results' NAMES also set the connection's character set and collation: put back what it carries
            String carried = want.get(SessionState.CONNECTION);
            sql = append(sql, carried == null ? baseline.connectionAssignment() : carried);
        }
        return sql == null ? null : sql.toString();
    }

    private static StringBuilder append(StringBuilder sql, String assignment) {
        if (sql == null) {
            return new StringBuilder(64 + assignment.length()).append("SET SESSION ").append(assignment);
        }
        return sql.append(", ").append(assignment);
    }

    private static String reset(String key, BackendPools.Baseline baseline) {
        return switch (key) {
            case SessionState.RESULTS -> baseline.resultsAssignment();
            case SessionState.CONNECTION -> baseline.connectionAssignment();
            default -> key + " = DEFAULT";
        };
    }

    /** A record that matches no value: every key either side knows, and every typed one, is sent again next time. */
    private static Map<String, String> unknown(Map<String, String> had, Map<String, String> want) {
        Map<String, String> m = new HashMap<>();
        for (String key : new String[] {SessionState.RESULTS, SessionState.CONNECTION, SessionState.TIME_ZONE,
                SessionState.SQL_MODE, SessionState.LOCK_WAIT}) {
            m.put(key, "?");
        }
        had.keySet().forEach(k -> m.put(k, "?"));
        want.keySet().forEach(k -> m.put(k, "?"));
        return m;
    }
}
