package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The statement timeout bounds a federated statement as a whole, not each of its steps: the remote
 * node of {@code t} is a view that sleeps 2 s per row read (one row), and the coordinator's statement
 * sleeps 1 s per row (two rows). Each step stays well under the 3 s limit; together they exceed it,
 * so the statement ends with MySQL's 3024, as one database running it would end it.
 */
class FederatedDeadlineTest {
    private static final String YAML = """
            schema: deadline
            backends:
              ds0: { url: "%s", user: "%s", password: "${env:P}" }
              ds1: { url: "%s", user: "%s", password: "${env:P}" }
            defaultBackend: ds0
            tables:
              t: { nodes: "ds${0..1}.t", key: id, algorithm: { type: mod } }
            timeouts: { statement: 3s }
            """;
    /** Federated (a window function); SLEEP is never pushed into a scan, so it runs on the coordinator, once per row. */
    private static final String SLOW = "SELECT id, SLEEP(1) AS s, ROW_NUMBER() OVER (ORDER BY id) AS rn FROM t";

    private static MysqlServer server;
    private static String prefix;
    private static Engine engine;

    @BeforeAll
    static void load() throws SQLException {
        server = TestBackends.shared();
        prefix = TestBackends.uniqueSchemaName("deadline");
        server.recreateSchema(prefix + "_0");
        server.recreateSchema(prefix + "_1");
        try (Connection c = server.connect(prefix + "_0"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v INT NULL)");
            s.execute("INSERT INTO t VALUES (2, 20)"); // 2 mod 2: node 0
        }
        try (Connection c = server.connect(prefix + "_1"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t_rows (id INT NOT NULL PRIMARY KEY, v INT NULL)");
            s.execute("INSERT INTO t_rows VALUES (1, 10)");
            s.execute("CREATE VIEW t AS SELECT id, v FROM t_rows WHERE SLEEP(2) = 0"); // the remote scan takes 2 s
        }
        engine = Engine.start(ShardingRule.load(YAML.formatted(server.jdbcUrl(prefix + "_0"), server.user(),
                server.jdbcUrl(prefix + "_1"), server.user()), "FederatedDeadlineTest", Map.of("P", server.password())::get));
    }

    @AfterAll
    static void drop() {
        if (engine != null) {
            engine.close();
        }
        server.dropSchema(prefix + "_0");
        server.dropSchema(prefix + "_1");
    }

    @AfterEach
    void nothingBorrowed() {
        assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
    }

    private static void readAll(EngineSession s, String sql) {
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            while (c.next()) {
                c.get(0);
            }
        }
    }

    @Test
    void theStatementTimeoutBoundsTheSumOfAFederatedStatementsSteps() {
        try (EngineSession s = engine.openSession()) {
            assertEquals(RouteKind.FEDERATED, s.preview(SLOW, List.of()).kind());
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> readAll(s, SLOW));
            assertEquals(3024, e.errno(), "MySQL's max_execution_time error: " + e.getMessage());
            // the session goes on, its copies gone: a quick federated statement still answers
            readAll(s, "SELECT id, ROW_NUMBER() OVER (ORDER BY id) FROM t WHERE id = 2");
        }
    }
}
