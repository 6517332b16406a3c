package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14 item 9: {@code @x := expr} inside a statement, with MySQL's semantics whichever shards
 * the statement reaches. Each script runs through one engine session and on one connection to an
 * unsharded copy of the same data ({@code _whole}); every statement's answer (labels, values,
 * counts) must be the same.
 */
class UserVariableAssignmentTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("uassign");
    private static MysqlServer server;
    private static SampleTarget target;
    private static Engine engine;
    private static String whole;

    @BeforeAll
    static void load() {
        server = SAMPLE.server();
        target = SAMPLE.target();
        whole = SAMPLE.whole();
        engine = SAMPLE.engine();
    }

    /** A statement's answer: its labels then its rows, or its affected-row count. */
    private static List<String> viaEngine(EngineSession s, String sql) {
        List<String> out = new ArrayList<>();
        switch (s.execute(sql)) {
            case StatementResult.Rows rows -> {
                try (ResultCursor c = rows.cursor()) {
                    out.addAll(SampleEngine.labelledRows(c));
                }
            }
            case StatementResult.Update u -> out.add("affected " + u.affectedRows());
            case StatementResult.Results r -> out.add("results " + r.results().size());
        }
        return out;
    }

    private static List<String> direct(Statement st, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        if (!st.execute(sql)) {
            out.add("affected " + st.getUpdateCount());
            return out;
        }
        try (ResultSet rs = st.getResultSet()) {
            out.addAll(SampleEngine.labelledRows(rs));
        }
        return out;
    }

    /** The script on one engine session and on one connection to the unsharded copy: the same answer to each statement. */
    private static void same(String... script) throws Exception {
        try (EngineSession s = engine.openSession(); Connection c = server.connect(whole); Statement st = c.createStatement()) {
            for (String sql : script) {
                assertEquals(direct(st, sql), viaEngine(s, sql), sql);
            }
        }
    }

    @Test
    void rowsAreNumberedOnceAcrossShardsInTheStatementsOrder() throws Exception {
        same("SET @rn = 0",
                "SELECT @rn := @rn + 1 AS rn, name FROM users ORDER BY user_id",
                "SELECT @rn",
                "SELECT @rn := @rn + 1 AS rn, amount FROM orders WHERE user_id = 3 ORDER BY amount",
                "SELECT @rn, @rn + 1 AS next");
    }

    @Test
    void anAggregateAssignedIsTheWholeTablesAndKeepsItsType() throws Exception {
        same("SELECT @m := MAX(amount) FROM orders",
                "SELECT @m",
                "SELECT @m + 0 AS plus",
                "SELECT @m := MAX(amount) AS top, COUNT(*) FROM orders WHERE user_id = 3",
                "SELECT @m * 2 AS twice, @m + 0.5 AS half",
                "SELECT @m, @m + 0.5",
                "SET @copy = @m, @sum = @m + 1",
                "SELECT @copy, @sum",
                "SELECT @s := name FROM users WHERE user_id = 3",
                "SELECT @s, CONCAT(@s, '!')",
                "SET @cnt = NULL", // one never set is a constant NULL in MariaDB's statement; Shardwise sets it NULL (docs/server.md)
                "SELECT MAX(@cnt := COALESCE(@cnt, 0) + 1) AS n FROM countries",
                "SELECT @cnt",
                "SELECT @a := 1, @b := @a + 1",
                "SELECT @a, @b");
        try (EngineSession s = engine.openSession()) {
            ((StatementResult.Rows) s.execute("SELECT @m := MAX(amount) FROM orders")).cursor().close();
            try (ResultCursor c = ((StatementResult.Rows) s.execute("SELECT @m")).cursor()) {
                assertEquals(246, c.columns().get(0).mysqlType(), "a DECIMAL, as the column it was assigned from");
            }

        }
    }

    @Test
    void anAssignedKeyRoutesLaterStatements() throws Exception {
        same("SELECT @u := user_id FROM users WHERE name IS NOT NULL ORDER BY user_id DESC LIMIT 1",
                "SELECT COUNT(*) FROM orders WHERE user_id = @u");
    }

    @Test
    void aWriteOnOneShardAssignsInOrOutOfATransaction() throws Exception {
        same("SET @k = 4",
                "UPDATE users SET name = (@n := CONCAT(name, '')) WHERE user_id = @k",
                "SELECT @n",
                "START TRANSACTION",
                "UPDATE users SET name = CONCAT(@old := name, '?') WHERE user_id = 3",
                "SELECT @old, name FROM users WHERE user_id = 3",
                "ROLLBACK",
                "SELECT name FROM users WHERE user_id = 3");
    }

    @Test
    void aWriteOverSeveralShardsIsRefusedNamingTheVariable() {
        try (EngineSession s = engine.openSession()) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> s.execute("UPDATE users SET name = (@z := name)"));
            assertEquals(ErrorCode.UNSUPPORTED.errno(), e.errno());
            assertTrue(e.getMessage().contains("@z") && e.getMessage().contains("UPDATE reaching 4 shards"), e.getMessage());
        }
    }
}
