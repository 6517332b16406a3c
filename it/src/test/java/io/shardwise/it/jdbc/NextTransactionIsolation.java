package io.shardwise.it.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * What a client sees of {@code SET TRANSACTION ISOLATION LEVEL} without SESSION, run the same way
 * against Shardwise (either face) and against one MariaDB: the level applies to the next transaction
 * only (a plain SELECT of it takes shared locks, so a second connection's UPDATE of that row waits
 * and times out), while {@code @@transaction_isolation} and {@code getTransactionIsolation()} keep
 * reporting the session's level before, inside and after that transaction, as MariaDB 11.4 does.
 * The SESSION form changes what both report.
 */
public final class NextTransactionIsolation {
    private NextTransactionIsolation() {}

    /**
     * @param a the connection whose transactions are observed (autocommit on, the sample schema)
     * @param b a second connection to the same data, whose UPDATE tells whether a's read locked the row
     * @return the observations, to compare between the two sides
     */
    public static List<String> observe(Connection a, Connection b) throws SQLException {
        List<String> seen = new ArrayList<>();
        try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
            sb.execute("SET SESSION innodb_lock_wait_timeout = 1");
            String code = single(sa, "SELECT MIN(code) FROM countries");
            sa.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
            seen.add("after SET: " + levels(a, sa));
            sa.execute("START TRANSACTION");
            seen.add("next transaction reads " + read(a, code));
            seen.add("inside it: " + levels(a, sa));
            seen.add("its read locks the row: " + blocked(b, code));
            sa.execute("COMMIT");
            sa.execute("START TRANSACTION");
            seen.add("the one after reads " + read(a, code));
            seen.add("its read locks the row: " + blocked(b, code));
            sa.execute("COMMIT");
            seen.add("after both: " + levels(a, sa));
            sa.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
            seen.add("after SET SESSION: " + levels(a, sa));
            sa.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        }
        return seen;
    }

    private static String levels(Connection c, Statement s) throws SQLException {
        return single(s, "SELECT @@transaction_isolation") + " " + single(s, "SELECT @@tx_isolation")
                + " jdbc=" + c.getTransactionIsolation();
    }

    private static String read(Connection c, String code) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT name FROM countries WHERE code = ?")) {
            p.setString(1, code);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : "nothing";
            }
        }
    }

    /** Whether an UPDATE of the row waits for a lock (1205 after the 1 s timeout). */
    private static boolean blocked(Connection b, String code) throws SQLException {
        try (PreparedStatement p = b.prepareStatement("UPDATE countries SET name = name WHERE code = ?")) {
            p.setString(1, code);
            p.executeUpdate();
            return false;
        } catch (SQLException e) {
            if (e.getErrorCode() == 1205) {
                return true;
            }
            throw e;
        }
    }

    private static String single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
