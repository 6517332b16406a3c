package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.ResultCursor;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The federated tier over tables that live on different backends, against one database holding the
 * same rows: a sharded table with no node on the default backend ({@code t} on ds1 and ds2), single
 * tables on two backends ({@code near} on ds0, {@code far} on ds2, whose node has a foreign key), a
 * broadcast table, and tables of another schema. Each statement is refused by the first two tiers
 * and was declined by the third before its copies could be made from another backend's definition.
 */
class FederatedSpreadTest {
    private static final String YAML = """
            schema: spread
            backends:
              ds0: { url: "%s", user: "%s", password: "${env:P}" }
              ds1: { url: "%s", user: "%s", password: "${env:P}" }
              ds2: { url: "%s", user: "%s", password: "${env:P}" }
            defaultBackend: ds0
            tables:
              t: { nodes: "ds${1..2}.t_${0..1}", key: id, algorithm: { type: mod } }
              near: { backend: ds0 }
              far: { backend: ds2 }
              c: { broadcast: true }
            """;
    private static final String T = "CREATE TABLE %s (id INT NOT NULL PRIMARY KEY, v INT NULL, name VARCHAR(20)"
            + " COLLATE utf8mb4_general_ci NULL, KEY idx_v (v)) DEFAULT CHARSET=utf8mb4";
    private static final String NEAR = "CREATE TABLE near (id INT NOT NULL PRIMARY KEY, label VARCHAR(20) NULL) DEFAULT CHARSET=utf8mb4";
    private static final String FAR = "CREATE TABLE far (id INT NOT NULL PRIMARY KEY, pid INT NULL, amount DECIMAL(7,2) NULL%s)"
            + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    private static final String C = "CREATE TABLE c (id INT NOT NULL PRIMARY KEY, code CHAR(2) NOT NULL) DEFAULT CHARSET=utf8mb4";
    private static final String[] NAMES = {"apple", "Apple", "APPLE", "pear", "Pear", "plum", null};

    private static MysqlServer server;
    private static final List<String> schemas = new ArrayList<>();
    private static String whole;
    private static Engine engine;

    @BeforeAll
    static void load() throws SQLException {
        server = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("spread");
        for (int i = 0; i < 3; i++) {
            schemas.add(prefix + "_" + i);
            server.recreateSchema(prefix + "_" + i);
        }
        whole = prefix + "_whole";
        server.recreateSchema(whole);
        List<String> tRows = new ArrayList<>();
        for (int id = 1; id <= 60; id++) {
            tRows.add("(" + id + ", " + (id % 9 == 0 ? "NULL" : String.valueOf(id % 7)) + ", " + quote(NAMES[id % NAMES.length]) + ")");
        }
        String near = "INSERT INTO near VALUES (0, 'zero'), (1, 'one'), (2, 'two'), (3, NULL), (5, 'five'), (8, 'eight')";
        String far = "INSERT INTO far VALUES (1, 1, 10.50), (2, 1, 3.25), (3, NULL, NULL), (5, 2, 99.99), (6, 2, 0.01), (9, 1, 7.00)";
        String c = "INSERT INTO c VALUES (1, 'de'), (2, 'fr'), (3, 'it'), (4, 'es')";
        try (Connection conn = server.connect(whole); Statement s = conn.createStatement()) {
            s.execute(T.formatted("t"));
            s.execute("INSERT INTO t VALUES " + String.join(", ", tRows));
            s.execute(NEAR);
            s.execute(near);
            s.execute(FAR.formatted(""));
            s.execute(far);
            s.execute(C);
            s.execute(c);
        }
        // t: node k (ds1.t_0, ds1.t_1, ds2.t_0, ds2.t_1) holds the ids = k mod 4
        for (int node = 0; node < 4; node++) {
            try (Connection conn = server.connect(schemas.get(1 + node / 2)); Statement s = conn.createStatement()) {
                s.execute(T.formatted("t_" + node % 2));
                List<String> mine = new ArrayList<>();
                for (int id = 1; id <= 60; id++) {
                    if (id % 4 == node) {
                        mine.add(tRows.get(id - 1));
                    }
                }
                s.execute("INSERT INTO t_" + node % 2 + " VALUES " + String.join(", ", mine));
            }
        }
        try (Connection conn = server.connect(schemas.get(0)); Statement s = conn.createStatement()) {
            s.execute(NEAR);
            s.execute(near);
        }
        try (Connection conn = server.connect(schemas.get(2)); Statement s = conn.createStatement()) {
            // a foreign key to a table the copy's backend does not have: the copy must leave it out
            s.execute("CREATE TABLE parents (id INT NOT NULL PRIMARY KEY) ENGINE=InnoDB");
            s.execute("INSERT INTO parents VALUES (1), (2)");
            s.execute(FAR.formatted(", KEY fk_pid (pid), CONSTRAINT fk_pid FOREIGN KEY (pid) REFERENCES parents (id)"));
            s.execute(far);
        }
        for (String schema : schemas) {
            try (Connection conn = server.connect(schema); Statement s = conn.createStatement()) {
                s.execute(C);
                s.execute(c);
            }
        }
        String yaml = YAML.formatted(server.jdbcUrl(schemas.get(0)), server.user(), server.jdbcUrl(schemas.get(1)), server.user(),
                server.jdbcUrl(schemas.get(2)), server.user());
        engine = Engine.start(ShardingRule.load(yaml, "FederatedSpreadTest", Map.of("P", server.password())::get));
    }

    @AfterAll
    static void drop() {
        if (engine != null) {
            engine.close();
        }
        for (String schema : schemas) {
            server.dropSchema(schema);
        }
        server.dropSchema(whole);
    }

    @AfterEach
    void nothingBorrowed() {
        assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
    }

    private static String quote(String s) {
        return s == null ? "NULL" : "'" + s + "'";
    }

    /** The rows sorted: the statements below order what they must, the comparison is as multisets. */
    private static List<String> engineRows(EngineSession s, String sql) {
        try (ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            List<String> out = new ArrayList<>();
            while (c.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    row.append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8)).append('|');
                }
                out.add(row.toString());
            }
            return out.stream().sorted().toList();
        }
    }

    private static List<String> wholeRows(String sql) throws SQLException {
        try (Connection conn = server.connect(whole); Statement s = conn.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            int width = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= width; i++) {
                    byte[] v = rs.getBytes(i);
                    row.append(v == null ? "NULL" : new String(v, StandardCharsets.UTF_8)).append('|');
                }
                out.add(row.toString());
            }
            return out.stream().sorted().toList();
        }
    }

    private static void sameAsOneDatabase(String sql) throws SQLException {
        long before = engine.federatedStatements();
        try (EngineSession s = engine.openSession()) {
            List<String> expected = wholeRows(sql);
            assertTrue(!expected.isEmpty(), sql);
            assertEquals(expected, engineRows(s, sql), sql);
        }
        assertEquals(before + 1, engine.federatedStatements(), "answered by the federated tier: " + sql);
    }

    @Test
    void aShardedTableWithNoNodeOnTheDefaultBackendIsCoordinatedWhereItsNodesAre() throws SQLException {
        sameAsOneDatabase("SELECT COUNT(*), COUNT(DISTINCT name) FROM (SELECT DISTINCT v, name FROM t) x");
        sameAsOneDatabase("SELECT id, v, RANK() OVER (PARTITION BY v ORDER BY id) FROM t");
    }

    @Test
    void aShardedTableWithNoNodeOnTheCoordinatorIsCopiedFromAnotherBackendsDefinition() throws SQLException {
        sameAsOneDatabase("SELECT near.id, near.label, COUNT(t.id) FROM near LEFT JOIN t ON t.v = near.id GROUP BY near.id, near.label");
        // the copy keeps the column's collation: 'apple' = 'Apple' = 'APPLE'
        sameAsOneDatabase("SELECT COUNT(DISTINCT t.name) FROM t WHERE t.v IN (SELECT id FROM near)");
    }

    @Test
    void singleTablesOnTwoBackendsMeetOnOneWhereTheOtherIsCopied() throws SQLException {
        sameAsOneDatabase("SELECT near.id, near.label, far.amount FROM near JOIN far ON far.id = near.id");
        sameAsOneDatabase("SELECT COUNT(*), SUM(far.amount) FROM far WHERE far.pid IN (SELECT id FROM near) AND far.id NOT IN"
                + " (SELECT v FROM t WHERE v IS NOT NULL)");
        sameAsOneDatabase("SELECT c.code, near.label, COUNT(DISTINCT t.name) FROM near JOIN far ON far.id = near.id JOIN t ON t.v = far.id"
                + " JOIN c ON c.id = t.id % 4 + 1 GROUP BY c.code, near.label");
    }

    @Test
    void theCopyFromAnotherBackendsDefinitionIsShownByPreviewAndDescribedBeforeItRuns() {
        try (EngineSession s = engine.openSession()) {
            List<String> steps = s.preview("SELECT near.id FROM near JOIN far ON far.id = near.id", List.of()).units().stream()
                    .map(u -> u.explain()).toList();
            assertTrue(steps.contains("ds0: CREATE TEMPORARY TABLE shardwise_fed_far /* as SHOW CREATE TABLE of ds2.far */"),
                    String.join("\n", steps));
            // described as MySQL describes it at prepare (it announced no columns before: empty copies now stand in)
            assertEquals(List.of("id"), s.describe("SELECT near.id FROM near JOIN far ON far.id = near.id").stream()
                    .map(c -> c.name()).toList());
        }
    }

    @Test
    void aTableOfAnotherSchemaIsReadOnTheDefaultBackendAsOneServerWouldReadIt() throws SQLException {
        String other = "SELECT COUNT(*) FROM t WHERE v IN (SELECT id FROM `" + whole + "`.near)";
        long before = engine.federatedStatements();
        try (EngineSession s = engine.openSession()) {
            assertEquals(wholeRows(other), engineRows(s, other));
            // a schema no backend has: the backend's own "doesn't exist", as from one MySQL
            String missing = "SELECT COUNT(*) FROM t WHERE v IN (SELECT id FROM no_such_schema_x.near)";
            assertEquals(1146, assertThrows(ShardwiseException.class, () -> engineRows(s, missing)).errno());
            assertEquals(1146, assertThrows(SQLException.class, () -> wholeRows(missing)).getErrorCode());
        }
        assertEquals(before + 2, engine.federatedStatements());
    }
}
