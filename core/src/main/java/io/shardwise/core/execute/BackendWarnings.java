package io.shardwise.core.execute;

import com.mysql.cj.NativeSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads what a unit's statement left in its backend's diagnostics area, as Connector/J's
 * {@code Statement.getWarnings()} does: {@code SHOW WARNINGS} on the same connection, right after
 * the statement ended, and only when the OK/EOF packet counted warnings (no round trip otherwise).
 *
 * <p>Hazard: must run before the connection goes back to its pool or runs another statement,
 * and after a streaming result set was read to its end (the EOF carries the count).
 */
final class BackendWarnings {
    private BackendWarnings() {}

    /** The warning count of the last OK/EOF packet on {@code lease}'s connection. */
    static int count(Lease lease) {
        return ((NativeSession) lease.physical().getSession()).getProtocol().getWarningCount();
    }

    /**
     * Where one unit's conditions go: its slot in the statement's diagnostics; messages read in
     * logical names as backend errors do ({@link BackendMessages}, the unit's backend).
     */
    record Slot(Diagnostics diagnostics, int unit, BackendMessages messages, String backend) {
        /** Records the unit's conditions when its backend counted any. */
        void collect(Lease lease) throws SQLException {
            BackendWarnings.collect(lease, messages, backend, diagnostics, unit);
        }
    }

    private static void collect(Lease lease, BackendMessages messages, String backend, Diagnostics diagnostics,
                                int unit) throws SQLException {
        int count = count(lease);
        if (count == 0) {
            return;
        }
        List<Condition> conditions = new ArrayList<>();
        try (Statement s = lease.connection().createStatement(); ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                int code = rs.getInt(2);
                conditions.add(new Condition(Condition.Level.of(rs.getString(1)), code, messages.logical(backend, code, rs.getString(3))));
            }
        }
        diagnostics.unit(unit, count, conditions);
    }
}
