package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 items 5 and 6 in the engine: an empty column label no longer fails (nor leaves a
 * streaming result on the connection for the next statement), and read-only transactions refuse
 * writes with 1792 whichever way they were asked for, as MariaDB does.
 */
class SessionSafetyTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.sharded("safe");
    private static MysqlServer server;
    private static SampleTarget target;
    private static Engine engine;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        engine = SAMPLE.engine();
    }

    private static String first(EngineSession s, String sql, Object... params) {
        StatementResult r = s.execute(sql, List.of(params));
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, r).cursor()) {
            assertTrue(c.next(), sql);
            byte[] v = c.get(0);
            return c.columns().get(0).name() + "=" + (v == null ? "NULL" : new String(v, StandardCharsets.UTF_8));
        }
    }

    private static void refusedReadOnly(EngineSession s, String sql) {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(sql), sql);
        assertEquals(ErrorCode.READ_ONLY_TRANSACTION.errno(), e.errno(), sql);
        assertEquals("25006", e.sqlState(), sql);
    }

    /** A comment naming CHAIN or RELEASE is not them (ChainedTransactionTest has the forms themselves). */
    @Test
    void aCommentNamingChainOrReleaseIsAPlainEnd() {
        try (EngineSession s = engine.openSession()) {
            s.execute("BEGIN");
            first(s, "SELECT COUNT(*) FROM users");
            s.execute("COMMIT /* and chain */");
            assertTrue(!s.inTransaction(), "a COMMIT with a comment committed");
            s.execute("BEGIN");
            s.execute("ROLLBACK -- release\n");
            assertTrue(!s.inTransaction() && !s.released(), "a ROLLBACK with a comment rolled back");
            s.execute("BEGIN");
            s.execute("COMMIT AND NO CHAIN NO RELEASE");
            assertTrue(!s.inTransaction(), "the plain form committed");
            s.execute("BEGIN");
            s.execute("ROLLBACK WORK AND NO CHAIN");
            assertTrue(!s.inTransaction(), "the plain form rolled back");
        }
    }

    @Test
    void anEmptyColumnLabelIsAnEmptyNameAndTheSessionGoesOn() {
        for (boolean inTransaction : new boolean[] {false, true}) {
            try (EngineSession s = engine.openSession()) {
                if (inTransaction) {
                    s.execute("BEGIN");
                }
                assertEquals("=", first(s, "SELECT ''"));
                assertEquals("1=1", first(s, "SELECT 1"));
                assertEquals("=", first(s, "SELECT ?", ""));
                assertEquals("2=2", first(s, "SELECT 2"));
                assertEquals("=", first(s, "SELECT '' FROM orders WHERE user_id = 1 LIMIT 1"));
                assertEquals("3=3", first(s, "SELECT 3"));
                s.execute("ROLLBACK");
            }
        }
    }

    @Test
    void startTransactionReadOnlyRefusesWritesForThatTransactionOnly() {
        try (EngineSession s = engine.openSession()) {
            s.execute("START TRANSACTION READ ONLY, WITH CONSISTENT SNAPSHOT");
            assertEquals("@@transaction_read_only=0", first(s, "SELECT @@transaction_read_only"));
            refusedReadOnly(s, "INSERT INTO countries (code, name) VALUES ('zz', 'Zedland')");
            refusedReadOnly(s, "UPDATE orders SET status = 'x' WHERE user_id = 1");
            refusedReadOnly(s, "DELETE FROM orders");
            refusedReadOnly(s, "REPLACE INTO countries (code, name) VALUES ('zz', 'Zedland')");
            assertTrue(first(s, "SELECT COUNT(*) FROM orders").startsWith("COUNT(*)="));
            s.execute("COMMIT");
            s.execute("START TRANSACTION READ WRITE");
            s.execute("DELETE FROM countries WHERE code = 'zz'");
            s.execute("ROLLBACK");
            assertThrows(ShardwiseException.class, () -> s.execute("START TRANSACTION READ SIDEWAYS"));
        }
    }

    @Test
    void setTransactionWithoutScopeIsTheNextTransactionsOnly() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET TRANSACTION READ ONLY");
            assertEquals("@@transaction_read_only=0", first(s, "SELECT @@transaction_read_only"));
            refusedReadOnly(s, "DELETE FROM countries WHERE code = 'zz'");
            s.execute("DELETE FROM countries WHERE code = 'zz'");
            s.execute("SET TRANSACTION READ ONLY");
            s.execute("BEGIN");
            refusedReadOnly(s, "DELETE FROM countries WHERE code = 'zz'");
            s.execute("COMMIT");
            s.execute("BEGIN");
            s.execute("DELETE FROM countries WHERE code = 'zz'");
            s.execute("COMMIT");
        }
    }

    /** As MariaDB 11.4 answers (checked against a real one): the @@ form without a scope is the next transaction's. */
    @Test
    void unscopedAtAtTransactionVariablesAreTheNextTransactionsOnly() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET @@transaction_read_only = 1");
            assertEquals("@@transaction_read_only=0", first(s, "SELECT @@transaction_read_only"));
            s.execute("BEGIN");
            refusedReadOnly(s, "DELETE FROM countries WHERE code = 'zz'");
            s.execute("COMMIT");
            s.execute("SET @@tx_isolation = 'SERIALIZABLE'");
            assertEquals("@@transaction_isolation=REPEATABLE-READ", first(s, "SELECT @@transaction_isolation"));
            s.execute("SET transaction_isolation = 'READ-COMMITTED'"); // the plain name is the session's
            assertEquals("@@transaction_isolation=READ-COMMITTED", first(s, "SELECT @@transaction_isolation"));
            s.execute("SET @@session.transaction_isolation = DEFAULT");
            assertEquals("@@transaction_isolation=REPEATABLE-READ", first(s, "SELECT @@transaction_isolation"));
        }
    }

    @Test
    void transactionCharacteristicsWithoutScopeCannotChangeInsideATransaction() {
        try (EngineSession s = engine.openSession()) {
            s.execute("BEGIN");
            for (String set : List.of("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "SET TRANSACTION READ ONLY",
                    "SET @@transaction_isolation = 'READ-COMMITTED'", "SET @@tx_read_only = 1")) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(set), set);
                assertEquals(1568, e.errno(), set);
                assertEquals("25001", e.sqlState(), set);
            }
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"); // the session's may change
            assertEquals("@@transaction_isolation=READ-COMMITTED", first(s, "SELECT @@transaction_isolation"));
            s.execute("COMMIT");
            s.execute("SET TRANSACTION READ ONLY"); // and outside a transaction the next one's may too
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        }
    }

    @Test
    void anIsolationValueThatNamesNoLevelIsMySqls1231NamingTheVariable() {
        try (EngineSession s = engine.openSession()) {
            for (String name : List.of("tx_isolation", "@@transaction_isolation", "@@session.tx_isolation")) {
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("SET " + name + " = 'foo'"));
                assertEquals(1231, e.errno(), name);
                assertEquals("Variable '" + name.replaceFirst("^@@(session\\.)?", "") + "' can't be set to the value of 'foo'",
                        e.getMessage(), name);
            }
            ShardwiseException e = assertThrows(ShardwiseException.class,
                    () -> s.execute("SET TRANSACTION ISOLATION LEVEL SIDEWAYS"));
            assertEquals(1064, e.errno());
        }
    }

    @Test
    void theSessionCharacteristicRefusesWritesAndDdlUntilReset() {
        for (String on : List.of("SET SESSION TRANSACTION READ ONLY", "SET transaction_read_only = 1", "SET @@session.tx_read_only = ON")) {
            try (EngineSession s = engine.openSession()) {
                s.execute(on);
                assertEquals("@@transaction_read_only=1", first(s, "SELECT @@transaction_read_only"), on);
                assertTrue(s.readOnly(), on);
                refusedReadOnly(s, "INSERT INTO orders (user_id, status) VALUES (7, 'new')");
                refusedReadOnly(s, "CREATE TABLE safety_ro (a INT)");
                s.execute("BEGIN");
                refusedReadOnly(s, "UPDATE countries SET name = name");
                s.execute("ROLLBACK");
                s.execute("SET autocommit = 0");
                refusedReadOnly(s, "UPDATE countries SET name = name");
                s.execute("ROLLBACK");
                s.execute("SET autocommit = 1");
                assertTrue(first(s, "SELECT COUNT(*) FROM orders").startsWith("COUNT(*)="));
                s.execute("SET SESSION TRANSACTION READ WRITE");
                assertEquals("@@transaction_read_only=0", first(s, "SELECT @@transaction_read_only"), on);
                s.execute("DELETE FROM countries WHERE code = 'zz'");
                s.execute(on);
                s.reset();
                s.execute("DELETE FROM countries WHERE code = 'zz'");
            }
        }
    }

    @Test
    void aSetTheBackendRefusesFailsItselfAndNotEveryLaterStatement() {
        try (EngineSession s = engine.openSession()) {
            s.execute("SET @@session.max_sort_length = 2048");
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("SET @@session.no_such_variable = 1"));
            assertEquals(1193, e.errno());
            assertEquals("1=1", first(s, "SELECT 1"));
            assertEquals("@@max_sort_length=2048", first(s, "SELECT @@max_sort_length FROM countries LIMIT 1"));
            s.execute("BEGIN");
            assertThrows(ShardwiseException.class, () -> s.execute("SET wait_timeout = 'not a number'"));
            assertEquals("2=2", first(s, "SELECT 2 FROM orders LIMIT 1"));
            s.execute("COMMIT");
        }
    }

    @Test
    void aQuestionMarkInATextStatementIsMysqlsSyntaxErrorAndTheSessionGoesOn() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("SELECT id FROM orders\nWHERE user_id = ? LIMIT 1"));
            assertEquals(1064, e.errno());
            assertEquals("42000", e.sqlState());
            assertTrue(e.getMessage().endsWith("near '? LIMIT 1' at line 2"), e.getMessage());
            assertEquals("1=1", first(s, "SELECT 1"));
            assertEquals("?=?", first(s, "SELECT '?'"), "a ? inside a string is text");
        }
    }

    @Test
    void aBooleanVariableSetToAnythingElseIsMysqls1231NamingItAndTheSessionGoesOn() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("SET autocommit = 'sideways'"));
            assertEquals(1231, e.errno());
            assertEquals("42000", e.sqlState());
            assertEquals("Variable 'autocommit' can't be set to the value of 'sideways'", e.getMessage());
            assertEquals("@@autocommit=1", first(s, "SELECT @@autocommit"));
        }
    }

    /**
     * The protocol fuzz's last finding: names in SET that cannot be names got 1105 "[BUG]"; each now
     * gets the error MariaDB itself gives for the same bytes (1193, 1064, 1115, 1273).
     */
    @Test
    void setWithBytesThatAreNoNameAnswersAsTheBackendDoes() throws Exception {
        String[] statements = {"SET \u00ffx = 1", "SET @@\u00ffx = 1", "SET SESSION \u00e9 = 1", "SET `a b` = 1",
            "SET \u0001 = 1", "SET NAMES \u0001", "SET NAMES `a\u0000b`", "SET NAMES \u00ff\u00fe", "SET CHARACTER SET \u00ff",
            "SET NAMES utf8mb4 COLLATE \u00ff", "SET NAMES 'ab\u0001c'", "SET x$y = 1"};
        try (EngineSession s = engine.openSession();
             java.sql.Connection direct = java.sql.DriverManager.getConnection("jdbc:mysql://" + server.host() + ":" + server.port()
                     + "/?sslMode=DISABLED", server.user(), server.password())) {
            for (String sql : statements) {
                java.sql.SQLException expected = assertThrows(java.sql.SQLException.class, () -> direct.createStatement().execute(sql), sql);
                ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute(sql), sql);
                assertEquals(expected.getErrorCode() + " " + expected.getSQLState(), e.errno() + " " + e.sqlState(), sql + ": " + e.getMessage());
            }
            assertEquals("1=1", first(s, "SELECT 1"), "the session goes on");
        }
    }
}
