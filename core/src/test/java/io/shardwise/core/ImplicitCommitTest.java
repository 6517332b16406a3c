package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Statements other than DDL that MariaDB 11.4 commits an open transaction before (and after), through the engine
 * against the same statements on one unsharded MariaDB: table maintenance (ANALYZE, CHECK, OPTIMIZE, REPAIR of a
 * single table, run on its backend), RESET (RESET MASTER fails, and commits first all the same), FLUSH HOSTS and
 * CREATE DATABASE of the logical schema (answered by Shardwise itself, no backend), CREATE USER, UNLOCK TABLES
 * with tables locked; and CHECKSUM TABLE, which MariaDB runs inside the transaction. Rows written on both shards
 * before them stay after a later ROLLBACK, {@code @@in_transaction} reads 0 after them, with autocommit off too.
 * Users 9100, 9104, ... live on ds0, 9102, 9106, ... on ds1.
 */
class ImplicitCommitTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("implicitcommit");

    private static final String READ = "SELECT user_id, name FROM users WHERE user_id >= 9100 ORDER BY user_id";
    private static final String ACCOUNT = "ic_account_" + ProcessHandle.current().pid();

    private static String insert(int id) {
        return "INSERT INTO users (user_id, name) VALUES (" + id + ", 'u" + id + "')";
    }

    private static List<String> committing(int id, String statement) {
        return List.of("BEGIN", insert(id), insert(id + 2), statement, "SELECT @@in_transaction", "ROLLBACK", READ);
    }

    static final List<String> SCRIPT = script();

    private static List<String> script() {
        List<String> s = new ArrayList<>();
        int id = 9100;
        for (String statement : List.of("ANALYZE TABLE promotions", "CHECK TABLE promotions", "OPTIMIZE TABLE promotions",
                "REPAIR TABLE promotions", "RESET QUERY CACHE", "RESET MASTER", "FLUSH HOSTS",
                // the logical schema, which Shardwise answers for itself (1007; OK with IF NOT EXISTS)
                "CREATE DATABASE {schema}", "CREATE DATABASE IF NOT EXISTS {schema}",
                "CREATE USER IF NOT EXISTS " + ACCOUNT)) {
            s.addAll(committing(id, statement));
            id += 4;
        }
        // autocommit off: the statement leaves no transaction open, and FLUSH HOSTS commits as a backend's statement does
        s.addAll(List.of("SET autocommit = 0", insert(id), insert(id + 2), "ANALYZE TABLE promotions", "SELECT @@in_transaction",
                "ROLLBACK", READ, insert(id + 4), insert(id + 6), "FLUSH HOSTS", "SELECT @@in_transaction", "ROLLBACK", READ,
                "SET autocommit = 1"));
        id += 8;
        // CHECKSUM TABLE runs inside the transaction: the ROLLBACK undoes the writes
        s.addAll(committing(id, "CHECKSUM TABLE promotions"));
        // UNLOCK TABLES commits when tables are locked (autocommit off: the writes under the locks are a transaction)
        s.addAll(List.of("LOCK TABLES promotions WRITE", "SET autocommit = 0", "INSERT INTO promotions (id, code, discount) VALUES (900, 'lk', 1)",
                "UNLOCK TABLES", "SELECT @@in_transaction", "ROLLBACK", "SELECT id FROM promotions WHERE id = 900", "SET autocommit = 1",
                "DELETE FROM promotions WHERE id = 900"));
        s.addAll(List.of("DELETE FROM users WHERE user_id >= 9100", READ));
        return List.copyOf(s);
    }

    @AfterAll
    static void dropAccount() throws SQLException {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole())) {
            c.createStatement().execute("DROP USER IF EXISTS " + ACCOUNT);
        }
    }

    /** One step's answer; a table-maintenance statement's rows name the physical schema, so only that there were some. */
    private static String comparable(String step, String answer) {
        boolean maintenance = step.matches("(ANALYZE|CHECK|OPTIMIZE|REPAIR|CHECKSUM) TABLE .*");
        return maintenance && !answer.startsWith("error") ? "rows" : answer;
    }

    @Test
    void statementsMariaDbCommitsBeforeCommitTheTransactionOnEveryBackend() throws SQLException {
        List<String> expected = new ArrayList<>();
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole())) {
            for (String step : SCRIPT) {
                expected.add(step + " -> " + comparable(step, SampleEngine.answer(c, step.replace("{schema}", SAMPLE.whole()))));
            }
        }
        List<String> actual = new ArrayList<>();
        try (EngineSession s = SAMPLE.engine().openSession()) {
            for (String step : SCRIPT) {
                actual.add(step + " -> " + comparable(step, SampleEngine.answer(s, step.replace("{schema}", "shop"))));
            }
        }
        for (int i = 0; i < SCRIPT.size(); i++) {
            assertEquals(expected.get(i), actual.get(i), "step " + i + " differs from one MariaDB's answer");
        }
    }
}
