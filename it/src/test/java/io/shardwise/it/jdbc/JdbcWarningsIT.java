package io.shardwise.it.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code getWarnings()} through the Shardwise driver on the sharded layout against plain
 * Connector/J on the unsharded database: the SQLWarning chain (class, vendor code, SQLSTATE,
 * message), compared as a multiset where shards each report their own rows' conditions, and
 * {@code clearWarnings()}. Writes run in a transaction that is rolled back: the fixture is shared.
 */
class JdbcWarningsIT {
    /** Rows on every shard of orders (sharded by user_id, so these ids span the shards). */
    private static final String SOME_ORDERS = "order_id BETWEEN 100001 AND 100012";
    private static Fixture f;

    @BeforeAll
    static void load() {
        f = Fixture.get();
    }

    interface Scenario {
        List<String> run(Connection c) throws SQLException;
    }

    private static void same(Scenario scenario) throws SQLException {
        List<String> expected;
        try (Connection c = f.direct()) {
            expected = scenario.run(c);
        }
        List<String> actual;
        try (Connection c = f.shardwise()) {
            actual = scenario.run(c);
        }
        assertEquals(expected, actual);
        assertFalse(expected.isEmpty());
    }

    private static List<String> chain(SQLWarning first, boolean sorted) {
        List<String> out = new ArrayList<>();
        for (SQLWarning w = first; w != null; w = w.getNextWarning()) {
            out.add(w.getClass().getSimpleName() + "|" + w.getErrorCode() + "|" + w.getSQLState() + "|" + w.getMessage());
        }
        if (sorted) {
            out.sort(null);
        }
        return out;
    }

    @Test
    void scatterUpdateWarningsOfEveryShardAreInTheChain() throws SQLException {
        same(c -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET sql_mode = ''"); // strict mode makes an UPDATE's truncation an error
                int n = s.executeUpdate("UPDATE orders SET status = status WHERE " + SOME_ORDERS
                        + " AND CAST(CONCAT(order_id, 'x') AS SIGNED) > 0");
                List<String> out = new ArrayList<>(List.of("rows " + n));
                out.addAll(chain(s.getWarnings(), true));
                s.clearWarnings();
                out.add("cleared " + chain(s.getWarnings(), false));
                return out;
            } finally {
                c.rollback();
            }
        });
    }

    @Test
    void truncationIsADataTruncationWarning() throws SQLException {
        same(c -> {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SET sql_mode = ''");
                s.executeUpdate("UPDATE orders SET status = 'a status far too long for the column' WHERE order_id = 100001");
                return chain(s.getWarnings(), false);
            } finally {
                c.rollback();
            }
        });
    }

    @Test
    void crossShardSelectWarningsAreOnTheStatementAfterTheRows() throws SQLException {
        same(c -> {
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT order_id, CAST(CONCAT(order_id, 'y') AS SIGNED) FROM orders WHERE "
                         + SOME_ORDERS + " ORDER BY order_id")) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
                out.add("resultSet " + chain(rs.getWarnings(), false));
                out.addAll(chain(s.getWarnings(), true));
                return out;
            }
        });
    }

    @Test
    void preparedStatementWarningsInOrderAndClearedByTheNextStatement() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            try (PreparedStatement p = c.prepareStatement("SELECT CAST(? AS SIGNED), CAST('2b' AS SIGNED)")) {
                p.setString(1, "1a");
                try (ResultSet rs = p.executeQuery()) {
                    rs.next();
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
                out.addAll(chain(p.getWarnings(), false));
                out.add("asked again " + chain(p.getWarnings(), false));
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                    rs.next();
                    out.add("after another statement " + chain(p.getWarnings(), false) + " " + chain(s.getWarnings(), false));
                }
            }
            return out;
        });
    }

    @Test
    void divisionByZeroOverMergedAggregatesWarnsOncePerGroupAsMysqlDoes() throws SQLException {
        same(c -> {
            List<String> out = new ArrayList<>();
            // COUNT(*) - 12 is 0 only for the whole group (12 orders), never for one shard alone (each holds fewer)
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) / 0, SUM(amount) / (COUNT(*) - COUNT(*)), NULL / 0,"
                         + " COUNT(*) / (COUNT(*) - 12) FROM orders WHERE " + SOME_ORDERS)) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
                }
                out.addAll(chain(s.getWarnings(), false));
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT user_id % 3, SUM(amount) / (COUNT(*) - COUNT(*))"
                    + " FROM orders WHERE " + SOME_ORDERS + " GROUP BY 1 ORDER BY 1")) {
                while (rs.next()) {
                    out.add(rs.getString(1) + " " + rs.getString(2));
                }
                out.addAll(chain(s.getWarnings(), false));
            }
            return out;
        });
    }

    @Test
    void anErrorIsThrownNotChained() throws SQLException {
        try (Connection c = f.shardwise(); Statement s = c.createStatement()) {
            try {
                s.execute("UPDATE IGNORE orders SET user_id = 5 WHERE order_id = 1"); // refused: a moved row meeting a duplicate would be lost
            } catch (SQLException expected) {
                assertEquals(1235, expected.getErrorCode());
            }
            assertNull(s.getWarnings());
        }
    }
}
