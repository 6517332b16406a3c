package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.RouteKind;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the federated tier once answered differently from one database holding the same rows: labels
 * of a set operation's (a WITH's) items naming a renamed copy, and locking reads naming their tables
 * ({@code FOR UPDATE OF t}), which the testkit's MariaDB cannot parse: the backend's own 1064, with
 * nothing locked, where the tier used to refuse with 1235.
 */
class FederatedExactnessTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("fedexact");

    /** Labels, then the rows sorted (the statements order nothing that matters). */
    private static List<String> viaEngine(EngineSession s, String sql) {
        assertEquals(RouteKind.FEDERATED, s.preview(sql, List.of()).kind(), sql);
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            List<String> labels = new ArrayList<>();
            for (Column column : c.columns()) {
                labels.add(column.name());
            }
            List<String> rows = new ArrayList<>();
            while (c.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    row.append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8)).append('|');
                }
                rows.add(row.toString());
            }
            Collections.sort(rows);
            List<String> out = new ArrayList<>(List.of(String.join(", ", labels)));
            out.addAll(rows);
            return out;
        }
    }

    private static List<String> direct(String sql) throws SQLException {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int width = rs.getMetaData().getColumnCount();
            List<String> labels = new ArrayList<>();
            for (int i = 1; i <= width; i++) {
                labels.add(rs.getMetaData().getColumnLabel(i));
            }
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= width; i++) {
                    byte[] v = rs.getBytes(i);
                    row.append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8)).append('|');
                }
                rows.add(row.toString());
            }
            Collections.sort(rows);
            List<String> out = new ArrayList<>(List.of(String.join(", ", labels)));
            out.addAll(rows);
            return out;
        }
    }

    private static int directError(String sql) {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement()) {
            st.executeQuery(sql).close();
            return 0;
        } catch (SQLException e) {
            return e.getErrorCode();
        }
    }

    @Test
    void aSetOperationsItemNamingARenamedCopyKeepsTheUsersLabel() throws Exception {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String sql : List.of(
                    "SELECT (SELECT COUNT(*) FROM sbtest1 WHERE sbtest1.k < 500), 1 + 1 FROM countries WHERE code = 'de'"
                            + " UNION SELECT id, k FROM sbtest1 WHERE id < 3",
                    "(SELECT (SELECT MAX(id) FROM sbtest1), 'x') UNION ALL (SELECT 1, 'y') ORDER BY 2",
                    "WITH w AS (SELECT k FROM sbtest1 WHERE id < 4) SELECT (SELECT COUNT(*) FROM sbtest1), k FROM w")) {
                assertEquals(direct(sql), viaEngine(s, sql), sql);
            }
        }
    }

    @Test
    void aLockingReadNamingItsTablesGetsTheBackendsOwnErrorAndLocksNothing() {
        String sql = "SELECT o.order_id FROM orders o WHERE o.user_id IN (SELECT user_id FROM users) FOR UPDATE OF o";
        int expected = directError(sql);
        assertEquals(1064, expected, "the testkit's MariaDB has no FOR UPDATE OF");
        try (EngineSession s = SAMPLE.engine().openSession(); EngineSession other = SAMPLE.engine().openSession()) {
            assertEquals(expected, assertThrows(ShardwiseException.class, () -> viaEngine(s, sql)).errno());
            s.execute("BEGIN");
            assertEquals(expected, assertThrows(ShardwiseException.class, () -> viaEngine(s, sql)).errno());
            assertEquals(expected, assertThrows(ShardwiseException.class, () -> viaEngine(s, sql.replace("FOR UPDATE OF o",
                    "FOR SHARE OF o NOWAIT"))).errno());
            // the failed statement locked no source row: another transaction takes them at once
            other.execute("BEGIN");
            for (int user = 0; user < 8; user++) {
                try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class,
                        other.execute("SELECT order_id FROM orders WHERE user_id = " + user + " FOR UPDATE NOWAIT")).cursor()) {
                    while (c.next()) {
                        c.get(0);
                    }
                }
            }
            other.execute("ROLLBACK");
            s.execute("ROLLBACK");
        }
    }
}
