package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Account statements naming {@code 'user'@'host'} (GRANT, REVOKE, RENAME / DROP USER, SET PASSWORD FOR, SET DEFAULT
 * ROLE FOR) reach the backend as written, as CREATE USER does: {@code @'host'} is no user variable. Each step's answer
 * through the engine is one MariaDB's (OK, 1396 for an unknown account, 1133 for a GRANT to one). The script runs
 * twice on one server (accounts are the server's), so it ends with no account of its own left.
 */
class AccountStatementsTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("acctstmt");

    private static final String USER = "acct_u_" + ProcessHandle.current().pid();
    private static final String ROLE = "acct_r_" + ProcessHandle.current().pid();

    static final List<String> SCRIPT = List.of(
            "CREATE USER '" + USER + "'@'localhost'",
            "GRANT SELECT ON *.* TO '" + USER + "'@'localhost'",
            "REVOKE SELECT ON *.* FROM '" + USER + "'@'localhost'",
            "GRANT SELECT, INSERT ON *.* TO " + USER + "@localhost",
            "REVOKE ALL PRIVILEGES, GRANT OPTION FROM `" + USER + "`@`localhost`",
            "SET PASSWORD FOR '" + USER + "'@'localhost' = PASSWORD('pw')",
            "SET PASSWORD FOR '" + USER + "'@'localhost' = ''",
            "CREATE ROLE " + ROLE,
            "GRANT " + ROLE + " TO '" + USER + "'@'localhost'",
            "SET DEFAULT ROLE " + ROLE + " FOR '" + USER + "'@'localhost'",
            "SET DEFAULT ROLE NONE FOR '" + USER + "'@'localhost'",
            "REVOKE " + ROLE + " FROM '" + USER + "'@'localhost'",
            "RENAME USER '" + USER + "'@'localhost' TO '" + USER + "'@'%'",
            "DROP USER '" + USER + "'@'localhost'",
            "GRANT SELECT ON *.* TO 'acct_nobody'@'nowhere'",
            "SET PASSWORD FOR 'acct_nobody'@'nowhere' = ''",
            "DROP USER '" + USER + "'@'%'",
            "DROP USER IF EXISTS '" + USER + "'@'%'",
            "DROP ROLE " + ROLE,
            "GRANT SELECT ON *.* TO '" + USER + "'@'%' garbage");

    @Test
    void accountStatementsAnswerAsOneMariaDb() throws SQLException {
        List<String> expected = new ArrayList<>();
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole())) {
            for (String step : SCRIPT) {
                expected.add(step + " -> " + SampleEngine.answer(c, step));
            }
        }
        List<String> actual = new ArrayList<>();
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String step : SCRIPT) {
                actual.add(step + " -> " + SampleEngine.answer(s, step));
            }
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    /** Whether SET PASSWORD FOR / SET DEFAULT ROLE FOR commit an open transaction is one MariaDB's answer too. */
    @Test
    void accountSetStatementsCommitOrNotAsOneMariaDb() throws SQLException {
        String read = "SELECT user_id, name FROM users WHERE user_id >= 9300 ORDER BY user_id";
        List<String> script = List.of("CREATE USER '" + USER + "'@'localhost'",
                "BEGIN", "INSERT INTO users (user_id, name) VALUES (9300, 'a')", "INSERT INTO users (user_id, name) VALUES (9302, 'b')",
                "SET PASSWORD FOR '" + USER + "'@'localhost' = PASSWORD('pw')", "SELECT @@in_transaction", "ROLLBACK", read,
                "BEGIN", "INSERT INTO users (user_id, name) VALUES (9304, 'c')", "INSERT INTO users (user_id, name) VALUES (9306, 'd')",
                "SET DEFAULT ROLE NONE FOR '" + USER + "'@'localhost'", "SELECT @@in_transaction", "ROLLBACK", read,
                "DELETE FROM users WHERE user_id >= 9300", "DROP USER '" + USER + "'@'localhost'");
        List<String> expected = new ArrayList<>();
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole())) {
            for (String step : script) {
                expected.add(step + " -> " + SampleEngine.answer(c, step));
            }
        }
        List<String> actual = new ArrayList<>();
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String step : script) {
                actual.add(step + " -> " + SampleEngine.answer(s, step));
            }
        }
        assertEquals(String.join("\n", expected), String.join("\n", actual));
    }

    @Test
    void showGrantsForAnotherAccountIsRefusedAsWithoutAccessNotAsASyntaxError() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            assertEquals("error 1044", SampleEngine.answer(s, "SHOW GRANTS FOR 'acct_nobody'@'nowhere'"));
            assertEquals("error 1044", SampleEngine.answer(s, "SHOW GRANTS FOR acct_nobody@nowhere"));
        }
    }

    @Test
    void setPasswordOrDefaultRoleWithoutForIsRefusedNotRunOnTheBackendAccount() {
        try (EngineSession s = SAMPLE.engine().openSession()) {
            assertEquals("error 1235", SampleEngine.answer(s, "SET PASSWORD = PASSWORD('x')"));
            assertEquals("error 1235", SampleEngine.answer(s, "SET DEFAULT ROLE NONE"));
        }
    }
}
