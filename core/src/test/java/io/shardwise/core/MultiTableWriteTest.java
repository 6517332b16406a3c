package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Multi-table UPDATE and DELETE ({@code UPDATE a JOIN b … SET}, {@code UPDATE a, b SET}, {@code DELETE a, b FROM
 * …}, {@code DELETE FROM a USING …}) on real backends: each runs through the engine and on the unsharded copy,
 * and both must report the same affected rows, info string (or error) and leave the same tables. Co-located
 * joins run per node (no third-tier statement counted); the others write their one target on the third tier.
 */
class MultiTableWriteTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("multiwrite");
    private static Engine engine;

    @BeforeAll
    static void load() {
        engine = SAMPLE.engine();
    }

    /** Runs the write both ways; same outcome, same tables after (each "table key" ordered by key). Returns the outcome. */
    private static String same(String write, String... tablesAndKeys) throws SQLException {
        String expected = SAMPLE.directWrite(write);
        String actual;
        try (EngineSession s = engine.openSession()) {
            actual = SampleEngine.engineWrite(s, write);
            assertEquals(expected, actual, write);
            for (String tableAndKey : tablesAndKeys) {
                String[] p = tableAndKey.split(" ");
                String read = "SELECT * FROM " + p[0] + " ORDER BY " + p[1];
                sameRows(SAMPLE.direct(read), SampleEngine.rows(s, read), "the table " + p[0] + " after " + write);
            }
        }
        return actual;
    }

    /** Equal lists; a difference is shown by its first rows, not the whole table. */
    private static void sameRows(List<String> expected, List<String> actual, String what) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        assertEquals(List.of(), missing.subList(0, Math.min(3, missing.size())), what + ": rows missing (" + missing.size()
                + "), extra: " + extra.subList(0, Math.min(3, extra.size())));
        assertEquals(expected, actual, what);
    }

    private static long affected(String outcome) {
        assertTrue(outcome.startsWith("affected "), outcome);
        return Long.parseLong(outcome.substring("affected ".length()));
    }

    /** The engine's info string of {@code write}, also made on the unsharded copy (the tables stay equal). */
    private static String info(String write) {
        SAMPLE.directWrite(write);
        try (EngineSession s = engine.openSession()) {
            return assertInstanceOf(StatementResult.Update.class, s.execute(write)).info();
        }
    }

    @Test
    void aJoinOfBoundTablesOnTheirKeysRunsOnEachNodeAsWritten() throws SQLException {
        long before = engine.federatedStatements();
        assertTrue(affected(same("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " SET o.amount = o.amount + i.quantity WHERE i.quantity > 2", "orders order_id")) > 0);
        assertTrue(affected(same("UPDATE users u, orders o SET u.name = CONCAT(u.name, '*') WHERE u.user_id = o.user_id AND o.amount > 300",
                "users user_id")) > 0, "the comma form; a user of several orders changed and counted once");
        assertTrue(affected(same("UPDATE users u JOIN orders o USING (user_id) SET u.email = o.status, o.status = 'seen'"
                + " WHERE o.amount < 100", "users user_id", "orders order_id")) > 0, "two targets, co-located");
        assertTrue(affected(same("UPDATE users u JOIN countries c ON u.country_code = c.code SET u.email = c.name WHERE c.code IN ('DE', 'FR')",
                "users user_id")) > 0, "a broadcast table read in place");
        assertTrue(affected(same("UPDATE orders a JOIN orders b ON a.user_id = b.user_id AND a.order_id < b.order_id SET a.status = 'older'",
                "orders order_id")) > 0, "a self-join on the key");
        same("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.amount = 1 WHERE o.user_id = 3", "orders order_id");
        assertEquals(before, engine.federatedStatements(), "no third-tier statement");
    }

    @Test
    void deletesOfOneOrSeveralCoLocatedTargets() throws SQLException {
        long before = engine.federatedStatements();
        assertTrue(affected(same("DELETE i FROM order_items i JOIN orders o ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " WHERE o.status = 'cancelled'", "order_items item_id")) > 0);
        assertTrue(affected(same("DELETE o, i FROM orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id"
                + " WHERE o.amount > 450", "orders order_id", "order_items item_id")) > 0, "the affected rows of both tables");
        same("DELETE FROM order_items USING order_items JOIN orders ON orders.user_id = order_items.user_id"
                + " AND orders.order_id = order_items.order_id WHERE orders.amount < 20", "order_items item_id");
        same("DELETE u FROM users u LEFT JOIN orders o ON o.user_id = u.user_id WHERE o.order_id IS NULL", "users user_id");
        assertEquals(before, engine.federatedStatements(), "no third-tier statement");
    }

    @Test
    void joinsThatDoNotMeetOnOneNodeWriteTheirOneTargetOnTheThirdTier() throws SQLException {
        long before = engine.federatedStatements();
        assertTrue(affected(same("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.k = s.k + 1",
                "sbtest1 id")) > 0, "a row met by several items changed once");
        assertTrue(affected(same("UPDATE order_items i JOIN sbtest1 s ON s.id = i.quantity SET i.price = i.price + s.id WHERE i.user_id > 0",
                "order_items item_id")) > 0);
        same("UPDATE users u LEFT JOIN order_items i ON i.quantity = u.user_id SET u.email = 'none' WHERE i.item_id IS NULL",
                "users user_id");
        same("UPDATE promotions p JOIN order_items i ON i.quantity = p.id SET p.discount = p.discount + 1", "promotions id");
        same("UPDATE countries c JOIN users u ON u.country_code = c.code SET c.name = CONCAT(c.name, '+') WHERE u.user_id < 50",
                "countries code");
        assertTrue(affected(same("DELETE s FROM sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE i.price > 150", "sbtest1 id")) > 0);
        assertTrue(engine.federatedStatements() >= before + 6, "the third tier wrote them");
    }

    @Test
    void insideATransactionBothTiersWriteInItAndRollBackWithIt() throws SQLException {
        String read = "SELECT * FROM orders ORDER BY order_id";
        try (EngineSession s = engine.openSession()) {
            List<String> before = SampleEngine.rows(s, read);
            s.execute("BEGIN");
            assertTrue(affected(SampleEngine.engineWrite(s, "UPDATE orders o JOIN users u USING (user_id) SET o.status = 'tx1' WHERE u.user_id < 30")) > 0);
            assertTrue(affected(SampleEngine.engineWrite(s, "UPDATE orders o JOIN sbtest1 s ON s.id = o.user_id SET o.status = 'tx2'")) > 0);
            assertTrue(SampleEngine.rows(s, "SELECT order_id FROM orders WHERE status IN ('tx1', 'tx2')").size() > 0, "the transaction sees its writes");
            s.execute("ROLLBACK");
            assertEquals(before, SampleEngine.rows(s, read));
            sameRows(SAMPLE.direct(read), SampleEngine.rows(s, read), "orders after the rollback");
        }
    }

    @Test
    void theInfoStringIsOneMysqls() {
        String write = "UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id SET o.status = 'x'"
                + " WHERE i.quantity = 1";
        String first = info(write);
        assertTrue(first.matches("Rows matched: [1-9]\\d*  Changed: [1-9]\\d*  Warnings: 0"), first);
        String again = info(write);
        assertEquals(first.replaceFirst("Changed: \\d+", "Changed: 0"), again, "matched again, changed none");
        String federated = "UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.pad = 'x'";
        info(federated);
        assertTrue(info(federated).matches("Rows matched: [1-9]\\d*  Changed: 0  Warnings: 0"), info(federated));
    }

    @Test
    void orderByAndLimitAreTheBackendsOnOneNodeAndRefusedAcrossSeveral() throws SQLException {
        // MariaDB 11.4 applies them to a multi-table UPDATE's join rows (LIMIT counting join rows, each target row written once
        // from the first join row meeting it); MySQL refuses them there (1221)
        same("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id AND o.order_id = i.order_id SET o.amount = 2"
                + " WHERE o.user_id = 3 ORDER BY o.order_id LIMIT 1", "orders order_id");
        // the target's rows on one node, the other table copied whole from every node: MariaDB sorts the complete join there
        same("UPDATE orders o JOIN users u ON u.user_id <> o.user_id AND u.user_id < 5 SET o.amount = o.amount + u.user_id"
                + " WHERE o.user_id = 3 ORDER BY o.order_id DESC, u.user_id DESC LIMIT 3", "orders order_id");
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.amount = 2 ORDER BY o.order_id LIMIT 1"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            assertTrue(e.getMessage().contains("LIMIT counting join rows"), e.getMessage());
        }
    }

    /**
     * Why ORDER BY / LIMIT of a multi-table UPDATE stay refused across nodes: on one MariaDB 11.4 (the unsharded copy, in a
     * transaction rolled back) a plan sorting the join through a temporary table writes rows that are not among the join rows
     * the same ORDER BY / LIMIT chooses (MDEV-35955), so a choice made across nodes would not be its result. When this fails,
     * the backend writes the chosen join rows' targets: see commit 808ba30 (reverted), which chose them across nodes.
     */
    @Test
    void mariadbsOwnMultiTableUpdateWithOrderByAndLimitWritesRowsOutsideItsChosenJoinRows() throws SQLException {
        String join = " FROM orders o JOIN order_items i ON o.order_id = i.order_id ORDER BY i.item_id, o.order_id LIMIT 7";
        try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.whole()); java.sql.Statement st = c.createStatement()) {
            c.setAutoCommit(false);
            try {
                java.util.Set<Long> chosen = longs(st, "SELECT DISTINCT j.order_id FROM (SELECT o.order_id" + join + ") j");
                st.executeUpdate("UPDATE orders o JOIN order_items i ON o.order_id = i.order_id SET o.status = 'mdev35955'"
                        + join.substring(join.indexOf(" ORDER BY")));
                java.util.Set<Long> written = longs(st, "SELECT order_id FROM orders WHERE status = 'mdev35955'");
                assertTrue(!written.equals(chosen), "MariaDB wrote the targets of its chosen join rows " + chosen
                        + ": a multi-table UPDATE's ORDER BY / LIMIT may now be chosen across nodes (commit 808ba30)");
            } finally {
                c.rollback();
            }
        }
    }

    private static java.util.Set<Long> longs(java.sql.Statement st, String query) throws SQLException {
        java.util.Set<Long> out = new java.util.TreeSet<>();
        try (java.sql.ResultSet rs = st.executeQuery(query)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    @Test
    void orderByAndLimitAfterAMultiTableDeleteAreMariadbsSyntaxError() throws SQLException {
        // on one node (the backend's own error) and across several alike: MariaDB's grammar has neither after a multi-table DELETE
        for (String delete : List.of("DELETE o FROM orders o JOIN order_items i ON o.user_id = i.user_id WHERE o.user_id = 3 LIMIT 1",
                "DELETE o FROM orders o JOIN order_items i ON o.user_id = i.user_id LIMIT 1",
                "DELETE FROM o USING orders o JOIN order_items i ON o.order_id = i.order_id ORDER BY o.order_id LIMIT 2",
                "DELETE o, i FROM orders o, order_items i WHERE o.order_id = i.order_id ORDER BY o.order_id")) {
            assertEquals("error 1064", same(delete, "orders order_id"), delete);
        }
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("DELETE o FROM orders o JOIN order_items i ON o.user_id = i.user_id\nLIMIT 1"));
            assertEquals("You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the"
                    + " right syntax to use near 'LIMIT 1' at line 2", e.getMessage());
        }
    }

    @Test
    void severalTargetsThatDoNotMeetOnOneNodeAreEachWrittenWithTheirJoinRowsReadFirst() throws SQLException {
        // rows of its own, so that the other tests' joins keep theirs
        same("INSERT INTO sbtest1 (id, k, c, pad) VALUES (90001, 1, 'a', 'a'), (90002, 2, 'b', 'b'), (90003, 3, 'c', 'c')", "sbtest1 id");
        same("INSERT INTO order_items (item_id, order_id, user_id, sku, quantity, price) VALUES (90001, 1, 1, 'x', 90001, 1),"
                + " (90002, 1, 2, 'y', 90001, 2), (90003, 2, 3, 'z', 90002, 3), (90004, 2, 4, 'w', 90003, 4)", "order_items item_id");
        assertEquals("affected 5", same("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.pad = 'both', i.price = i.price + 1"
                + " WHERE s.id > 90000 AND i.sku <> 'w'", "sbtest1 id", "order_items item_id"), "rows of both tables changed and counted once");
        String both = "UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.pad = 'info', i.sku = CONCAT(i.sku, s.k) WHERE s.id > 90000";
        assertEquals("Rows matched: 7  Changed: 7  Warnings: 0", info(both), "the info string sums the targets'");
        same(both, "sbtest1 id", "order_items item_id");
        // a DELETE chooses every target's rows before deleting any: deleting i first would leave s no rows to meet
        assertEquals("affected 3", same("DELETE s, i FROM sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE s.id > 90000 AND i.price < 4",
                "sbtest1 id", "order_items item_id"), "rows of both tables deleted and counted");
        same("DELETE FROM s, i USING sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE s.id > 90000", "sbtest1 id", "order_items item_id");
    }

    /**
     * A DELETE of several targets across nodes chooses its rows with a locking read, as MySQL's DELETE
     * locks the join rows it reads until the transaction ends: a row of a table it only read (users here)
     * cannot change under it, nor can a chosen row between its choice and its delete by key.
     */
    @Test
    void aDeleteOfSeveralTargetsLocksTheJoinRowsItChoseThemBy() throws SQLException {
        same("INSERT INTO sbtest1 (id, k, c, pad) VALUES (90031, 1, 'a', 'a'), (90032, 2, 'b', 'b')", "sbtest1 id");
        same("INSERT INTO order_items (item_id, order_id, user_id, sku, quantity, price) VALUES (90031, 1, 7, 'x', 90031, 1),"
                + " (90032, 2, 8, 'y', 90032, 2)", "order_items item_id");
        // one MariaDB first: its DELETE locks the users row it joined, a writer of that row waits (1205)
        try (java.sql.Connection deleter = SAMPLE.server().connect(SAMPLE.whole());
             java.sql.Connection writer = SAMPLE.server().connect(SAMPLE.whole());
             java.sql.Statement d = deleter.createStatement(); java.sql.Statement w = writer.createStatement()) {
            w.execute("SET SESSION innodb_lock_wait_timeout = 1");
            deleter.setAutoCommit(false);
            assertEquals(2, d.executeUpdate("DELETE s, i FROM sbtest1 s JOIN order_items i ON i.quantity = s.id"
                    + " JOIN users u ON u.user_id = i.user_id WHERE s.id > 90030 AND u.user_id = 7"));
            SQLException blocked = assertThrows(SQLException.class, () -> w.executeUpdate("UPDATE users SET name = name WHERE user_id = 7"));
            assertEquals(ErrorCode.LOCK_WAIT_TIMEOUT.errno(), blocked.getErrorCode());
            deleter.rollback();
        }
        try (EngineSession deleter = engine.openSession(); EngineSession writer = engine.openSession()) {
            writer.execute("SET SESSION innodb_lock_wait_timeout = 1");
            deleter.execute("BEGIN");
            StatementResult deleted = deleter.execute("DELETE s, i FROM sbtest1 s JOIN order_items i ON i.quantity = s.id"
                    + " JOIN users u ON u.user_id = i.user_id WHERE s.id > 90030 AND u.user_id = 7");
            assertEquals(2, ((StatementResult.Update) deleted).affectedRows());
            ShardwiseException blocked = assertThrows(ShardwiseException.class,
                    () -> writer.execute("UPDATE users SET name = name WHERE user_id = 7"), "a join row the DELETE read is locked");
            assertEquals(ErrorCode.LOCK_WAIT_TIMEOUT.errno(), blocked.errno());
            deleter.execute("ROLLBACK");
            assertInstanceOf(StatementResult.Update.class, writer.execute("UPDATE users SET name = name WHERE user_id = 7"));
        }
        same("DELETE FROM s, i USING sbtest1 s JOIN order_items i ON i.quantity = s.id WHERE s.id > 90030", "sbtest1 id",
                "order_items item_id");
    }

    @Test
    void aTargetJoinedWithItselfReadsItsOtherReferencesAsTheyWereBeforeTheWrite() throws SQLException {
        // a cycle: had the join seen rows the write already changed, 90013 would read 90011's new k
        same("INSERT INTO sbtest1 (id, k, c, pad) VALUES (90011, 90012, 'a', 'a'), (90012, 90013, 'b', 'b'), (90013, 90011, 'c', 'c')",
                "sbtest1 id");
        assertEquals("affected 3", same("UPDATE sbtest1 a JOIN sbtest1 b ON b.id = a.k SET a.k = b.k, a.c = b.c WHERE a.id > 90010",
                "sbtest1 id"));
        // the target after its other references: each reference is told by where it stands, not by its order
        assertEquals("affected 3", same("UPDATE sbtest1 b JOIN sbtest1 a ON b.id = a.k SET a.pad = b.c, a.k = b.k WHERE a.id > 90010",
                "sbtest1 id"));
        assertEquals("affected 3", same("UPDATE sbtest1 b JOIN sbtest1 ON b.id = sbtest1.k SET sbtest1.c = b.pad, sbtest1.k = b.k"
                + " WHERE sbtest1.id > 90010", "sbtest1 id"));
        assertEquals("affected 3", same("UPDATE sbtest1 x, sbtest1 b JOIN sbtest1 a ON b.id = a.k SET b.pad = a.c WHERE b.id > 90010"
                + " AND x.id = a.id", "sbtest1 id"));
        assertEquals("affected 2", same("DELETE sbtest1 FROM sbtest1 b JOIN sbtest1 ON sbtest1.id = b.k WHERE b.id > 90010"
                + " AND sbtest1.id <> 90012", "sbtest1 id"));
        same("DELETE a FROM sbtest1 b JOIN sbtest1 a ON b.id = a.k OR a.id = 90012 WHERE a.id > 90010", "sbtest1 id");
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.pad = i.sku, i.sku = 'x'"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            // the nested refusal's reason is quoted once, whole (its "doesn't" once cut it to "t yet support '...")
            assertEquals(1, e.getMessage().split("yet support", -1).length - 1, e.getMessage());
        }
    }

    @Test
    void unqualifiedSetColumnsAreResolvedAmongTheTablesAsMySqlResolvesThem() throws SQLException {
        same("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET c = 'resolved', price = price + 2 WHERE sku LIKE 'S%' AND s.id < 3",
                "sbtest1 id", "order_items item_id");
        same("UPDATE users u JOIN orders o ON o.order_id = u.user_id SET name = 'one target' WHERE o.amount > 100", "users user_id");
        assertEquals("error 1052", same("UPDATE users u JOIN orders o ON o.order_id = u.user_id SET created_at = NOW()", "users user_id"));
        assertEquals("error 1054", same("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET nope = 1", "sbtest1 id"));
    }

    @Test
    void unqualifiedSetColumnsOverADerivedTableAreResolvedAmongItsColumnsToo() throws SQLException {
        // the derived table's columns are its select list's names (aliases, bare columns) or its own column list
        same("UPDATE users u JOIN (SELECT user_id AS uid, MAX(amount) AS top FROM orders GROUP BY user_id) d ON d.uid = u.user_id"
                + " SET name = CONCAT('top ', d.top) WHERE d.top > 100", "users user_id");
        same("UPDATE sbtest1 s JOIN (SELECT quantity, MAX(sku) AS sku FROM order_items WHERE price > 150 GROUP BY quantity) AS d"
                + " ON d.quantity = s.id SET pad = d.sku",
                "sbtest1 id");
        assertEquals("error 1052", same("UPDATE sbtest1 s JOIN (SELECT quantity, price AS pad FROM order_items) d ON d.quantity = s.id"
                + " SET pad = 'x'", "sbtest1 id"));
        assertEquals("error 1054", same("UPDATE sbtest1 s JOIN (SELECT quantity FROM order_items) d ON d.quantity = s.id SET nope = 1",
                "sbtest1 id"));
        try (EngineSession s = engine.openSession()) {
            // only the derived table has it: MySQL writes through a merged derived table and refuses a materialized one
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(
                    "UPDATE sbtest1 s JOIN (SELECT quantity, price FROM order_items) d ON d.quantity = s.id SET price = 1"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            assertTrue(e.getMessage().contains("is a derived table's"), e.getMessage());
        }
    }

    @Test
    void anUnqualifiedSetColumnIsResolvedOverADerivedTableThatTakesAParameter() throws SQLException {
        // the derived table's columns are read with the statement's values bound: its ? no longer refuses the write
        String template = "UPDATE sbtest1 s JOIN (SELECT quantity, MAX(sku) AS sku FROM order_items WHERE price > ? GROUP BY quantity) AS d"
                + " ON d.quantity = s.id SET pad = CONCAT(d.sku, ?) WHERE s.id < ?";
        for (Object[] values : new Object[][] {{150, "-p", 40}, {20, "-q", 30}}) {
            String literal = template.replaceFirst("\\?", values[0].toString()).replaceFirst("\\?", "'" + values[1] + "'")
                    .replaceFirst("\\?", values[2].toString());
            String expected = SAMPLE.directWrite(literal);
            try (EngineSession s = engine.openSession()) {
                StatementResult result = s.execute(template, List.of(values));
                assertEquals(expected, "affected " + ((StatementResult.Update) result).affectedRows(), literal);
                assertTrue(expected.matches("affected [1-9]\\d*"), expected);
                sameRows(SAMPLE.direct("SELECT * FROM sbtest1 ORDER BY id"), SampleEngine.rows(s, "SELECT * FROM sbtest1 ORDER BY id"), literal);
            }
        }
        // the same shape whose derived table names the column too: MySQL's 1052, with the values bound
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("UPDATE sbtest1 s JOIN (SELECT quantity,"
                    + " price AS pad FROM order_items WHERE price > ?) d ON d.quantity = s.id SET pad = 'x'", List.of(10)));
            assertEquals(ErrorCode.AMBIGUOUS_FIELD, e.code());
        }
    }

    @Test
    void aBroadcastTargetJoinedWithSingleTablesIsWrittenOnEveryCopyAsOneMysqlWritesIt() throws SQLException {
        assertEquals("affected 20", same("UPDATE countries c JOIN promotions p ON p.id = 3 SET c.name = CONCAT(c.name, '/', p.code)",
                "countries code"));
        same("UPDATE countries c, promotions p SET c.name = LEFT(c.name, 3) WHERE p.discount > 20 AND LENGTH(c.name) > p.id",
                "countries code");
        assertEquals("affected 0", same("UPDATE countries c JOIN promotions p ON p.code = c.code SET c.name = 'none'", "countries code"));
        same("UPDATE countries c JOIN promotions p ON p.id = 4 SET c.name = CONCAT(c.name, '+'), p.discount = p.discount + 1"
                + " WHERE c.code < 'D'", "countries code", "promotions id");
        assertEquals("affected 2", same("DELETE c FROM countries c JOIN promotions p ON p.id = 7 WHERE c.code IN ('MX', 'PL')",
                "countries code"));
        for (String backend : new String[] {"0", "1"}) {
            // every copy holds what one MySQL holds
            try (java.sql.Connection c = SAMPLE.server().connect(SAMPLE.target().databasePrefix() + "_" + backend);
                 java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery("SELECT * FROM countries ORDER BY code")) {
                List<String> copy = SampleEngine.labelledRows(rs);
                sameRows(SAMPLE.direct("SELECT * FROM countries ORDER BY code"), copy.subList(1, copy.size()), "the copy on backend " + backend);
            }
        }
    }

    /** The rows of {@code table} whose sharding key is each of {@code keys}, read by point routes: a row left on a wrong node is missed. */
    private static void foundWhereTheirKeysRoute(String table, String keyColumn, long... keys) throws SQLException {
        try (EngineSession s = engine.openSession()) {
            for (long k : keys) {
                String read = "SELECT * FROM " + table + " WHERE " + keyColumn + " = " + k + " ORDER BY 1";
                sameRows(SAMPLE.direct(read), SampleEngine.rows(s, read), read);
            }
        }
    }

    @Test
    void aMultiTableUpdateOfAShardingColumnMovesTheRowsToTheirNewNodes() throws SQLException {
        long before = engine.federatedStatements();
        // co-located: written in place on each node, then the rows whose new key routes elsewhere moved
        String colocated = same("UPDATE orders o JOIN users u USING (user_id) SET o.user_id = o.user_id + 1, o.status = 'moved'"
                + " WHERE u.user_id IN (5, 6) AND o.amount > 100", "orders order_id");
        assertTrue(affected(colocated) > 0, colocated);
        foundWhereTheirKeysRoute("orders", "user_id", 5, 6, 7);
        assertEquals(before, engine.federatedStatements(), "no third-tier statement");
        // not co-located (a single table of one backend over several nodes): in place on the third tier, then moved
        String federated = same("UPDATE order_items i JOIN promotions p ON p.id = i.quantity SET i.user_id = i.user_id + p.id"
                + " WHERE i.item_id < 60", "order_items item_id");
        assertTrue(affected(federated) > 0, federated);
        assertTrue(engine.federatedStatements() > before, "the third tier wrote it");
        for (long k = 1; k <= 30; k++) {
            foundWhereTheirKeysRoute("order_items", "user_id", k);
        }
        // several targets, one of them moving: split per target; an unqualified key column resolved to its one table first
        same("UPDATE orders o JOIN sbtest1 s ON s.id = o.order_id - 100000 SET o.user_id = 9, s.pad = 'moved' WHERE s.id < 5",
                "orders order_id", "sbtest1 id");
        same("UPDATE order_items i JOIN promotions p ON p.id = i.quantity SET user_id = 11 WHERE i.item_id BETWEEN 60 AND 70 AND p.id < 4",
                "order_items item_id");
        foundWhereTheirKeysRoute("orders", "user_id", 9);
        foundWhereTheirKeysRoute("order_items", "user_id", 11);
        // a row matched by several join rows is changed, counted and moved once; counts are MySQL's matched rows
        String repeated = same("UPDATE orders o JOIN order_items i ON i.quantity = o.user_id SET o.user_id = 13 WHERE o.user_id IN (2, 3)",
                "orders order_id");
        assertTrue(affected(repeated) > 0, repeated);
        foundWhereTheirKeysRoute("orders", "user_id", 2, 3, 13);
    }

    @Test
    void targetsReadingAColumnAnotherTargetAssignsAreRefusedNamingIt() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("UPDATE sbtest1 s JOIN order_items i ON i.quantity = s.id SET s.k = i.price, i.price = 0"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            assertTrue(e.getMessage().contains("reads column 'price'"), e.getMessage());
            // a new primary key that differs between the join rows meeting one target row: MySQL's is the first join row's
            e = assertThrows(ShardwiseException.class, () -> s.execute("UPDATE users u JOIN orders o USING (user_id)"
                    + " SET u.user_id = o.order_id + 7000000 WHERE u.user_id BETWEEN 1 AND 20"));
            assertEquals(ErrorCode.UNSUPPORTED, e.code());
            assertTrue(e.getMessage().contains("new primary key differs between the join rows"), e.getMessage());
        }
    }

    @Test
    void aMultiTableUpdateOfAShardingColumnThatIsThePrimaryKeyFindsTheRowsByTheirNewKeys() throws SQLException {
        // each user met once per order, each time with the same new key: changed, counted and moved once
        String moved = same("UPDATE users u JOIN orders o USING (user_id) SET u.user_id = u.user_id + 6000, u.name = 'mt'"
                + " WHERE o.amount > 900", "users user_id");
        assertTrue(affected(moved) > 0, moved);
        foundWhereTheirKeysRoute("users", "user_id", 6001, 6002, 6003, 6004, 6005, 6006, 6007, 6008, 6009, 6010);
        // not co-located (a single table of one backend): in place on the third tier, then found by the new keys
        same("UPDATE users u JOIN promotions p ON p.id = u.user_id SET u.user_id = u.user_id + 8000 WHERE p.id < 6", "users user_id");
        foundWhereTheirKeysRoute("users", "user_id", 8001, 8002, 8003, 8004, 8005);
        // two users taking one key: MySQL's duplicate (1062), nothing changed
        assertEquals("error 1062", same("UPDATE users u JOIN orders o USING (user_id) SET u.user_id = 5", "users user_id"));
        // a swap of keys on two nodes: a duplicate in any order MySQL may take, though neither node alone meets one
        same("UPDATE users u JOIN orders o USING (user_id) SET u.user_id = IF(u.user_id = 30, 31, 30) WHERE u.user_id IN (30, 31)",
                "users user_id");
    }
}
