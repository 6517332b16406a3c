package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * COMMIT / ROLLBACK AND CHAIN and RELEASE and completion_type through the engine, against the same
 * statements on one unsharded MariaDB: a second session's commits between reads show which isolation
 * level a chained transaction runs at, a write in it which access mode; {@code @@in_transaction} (read on
 * the transaction's backend) shows whether one is open.
 */
class ChainedTransactionTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("chain");

    private static final String READ = "SELECT name FROM users WHERE user_id = 1";
    private static final String WRITE = "UPDATE users SET email = email WHERE user_id = 2";

    /** Steps of session A, and {@code B:} steps of a second session in autocommit mode (a commit A may or may not see). */
    private static final List<String> SCRIPT = List.of(
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "START TRANSACTION", READ, "COMMIT AND CHAIN",
            "SELECT @@in_transaction", READ, "B:UPDATE users SET name = CONCAT(name, 'a') WHERE user_id = 1", READ, "COMMIT",
            "SELECT @@in_transaction",
            // the session's level (REPEATABLE READ) chained by ROLLBACK AND CHAIN
            "BEGIN", READ, "B:UPDATE users SET name = CONCAT(name, 'b') WHERE user_id = 1", READ, "ROLLBACK AND CHAIN", READ,
            "B:UPDATE users SET name = CONCAT(name, 'c') WHERE user_id = 1", READ, "COMMIT",
            // the access mode chained
            "START TRANSACTION READ ONLY", READ, "COMMIT WORK AND CHAIN", WRITE, "ROLLBACK AND CHAIN NO RELEASE", WRITE, "COMMIT", WRITE,
            // a plain COMMIT / ROLLBACK drops a pending next-transaction level and mode
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "COMMIT", "BEGIN", READ,
            "B:UPDATE users SET name = CONCAT(name, 'd') WHERE user_id = 1", READ, "COMMIT",
            "SET TRANSACTION READ ONLY", "ROLLBACK", WRITE,
            // AND CHAIN outside a transaction begins one, at the pending level
            "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "COMMIT AND CHAIN", "SELECT @@in_transaction", READ,
            "B:UPDATE users SET name = CONCAT(name, 'e') WHERE user_id = 1", READ, "COMMIT",
            // a SET SESSION inside the transaction is not the chained one's level
            "BEGIN", READ, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED", "COMMIT AND CHAIN", READ,
            "B:UPDATE users SET name = CONCAT(name, 'f') WHERE user_id = 1", READ, "COMMIT",
            "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
            // savepoints end with the transaction
            "BEGIN", "SAVEPOINT s", "COMMIT AND CHAIN", "ROLLBACK TO s", "COMMIT",
            // completion_type CHAIN: plain COMMIT / ROLLBACK chain, AND NO CHAIN does not, implicit commits do not
            "SET completion_type = 'CHAIN'", "SELECT @@completion_type", "BEGIN", WRITE, "COMMIT", "SELECT @@in_transaction",
            "ROLLBACK", "SELECT @@in_transaction", "ROLLBACK AND NO CHAIN", "SELECT @@in_transaction",
            "BEGIN", WRITE, "CREATE TABLE chain_ddl (id INT)", "DROP TABLE chain_ddl",
            "BEGIN", WRITE, "SET autocommit = 1", "SELECT @@in_transaction",
            "SET autocommit = 0", WRITE, "COMMIT", "SELECT @@in_transaction", "SET autocommit = 1", "SELECT @@in_transaction",
            // its values as MariaDB reads them
            "SET completion_type = 0 + 2", "SELECT @@completion_type", "SET completion_type = DEFAULT", "SELECT @@completion_type",
            "SET @ct = 'chain'", "SET completion_type = @ct", "SELECT @@completion_type", "SET @@session.completion_type = NO_CHAIN",
            "SELECT @@completion_type", "SET completion_type = 3", "SET completion_type = '1'", "SET completion_type = 1.0",
            "SET completion_type = RELEASE", "SELECT @@completion_type",
            // the grammar
            "COMMIT AND CHAIN RELEASE", "COMMIT AND NO CHAIN NO RELEASE", "ROLLBACK WORK AND NO CHAIN", "COMMIT AND", "ROLLBACK NO",
            "COMMIT AND NO CHAIN RELEASE AND");

    @Test
    void chainedTransactionsRunAsOneMariaDbRunsThem() throws SQLException {
        List<String> expected = new ArrayList<>();
        try (Connection a = SAMPLE.server().connect(SAMPLE.whole()); Connection b = SAMPLE.server().connect(SAMPLE.whole())) {
            for (String step : SCRIPT) {
                expected.add(step + " -> " + (step.startsWith("B:") ? SampleEngine.answer(b, step.substring(2)) : SampleEngine.answer(a, step)));
            }
        }
        List<String> actual = new ArrayList<>();
        try (EngineSession a = SAMPLE.engine().openSession(); EngineSession b = SAMPLE.engine().openSession()) {
            for (String step : SCRIPT) {
                actual.add(step + " -> " + (step.startsWith("B:") ? SampleEngine.answer(b, step.substring(2)) : SampleEngine.answer(a, step)));
            }
        }
        for (int i = 0; i < SCRIPT.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "step " + i + " differs from one MariaDB's answer");
        }
    }

    /** RELEASE (written, or completion_type RELEASE) ends the session after the statement succeeded; NO RELEASE and a failed COMMIT do not. */
    @Test
    void releaseEndsTheSessionAfterItsStatement() {
        for (String release : List.of("COMMIT RELEASE", "ROLLBACK WORK RELEASE", "COMMIT AND NO CHAIN RELEASE")) {
            try (EngineSession s = SAMPLE.engine().openSession()) {
                s.execute("BEGIN");
                s.execute(WRITE);
                s.execute(release);
                assertTrue(s.released(), release);
                assertFalse(s.inTransaction(), release);
            }
        }
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("SET completion_type = 2");
            s.execute("BEGIN");
            s.execute("COMMIT NO RELEASE");
            assertFalse(s.released(), "NO RELEASE overrides completion_type");
            s.execute("COMMIT AND CHAIN NO RELEASE");
            assertTrue(s.inTransaction());
            s.execute("CREATE TABLE chain_release (id INT)");
            s.execute("DROP TABLE chain_release");
            assertFalse(s.released(), "an implicit commit releases nothing");
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("COMMIT AND CHAIN RELEASE"));
            assertEquals(1064, e.errno());
            assertFalse(s.released());
            s.execute("ROLLBACK");
            assertTrue(s.released(), "completion_type RELEASE");
        }
        try (EngineSession s = SAMPLE.engine().openSession()) {
            s.execute("SET completion_type = 'RELEASE'");
            s.reset(); // COM_RESET_CONNECTION: completion_type back to NO_CHAIN, and its own ROLLBACK releases nothing
            assertFalse(s.released());
            s.execute("BEGIN");
            s.execute("COMMIT");
            assertFalse(s.released());
        }
    }
}
