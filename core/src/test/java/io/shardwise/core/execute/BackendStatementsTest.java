package io.shardwise.core.execute;

import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static io.shardwise.core.execute.Shards.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.config.PoolConfig;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.route.ExecutionUnit;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Prepared statements kept on a backend connection between checkouts: one connection in the pool,
 * so every unit runs on the same physical connection and finds what the previous one left.
 */
class BackendStatementsTest {
    private static final String SELECT = "SELECT note FROM items WHERE id = ?";
    private static Shards shards;

    @BeforeAll
    static void createBackend() {
        shards = new Shards(1, new PoolConfig(1, 0, Duration.ofSeconds(3), Duration.ofMinutes(1), Duration.ofMinutes(30)));
        StringBuilder rows = new StringBuilder("INSERT INTO items (id, note) VALUES (1, 'one'), (2, 'two')");
        for (int i = 3; i <= 40; i++) {
            rows.append(", (").append(i).append(", 'n").append(i).append("')");
        }
        shards.sql(0, "CREATE TABLE items (id INT PRIMARY KEY, note VARCHAR(20))", rows.toString());
    }

    @AfterAll
    static void dropBackend() {
        shards.close();
    }

    @AfterEach
    void noConnectionIsLeftCheckedOut() {
        assertEquals(0, shards.pools.activeConnections());
    }

    private static ExecutionUnit unit(String sql, Object... params) {
        return new ExecutionUnit("ds0", sql, Arrays.asList(params), Map.of());
    }

    private static UnitResult run(ExecutionSession s, String sql, Object... params) {
        return s.execute(List.of(unit(sql, params))).getFirst();
    }

    /** The statements the pool's one connection keeps, looked at between statements. */
    private static BackendStatements kept() {
        Lease lease = shards.pools.borrow("ds0", true);
        try {
            return lease.applied().statements;
        } finally {
            lease.release();
        }
    }

    private static PreparedStatement keptFor(String sql) throws Exception {
        Lease lease = shards.pools.borrow("ds0", true);
        try {
            PreparedStatement ps = lease.applied().statements.take(lease.physical(), sql);
            lease.applied().statements.giveBack(sql, ps);
            return ps;
        } finally {
            lease.release();
        }
    }

    @Test
    void aPreparedUnitRunAgainReusesItsStatementWithTheNewValues() throws Exception {
        try (ExecutionSession s = shards.session()) {
            assertEquals("one", single(run(s, SELECT, 1)));
            PreparedStatement first = keptFor(SELECT);
            assertEquals("two", single(run(s, SELECT, 2)));
            assertEquals(List.of(), rows(run(s, SELECT, 99)));
            assertSame(first, keptFor(SELECT));
            assertEquals(1, update(run(s, "UPDATE items SET note = ? WHERE id = ?", "uno", 1)).affectedRows());
            assertEquals("uno", single(run(s, SELECT, 1)));
            assertEquals(1, update(run(s, "UPDATE items SET note = ? WHERE id = ?", "one", 1)).affectedRows());
        }
    }

    @Test
    void aFailedUnitClosesItsStatementAndTheNextGetsAFreshOne() throws Exception {
        String insert = "INSERT INTO items (id, note) VALUES (?, ?)";
        try (ExecutionSession s = shards.session()) {
            assertEquals(1, update(run(s, insert, 100, "a")).affectedRows());
            PreparedStatement before = keptFor(insert);
            BackendException e = assertThrows(BackendException.class, () -> run(s, insert, 100, "again"));
            assertEquals(1062, e.errno());
            PreparedStatement after = keptFor(insert);
            assertNotSame(before, after);
            assertEquals(1, update(run(s, insert, 101, "b")).affectedRows());
            run(s, "DELETE FROM items WHERE id >= ?", 100);
        }
    }

    @Test
    void aResultClosedEarlyIsKilledAndItsStatementNotKept() throws Exception {
        String all = "SELECT id FROM items WHERE id > ? ORDER BY id";
        try (ExecutionSession s = shards.session()) {
            PreparedStatement before = keptFor(all);
            try (ResultCursor c = ((UnitResult.Rows) run(s, all, 0)).cursor()) {
                c.next(); // then closed with more rows than it drains
            }
            assertTrue(before.isClosed());
            assertNotSame(before, keptFor(all));
            assertEquals(40, rows(run(s, all, 0)).size());
        }
    }

    @Test
    void ddlBetweenRunsShowsInTheNextRun() {
        String star = "SELECT * FROM items WHERE id = ?";
        try (ExecutionSession s = shards.session()) {
            assertEquals(List.of(List.of("1", "one")), rows(run(s, star, 1)));
            assertEquals(List.of(List.of("1", "one")), rows(run(s, star, 1)));
            shards.sql(0, "ALTER TABLE items ADD COLUMN extra INT DEFAULT 7");
            try {
                assertEquals(List.of(List.of("1", "one", "7")), rows(run(s, star, 1)));
            } finally {
                shards.sql(0, "ALTER TABLE items DROP COLUMN extra");
            }
            assertEquals(List.of(List.of("1", "one")), rows(run(s, star, 1)));
        }
    }

    @Test
    void aKeptStatementSeesACharsetChangeAsAFreshOneDoes() throws Exception {
        String sql = "SELECT CONCAT(?, note), @@character_set_results FROM items WHERE id = ?";
        String fresh = sql + " /* never run before */";
        try (ExecutionSession s = shards.session()) {
            List<List<String>> utf8 = rows(run(s, sql, "é", 1));
            assertEquals(List.of(List.of("éone", "utf8mb4")), utf8);
            PreparedStatement kept = keptFor(sql);
            s.state().setNames("latin1", null);
            List<byte[]> viaKept = bytes(run(s, sql, "é", 1));
            assertSame(kept, keptFor(sql));
            List<byte[]> viaFresh = bytes(run(s, fresh, "é", 1));
            assertEquals(new String(viaFresh.get(0), java.nio.charset.StandardCharsets.ISO_8859_1),
                    new String(viaKept.get(0), java.nio.charset.StandardCharsets.ISO_8859_1));
            assertEquals("latin1", new String(viaKept.get(1), java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals("éone", new String(viaKept.get(0), java.nio.charset.StandardCharsets.ISO_8859_1), "one byte per é in latin1");
        }
    }

    /** The one row of a result, as the backend's bytes. */
    private static List<byte[]> bytes(UnitResult result) {
        try (ResultCursor c = ((UnitResult.Rows) result).cursor()) {
            List<byte[]> row = new java.util.ArrayList<>();
            if (c.next()) {
                for (int i = 0; i < c.columns().size(); i++) {
                    row.add(c.get(i).clone());
                }
            }
            assertFalse(c.next());
            return row;
        }
    }

    /** A result's columns, the cursor read to its end and closed. */
    private static List<Column> columns(UnitResult result) {
        try (ResultCursor c = ((UnitResult.Rows) result).cursor()) {
            List<Column> columns = c.columns();
            while (c.next()) {
                c.get(0);
            }
            return columns;
        }
    }

    @Test
    void aRepeatedResultReusesItsColumnsUntilTheBackendDescribesThemDifferently() {
        String star = "SELECT * FROM items WHERE id = ?";
        try (ExecutionSession s = shards.session()) {
            List<Column> first = columns(run(s, star, 1));
            assertSame(first, columns(run(s, star, 2)), "nothing changed: the same column records");
            shards.sql(0, "ALTER TABLE items MODIFY note VARCHAR(30)");
            try {
                List<Column> wider = columns(run(s, star, 1));
                assertEquals(4L * 30, wider.get(1).length());
                shards.sql(0, "ALTER TABLE items RENAME COLUMN note TO memo");
                List<Column> renamed = columns(run(s, star, 1));
                assertEquals("memo", renamed.get(1).name());
                assertEquals(wider.get(1).length(), renamed.get(1).length(), "only the name changed");
                s.state().setNames("latin1", null);
                List<Column> latin1 = columns(run(s, star, 1));
                assertEquals(30, latin1.get(1).length(), "one byte per character in latin1");
                assertNotSame(renamed, latin1);
            } finally {
                shards.sql(0, "ALTER TABLE items CHANGE memo note VARCHAR(20)");
            }
        }
    }

    @Test
    void columnsOfTheSameTextOnAnotherNodeNameTheirOwnLogicalTables() {
        String sql = "SELECT note FROM items WHERE id = ?";
        try (ExecutionSession s = shards.session()) {
            List<Column> plain = columns(s.execute(List.of(unit(sql, 1))).getFirst());
            List<Column> named = columns(s.execute(List.of(new ExecutionUnit("ds0", sql, List.of(1), Map.of("items", "things"))))
                    .getFirst());
            assertEquals("items", plain.getFirst().table());
            assertEquals("things", named.getFirst().table());
        }
    }

    @Test
    void aStatementClosedWithItsConnectionIsReplaced() throws Exception {
        try (ExecutionSession s = shards.session()) {
            single(run(s, SELECT, 1));
            keptFor(SELECT).close(); // as Connector/J closes a connection's statements
            assertEquals("two", single(run(s, SELECT, 2)));
            assertFalse(keptFor(SELECT).isClosed());
        }
    }

    @Test
    void transactionUnitsKeepNoStatements() {
        String sql = "SELECT note FROM items WHERE id = ? FOR UPDATE";
        try (ExecutionSession s = shards.session()) {
            s.begin();
            assertEquals("one", single(run(s, sql, 1)));
            s.commit();
            assertFalse(keptHolds(sql));
        }
    }

    private static boolean keptHolds(String sql) {
        try {
            Lease lease = shards.pools.borrow("ds0", true);
            try {
                BackendStatements statements = lease.applied().statements;
                int before = statements.size();
                PreparedStatement ps = statements.take(lease.physical(), sql);
                boolean held = statements.size() < before;
                statements.giveBack(sql, ps);
                return held;
            } finally {
                lease.release();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aConnectionKeepsABoundedNumberOfTexts() {
        try (ExecutionSession s = shards.session()) {
            for (int i = 0; i < BackendStatements.MAX + 5; i++) {
                assertEquals("one", single(run(s, "SELECT note FROM items WHERE id = ? AND " + i + " = " + i, 1)));
            }
            assertEquals(BackendStatements.MAX, kept().size());
        }
    }
}
