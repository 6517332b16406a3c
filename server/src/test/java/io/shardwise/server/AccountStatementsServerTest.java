package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Account statements over the wire, as a client sends them: {@code 'user'@'host'} reaches the backend as written
 * (no {@code @'host'} user variable), and each answer is one MariaDB's (OK or its errno). The script runs first on
 * the shared MariaDB directly, then through Shardwise (accounts are the server's), and leaves no account behind.
 */
class AccountStatementsServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("acctsrv");

    private static final String USER = "acct_s_" + ProcessHandle.current().pid();

    private static final List<String> SCRIPT = List.of(
            "CREATE USER '" + USER + "'@'localhost'",
            "GRANT SELECT ON *.* TO '" + USER + "'@'localhost'",
            "REVOKE SELECT ON *.* FROM " + USER + "@localhost",
            "SET PASSWORD FOR '" + USER + "'@'localhost' = PASSWORD('pw')",
            "SET DEFAULT ROLE NONE FOR '" + USER + "'@'localhost'",
            "RENAME USER '" + USER + "'@'localhost' TO '" + USER + "'@'%'",
            "DROP USER '" + USER + "'@'localhost'",
            "GRANT SELECT ON *.* TO 'acct_nobody'@'nowhere'",
            "DROP USER '" + USER + "'@'%'");

    @Test
    void accountStatementsReachTheBackendAsWrittenAndAnswerAsOneMariaDb() throws SQLException {
        List<String> mariaDb = new ArrayList<>();
        try (Connection c = sample.backend.connect(sample.whole); Statement s = c.createStatement()) {
            for (String sql : SCRIPT) {
                mariaDb.add(sql + " -> " + answer(s, sql));
            }
        }
        List<String> shardwise = new ArrayList<>();
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            for (String sql : SCRIPT) {
                shardwise.add(sql + " -> " + answer(s, sql));
            }
            assertEquals("error 1044", answer(s, "SHOW GRANTS FOR 'acct_nobody'@'nowhere'"), "another account's grants, not a 1064");
        }
        assertEquals(String.join("\n", mariaDb), String.join("\n", shardwise));
    }

    private static String answer(Statement s, String sql) {
        try {
            s.execute(sql);
            return "ok";
        } catch (SQLException e) {
            return "error " + e.getErrorCode();
        }
    }
}
