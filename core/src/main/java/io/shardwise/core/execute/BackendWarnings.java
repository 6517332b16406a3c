package io.shardwise.core.execute;

import com.mysql.cj.NativeSession;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    /** Where one unit's conditions go: its slot in the statement's diagnostics, and the names to make logical. */
    record Slot(Diagnostics diagnostics, int unit, Map<String, String> logicalTables, String logicalSchema) {
        /** Records the unit's conditions when its backend counted any. */
        void collect(Lease lease) throws SQLException {
            BackendWarnings.collect(lease, logicalTables, logicalSchema, diagnostics, unit);
        }
    }

    private static void collect(Lease lease, Map<String, String> logicalTables, String logicalSchema, Diagnostics diagnostics,
                                int unit) throws SQLException {
        int count = count(lease);
        if (count == 0) {
            return;
        }
        List<Condition> conditions = new ArrayList<>();
        String database = lease.physical().getCatalog();
        try (Statement s = lease.connection().createStatement(); ResultSet rs = s.executeQuery("SHOW WARNINGS")) {
            while (rs.next()) {
                String message = LogicalNames.inMessage(rs.getString(3), logicalTables, database, logicalSchema);
                conditions.add(new Condition(Condition.Level.of(rs.getString(1)), rs.getInt(2), message));
            }
        }
        diagnostics.unit(unit, count, conditions);
    }

    /**
     * Physical table and database names in a backend's message replaced by logical ones, whole
     * identifiers only ({@code orders_1} never matches inside {@code orders_10}). Kept small and
     * self-contained so it can be unified with the error-message helper of core's error package.
     */
    static final class LogicalNames {
        private LogicalNames() {}

        static String inMessage(String message, Map<String, String> tables, String database, String logicalSchema) {
            if (message == null) {
                return "";
            }
            String out = message;
            for (Map.Entry<String, String> e : tables.entrySet()) {
                out = replaceIdentifier(out, e.getKey(), e.getValue());
            }
            if (database != null && !database.isEmpty() && !database.equals(logicalSchema)) {
                out = replaceIdentifier(out, database, logicalSchema);
            }
            return out;
        }

        static String replaceIdentifier(String text, String name, String replacement) {
            int at = text.indexOf(name);
            if (at < 0) {
                return text;
            }
            StringBuilder b = new StringBuilder(text.length());
            int from = 0;
            for (; at >= 0; at = text.indexOf(name, at + name.length())) {
                int end = at + name.length();
                boolean whole = (at == 0 || !identifierChar(text.charAt(at - 1)))
                        && (end == text.length() || !identifierChar(text.charAt(end)));
                if (whole) {
                    b.append(text, from, at).append(replacement);
                    from = end;
                }
            }
            return b.append(text, from, text.length()).toString();
        }

        private static boolean identifierChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '$';
        }
    }
}
