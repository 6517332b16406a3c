package io.shardwise.server;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DDL (and RESET, which commits as DDL does) inside a transaction over the wire, relay on (the transaction native on pinned relay connections, the
 * DDL on the session's thread) and relay off (the JDBC executor): the transaction is committed first on both
 * shards it wrote (users 1 and 2 live on ds0 and ds1), as one MariaDB commits it, so a later ROLLBACK undoes
 * nothing; status flags, errors and rows are one MariaDB's, and the relay's answers the JDBC executor's.
 */
class DdlCommitServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("ddlsrv");

    private static final List<String> SCRIPT = List.of(
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'a') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'a') WHERE user_id = 2", "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'b') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'b') WHERE user_id = 2", "SAVEPOINT s", "CREATE INDEX ddl_ix ON users (email)", "ROLLBACK TO s", "ROLLBACK",
            "SET autocommit = 0", "UPDATE users SET name = CONCAT(name, 'c') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'c') WHERE user_id = 2", "DROP INDEX ddl_ix ON users", "SELECT @@in_transaction", "ROLLBACK",
            "UPDATE users SET name = CONCAT(name, 'd') WHERE user_id = 1", "ROLLBACK", "SET autocommit = 1",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'e') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'e') WHERE user_id = 2", "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'f') WHERE user_id = 1", "DROP TABLE ddl_x", "SELECT @@in_transaction", "ROLLBACK",
            // statements other than DDL that commit first: RESET, and RESET MASTER although it fails (no binary log)
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'g') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'g') WHERE user_id = 2", "RESET QUERY CACHE", "SELECT @@in_transaction", "ROLLBACK",
            "BEGIN", "UPDATE users SET name = CONCAT(name, 'h') WHERE user_id = 1", "UPDATE users SET name = CONCAT(name, 'h') WHERE user_id = 2", "RESET MASTER", "SELECT @@in_transaction", "ROLLBACK");

    @Test
    void ddlCommitsTheTransactionAsOneMariaDbAndTheRelayOffServer() throws Exception {
        try (Connection c = sample.connect("app", ""); Statement s = c.createStatement()) {
            for (int i = 0; i < 2; i++) { // warms the shapes: only a cached plan relays
                s.executeUpdate("UPDATE users SET name = CONCAT(name, '') WHERE user_id = 1");
            }
        }
        sample.assertScriptAsOneMariaDbAndTheRelayOffServer(SCRIPT, "SELECT name FROM users WHERE user_id IN (1, 2) ORDER BY user_id",
                "the transactions' writes relayed natively");
    }
}
