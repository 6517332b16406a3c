package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DDL inside a transaction through the engine, against the same statements on one unsharded MariaDB:
 * the open transaction is committed first on every backend it touched (rows written on both shards
 * stay after a later ROLLBACK), its savepoints end, {@code @@in_transaction} reads 0 after it, and
 * CREATE / DROP TEMPORARY TABLE commit nothing. Users 9000, 9004, ... live on ds0, 9002, 9006, ... on ds1.
 */
class DdlImplicitCommitTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("ddlcommit");

    private static final String READ = "SELECT user_id, name FROM users WHERE user_id >= 9000 ORDER BY user_id";

    private static String insert(int id) {
        return "INSERT INTO users (user_id, name) VALUES (" + id + ", 'u" + id + "')";
    }

    static final List<String> SCRIPT = List.of(
            // a table's CREATE after writes on both shards: both stay
            "BEGIN", insert(9000), insert(9002), "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK", READ,
            // DDL on every shard (a sharded table's index)
            "BEGIN", insert(9004), insert(9006), "CREATE INDEX ddl_ix ON users (name)", "SELECT @@in_transaction", "ROLLBACK", READ,
            "BEGIN", insert(9008), insert(9010), "DROP INDEX ddl_ix ON users", "ROLLBACK", READ,
            // savepoints end with the committed transaction
            "BEGIN", insert(9012), "SAVEPOINT s", insert(9014), "ALTER TABLE ddl_x ADD COLUMN v INT", "ROLLBACK TO s", "ROLLBACK", READ,
            // a DDL that fails commits first all the same
            "BEGIN", insert(9016), insert(9018), "CREATE TABLE ddl_x (id INT)", "SELECT @@in_transaction", "ROLLBACK", READ,
            // autocommit off: the DDL leaves no transaction open
            "SET autocommit = 0", insert(9020), insert(9022), "TRUNCATE TABLE ddl_x", "SELECT @@in_transaction", "ROLLBACK", READ,
            insert(9024), "ROLLBACK", READ, "SET autocommit = 1",
            // views
            "BEGIN", insert(9026), insert(9028), "CREATE VIEW ddl_v AS SELECT 1 AS one", "ROLLBACK", READ,
            "BEGIN", insert(9030), "DROP VIEW ddl_v", "ROLLBACK", READ,
            // a temporary table commits nothing
            "BEGIN", insert(9032), "CREATE TEMPORARY TABLE ddl_t (id INT)", "SELECT @@in_transaction", "DROP TEMPORARY TABLE ddl_t",
            "SELECT @@in_transaction", "ROLLBACK", READ,
            // read-only: the session's mode decides, not START TRANSACTION READ ONLY's
            "START TRANSACTION READ ONLY", READ, "DROP TABLE ddl_x", "SELECT @@in_transaction", "ROLLBACK",
            "DELETE FROM users WHERE user_id >= 9000", READ);

    @Test
    void ddlCommitsTheOpenTransactionAsOneMariaDbDoes() throws SQLException {
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
        for (int i = 0; i < SCRIPT.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "step " + i + " differs from one MariaDB's answer");
        }
        int readOnlyDdl = SCRIPT.indexOf("START TRANSACTION READ ONLY") + 2;
        assertEquals("DROP TABLE ddl_x -> ok", actual.get(readOnlyDdl), "START TRANSACTION READ ONLY's mode ends with its commit");
    }
}
