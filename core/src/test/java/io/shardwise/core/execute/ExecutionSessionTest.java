package io.shardwise.core.execute;

import static io.shardwise.core.execute.Shards.rows;
import static io.shardwise.core.execute.Shards.single;
import static io.shardwise.core.execute.Shards.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.BackendException;
import io.shardwise.core.route.ExecutionUnit;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class ExecutionSessionTest {
    private static Shards shards;

    @BeforeAll
    static void createBackends() {
        shards = new Shards(2, Shards.SMALL_POOL);
        for (int i = 0; i < 2; i++) {
            shards.sql(i, "CREATE TABLE orders_" + i + " (id BIGINT AUTO_INCREMENT PRIMARY KEY, user_id INT NOT NULL,"
                    + " note VARCHAR(20) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin, amount DECIMAL(10,2))",
                    "INSERT INTO orders_" + i + " (user_id, note, amount) VALUES (" + i + ", 'n" + i + "', 1.5)");
        }
    }

    @AfterAll
    static void dropBackends() {
        shards.close();
    }

    @AfterEach
    void noConnectionIsLeftCheckedOut() {
        assertEquals(0, shards.pools.activeConnections());
    }

    static ExecutionUnit unit(String backend, String sql, Object... params) {
        return new ExecutionUnit(backend, sql, Arrays.asList(params), Map.of());
    }

    @Test
    void backendConnectionsSkipPerStatementDriverWork() throws Exception {
        Lease lease = shards.pools.borrow("ds0", true);
        try {
            com.mysql.cj.conf.PropertySet props = lease.physical().getPropertySet();
            assertEquals(false, props.getBooleanProperty(com.mysql.cj.conf.PropertyKey.maintainTimeStats).getValue());
            assertEquals(true, props.getBooleanProperty(com.mysql.cj.conf.PropertyKey.cachePrepStmts).getValue());
            assertEquals(false, props.getBooleanProperty(com.mysql.cj.conf.PropertyKey.useServerPrepStmts).getValue(),
                    "rows stay in the text protocol");
        } finally {
            lease.release();
        }
    }

    @Test
    void unitsOnTwoBackendsRunInParallel() {
        try (ExecutionSession s = shards.session()) {
            List<UnitResult> r = s.execute(List.of(unit("ds0", OVERLAP), unit("ds1", OVERLAP)));
            assertOverlap(rows(r.get(0)).getFirst(), rows(r.get(1)).getFirst());
        }
    }

    @Test
    void unitsOnOneBackendOutsideATransactionEachGetAConnectionAndRunInParallel() {
        try (ExecutionSession s = shards.session()) {
            List<UnitResult> r = s.execute(List.of(unit("ds0", OVERLAP + ", CONNECTION_ID()"), unit("ds0", OVERLAP + ", CONNECTION_ID()")));
            List<String> a = rows(r.get(0)).getFirst();
            List<String> b = rows(r.get(1)).getFirst();
            assertOverlap(a, b);
            assertTrue(!a.get(2).equals(b.get(2)), "both units ran on connection " + a.get(2));
        }
    }

    /**
     * A unit's start (NOW(6): the statement's start) and end (SYSDATE(6), read after its SLEEP) on the backends' clock
     * (one machine): two units ran in parallel when each started before the other ended. Told by the backend's clock,
     * not by a wall-clock bound on the test's side, which a loaded CI machine stretches.
     */
    private static final String OVERLAP = "SELECT UNIX_TIMESTAMP(NOW(6)) + SLEEP(1), UNIX_TIMESTAMP(SYSDATE(6))";

    private static void assertOverlap(List<String> a, List<String> b) {
        java.math.BigDecimal aStart = new java.math.BigDecimal(a.get(0)), aEnd = new java.math.BigDecimal(a.get(1));
        java.math.BigDecimal bStart = new java.math.BigDecimal(b.get(0)), bEnd = new java.math.BigDecimal(b.get(1));
        assertTrue(aStart.compareTo(bEnd) < 0 && bStart.compareTo(aEnd) < 0,
                "the units ran one after the other: [" + aStart + ", " + aEnd + "] and [" + bStart + ", " + bEnd + "]");
    }

    @Test
    void resultsComeBackInUnitOrder() {
        try (ExecutionSession s = shards.session()) {
            List<UnitResult> r = s.execute(List.of(unit("ds1", "SELECT note FROM orders_1"), unit("ds0", "SELECT note FROM orders_0"),
                    unit("ds1", "SELECT 'third'")));
            assertEquals(List.of("n1", "n0", "third"), r.stream().map(Shards::single).toList());
        }
    }

    @Test
    void columnsReportLogicalTablesAndSchemaWithTheBackendsTypesAndFlags() {
        try (ExecutionSession s = shards.session()) {
            ExecutionUnit u = new ExecutionUnit("ds0", "SELECT orders_0.id, orders_0.note AS n, orders_0.amount, o.user_id, 1 + 1 FROM orders_0 o JOIN orders_0 ON 1 = 0",
                    List.of(), Map.of("orders_0", "orders"));
            try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(u)).getFirst()).cursor()) {
                List<Column> cols = c.columns();
                Column id = cols.get(0);
                // length not pinned: MariaDB sends 20 for a signed BIGINT to its CLI but 19 to Connector/J
                assertEquals(new Column("shop", "orders", "orders", "id", "id", 63, id.length(), 8, id.flags(), 0), id);
                assertTrue(id.isNotNull() && (id.flags() & 2) != 0, "NOT_NULL and PRI_KEY flags: " + id.flags());
                Column note = cols.get(1);
                assertEquals("n", note.name());
                assertEquals("note", note.orgName());
                assertEquals(253, note.mysqlType()); // VAR_STRING
                assertTrue(!note.hasBinaryCollation(), "a text column: " + note.collation());
                Column amount = cols.get(2);
                assertEquals(246, amount.mysqlType()); // NEWDECIMAL
                assertEquals(2, amount.decimals());
                Column aliased = cols.get(3);
                assertEquals("o", aliased.table(), "an alias is what the client wrote");
                assertEquals("orders", aliased.orgTable());
                Column expr = cols.get(4);
                assertEquals("", expr.schema());
                assertEquals("", expr.table());
                assertTrue(!c.next());
            }
        }
    }

    @Test
    void valuesAreTheBackendsTextBytes() {
        try (ExecutionSession s = shards.session()) {
            try (ResultCursor c = ((UnitResult.Rows) s.execute(List.of(unit("ds0",
                    "SELECT CAST(1.5 AS DECIMAL(5,3)), NULL, DATE '2025-01-02', 0x00FF, CAST('2025-01-02 03:04:05.6' AS DATETIME(1))")))
                    .getFirst()).cursor()) {
                assertTrue(c.next());
                assertEquals("1.500", new String(c.get(0), StandardCharsets.US_ASCII));
                assertNull(c.get(1));
                assertEquals("2025-01-02", new String(c.get(2), StandardCharsets.US_ASCII));
                assertArrayEquals(new byte[] {0, (byte) 0xFF}, c.get(3));
                assertEquals("2025-01-02 03:04:05.6", new String(c.get(4), StandardCharsets.US_ASCII));
                assertTrue(!c.next());
            }
        }
    }

    @Test
    void parametersBindNullUnsignedBigIntegersBytesAndDates() {
        shards.sql(1, "CREATE TABLE params (id INT PRIMARY KEY, u BIGINT UNSIGNED, b VARBINARY(4), d DATE, m DECIMAL(6,2), s VARCHAR(10))");
        try (ExecutionSession s = shards.session()) {
            UnitResult.Update inserted = update(s.execute(List.of(unit("ds1", "INSERT INTO params VALUES (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)",
                    1, new BigInteger("18446744073709551615"), new byte[] {1, 0, (byte) 0xFE}, LocalDate.of(2025, 1, 2),
                    new BigDecimal("-12.50"), "it's",
                    2L, null, null, null, null, null))).getFirst());
            assertEquals(2, inserted.affectedRows());
            List<List<String>> rows = rows(s.execute(List.of(unit("ds1",
                    "SELECT id, u, HEX(b), d, m, s FROM params WHERE id IN (?, ?) ORDER BY id", 1, 2L))).getFirst());
            assertEquals(List.of("1", "18446744073709551615", "0100FE", "2025-01-02", "-12.50", "it's"), rows.get(0));
            assertEquals(Arrays.asList("2", null, null, null, null, null), rows.get(1));
        }
    }

    @Test
    void insertReportsAffectedRowsAndTheGeneratedId() {
        try (ExecutionSession s = shards.session()) {
            UnitResult.Update u = update(s.execute(List.of(unit("ds0", "INSERT INTO orders_0 (user_id, note) VALUES (7, 'x'), (7, 'y')"))).getFirst());
            assertEquals(2, u.affectedRows());
            long first = Long.parseLong(shards.query(0, "SELECT MIN(id) FROM orders_0 WHERE user_id = 7"));
            assertEquals(first, u.lastInsertId(), "LAST_INSERT_ID() is the first id of a multi-row insert");
            assertEquals(0, u.warnings());
            UnitResult.Update deleted = update(s.execute(List.of(unit("ds0", "DELETE FROM orders_0 WHERE user_id = 7"))).getFirst());
            assertEquals(new UnitResult.Update(2, 0, 0), deleted);
        }
    }

    @Test
    void updateReportsTheWarningCount() {
        shards.sql(0, "CREATE TABLE tiny (a TINYINT)");
        try (ExecutionSession s = shards.session()) {
            s.state().setSqlMode("");
            UnitResult.Update u = update(s.execute(List.of(unit("ds0", "INSERT INTO tiny VALUES (1000), (2000), (3)"))).getFirst());
            assertEquals(3, u.affectedRows());
            assertEquals(2, u.warnings());
        }
    }

    @Test
    void backendErrorsKeepTheirErrnoAndSqlStateAndNameTheBackend() {
        try (ExecutionSession s = shards.session()) {
            BackendException missing = assertThrows(BackendException.class,
                    () -> s.execute(List.of(unit("ds1", "SELECT * FROM no_such_table"))));
            assertEquals(1146, missing.errno());
            assertEquals("42S02", missing.sqlState());
            assertEquals("ds1", missing.backend());
            assertTrue(missing.getMessage().contains("no_such_table") && missing.getMessage().contains("ds1"), missing.getMessage());

            long id = Long.parseLong(shards.query(0, "SELECT MIN(id) FROM orders_0"));
            BackendException duplicate = assertThrows(BackendException.class,
                    () -> s.execute(List.of(unit("ds0", "INSERT INTO orders_0 (id, user_id) VALUES (?, 1)", id))));
            assertEquals(1062, duplicate.errno());
            assertEquals("23000", duplicate.sqlState());
        }
    }

    @Test
    void theFirstFailingUnitFailsTheStatementAndCancelsItsSiblings() {
        try (ExecutionSession s = shards.session()) {
            long t0 = System.nanoTime();
            BackendException e = assertThrows(BackendException.class, () -> s.execute(List.of(
                    unit("ds0", "SELECT SLEEP(20) FROM (SELECT 1 UNION ALL SELECT 2) x"),
                    unit("ds1", "SELECT SLEEP(0.3) FROM no_such_table"))));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(1146, e.errno());
            // uncancelled, the sibling sleeps 40 s (two rows of SLEEP(20)); half of it is a bound no load reaches
            assertTrue(ms < 20_000, "the sleeping sibling was not cancelled: " + ms + " ms");
            assertEquals("n0", single(s.execute(List.of(unit("ds0", "SELECT note FROM orders_0 ORDER BY id LIMIT 1"))).getFirst()));
        }
    }

    @Test
    void clientFoundRowsCountsMatchedRowsAndItsAbsenceChangedRows() {
        shards.sql(0, "CREATE TABLE counted (id INT PRIMARY KEY, v INT)", "INSERT INTO counted VALUES (1, 5)");
        try (ExecutionSession found = shards.session(true); ExecutionSession changed = shards.session(false)) {
            String same = "UPDATE counted SET v = 5 WHERE id = 1";
            assertEquals(1, update(found.execute(List.of(unit("ds0", same))).getFirst()).affectedRows());
            assertEquals(0, update(changed.execute(List.of(unit("ds0", same))).getFirst()).affectedRows());

            String upsert = "INSERT INTO counted VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)";
            assertEquals(1, update(changed.execute(List.of(unit("ds0", upsert, 2, 1))).getFirst()).affectedRows(), "inserted");
            assertEquals(2, update(changed.execute(List.of(unit("ds0", upsert, 2, 9))).getFirst()).affectedRows(), "updated");
            assertEquals(0, update(changed.execute(List.of(unit("ds0", upsert, 2, 9))).getFirst()).affectedRows(), "unchanged");
            assertEquals(1, update(found.execute(List.of(unit("ds0", upsert, 2, 9))).getFirst()).affectedRows(),
                    "unchanged, counted as matched");
        }
    }
}
