package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The engine tests' fixture, as {@code @RegisterExtension static final SampleEngine SAMPLE =
 * SampleEngine.sharded("prefix")}: the sample data sharded over two databases of the shared test
 * server (prefix_0, prefix_1), optionally whole in a third ({@link #withWhole}: what one MySQL would
 * answer), and an engine over them — started before the class's tests (and its own {@code @BeforeAll}
 * methods), checked after each test (every backend connection back in its pool), dropped after the last.
 */
final class SampleEngine implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private final String prefix;
    private final boolean withWhole;
    private MysqlServer server;
    private SampleTarget target;
    private String whole;
    private Engine engine;

    private SampleEngine(String prefix, boolean withWhole) {
        this.prefix = prefix;
        this.withWhole = withWhole;
    }

    /** The sharded databases and an engine. */
    static SampleEngine sharded(String prefix) {
        return new SampleEngine(prefix, false);
    }

    /** As {@link #sharded}, plus the unsharded copy {@link #whole()}. */
    static SampleEngine withWhole(String prefix) {
        return new SampleEngine(prefix, true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = TestBackends.shared();
        target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), TestBackends.uniqueSchemaName(prefix));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        if (withWhole) {
            whole = target.databasePrefix() + "_whole";
            SampleData.loadUnsharded(target, whole);
        }
        engine = Engine.start(rule);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        engine.close();
        server.dropSchema(target.databasePrefix() + "_0");
        server.dropSchema(target.databasePrefix() + "_1");
        if (whole != null) {
            server.dropSchema(whole);
        }
    }

    MysqlServer server() {
        return server;
    }

    SampleTarget target() {
        return target;
    }

    /** The unsharded copy's database name (only {@link #withWhole}). */
    String whole() {
        return whole;
    }

    Engine engine() {
        return engine;
    }

    /** The rows of a read through the engine, each as its cells' text joined by {@code |} (NULL as {@code NULL}). */
    static java.util.List<String> rows(EngineSession s, String sql) {
        StatementResult result = s.execute(sql);
        if (!(result instanceof StatementResult.Rows r)) {
            throw new AssertionError(sql + " returned " + result);
        }
        try (io.shardwise.core.execute.ResultCursor c = r.cursor()) {
            java.util.List<String> labelled = labelledRows(c);
            return labelled.subList(1, labelled.size());
        }
    }

    /** A cursor's labels (one line) then its rows, each cell's text followed by {@code |} (NULL as {@code NULL}). */
    static java.util.List<String> labelledRows(io.shardwise.core.execute.ResultCursor c) {
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder labels = new StringBuilder();
        c.columns().forEach(col -> labels.append(col.name()).append('|'));
        out.add(labels.toString());
        while (c.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 0; i < c.columns().size(); i++) {
                byte[] v = c.get(i);
                row.append(v == null ? "NULL" : new String(v, java.nio.charset.StandardCharsets.UTF_8)).append('|');
            }
            out.add(row.toString());
        }
        return out;
    }

    /** {@link #labelledRows(io.shardwise.core.execute.ResultCursor)} of a JDBC result, labelled as the driver reports them. */
    static java.util.List<String> labelledRows(java.sql.ResultSet rs) throws java.sql.SQLException {
        java.sql.ResultSetMetaData md = rs.getMetaData();
        java.util.List<String> out = new java.util.ArrayList<>();
        StringBuilder labels = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            labels.append(md.getColumnLabel(i)).append('|');
        }
        out.add(labels.toString());
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                byte[] v = rs.getBytes(i);
                row.append(v == null ? "NULL" : new String(v, java.nio.charset.StandardCharsets.UTF_8)).append('|');
            }
            out.add(row.toString());
        }
        return out;
    }

    /**
     * One step of a script compared with one database: "ok" for a statement without rows, its labelled rows joined
     * by commas, or "error N" — the same text for {@link #answer(EngineSession, String)}, so a script's two runs compare
     * step by step.
     */
    static String answer(java.sql.Connection c, String sql) {
        try (java.sql.Statement st = c.createStatement()) {
            if (!st.execute(sql)) {
                return "ok";
            }
            try (java.sql.ResultSet rs = st.getResultSet()) {
                return String.join(",", labelledRows(rs));
            }
        } catch (java.sql.SQLException e) {
            return "error " + e.getErrorCode();
        }
    }

    /** {@link #answer(java.sql.Connection, String)} of the same step through the engine. */
    static String answer(EngineSession s, String sql) {
        try {
            StatementResult result = s.execute(sql);
            if (!(result instanceof StatementResult.Rows rows)) {
                return "ok";
            }
            try (io.shardwise.core.execute.ResultCursor c = rows.cursor()) {
                return String.join(",", labelledRows(c));
            }
        } catch (io.shardwise.core.error.ShardwiseException e) {
            return "error " + e.errno();
        }
    }

    /** {@link #rows} of the same read on the unsharded copy (only {@link #withWhole}). */
    java.util.List<String> direct(String sql) throws java.sql.SQLException {
        try (java.sql.Connection c = server.connect(whole); java.sql.Statement st = c.createStatement(); java.sql.ResultSet rs = st.executeQuery(sql)) {
            java.util.List<String> labelled = labelledRows(rs);
            return labelled.subList(1, labelled.size());
        }
    }

    /** A write's outcome on the unsharded copy: {@code affected N} (matched rows, Connector/J's default), or {@code error errno}. */
    String directWrite(String sql) {
        try (java.sql.Connection c = server.connect(whole); java.sql.Statement st = c.createStatement()) {
            return "affected " + st.executeUpdate(sql);
        } catch (java.sql.SQLException e) {
            return "error " + e.getErrorCode();
        }
    }

    /** A write's outcome through the engine, as {@link #directWrite} words it. */
    static String engineWrite(EngineSession s, String sql) {
        try {
            StatementResult result = s.execute(sql);
            if (!(result instanceof StatementResult.Update u)) {
                throw new AssertionError(sql + " returned " + result);
            }
            return "affected " + u.affectedRows();
        } catch (io.shardwise.core.error.ShardwiseException e) {
            return "error " + e.errno();
        }
    }

    /** The count of an "affected N" outcome of {@link #sameWrite}; fails on any other outcome (an error), naming it. */
    static long affected(String outcome) {
        assertTrue(outcome.startsWith("affected "), outcome);
        return Long.parseLong(outcome.substring("affected ".length()));
    }

    /**
     * Runs {@code write} through the engine and on the unsharded copy: the same outcome, and the same
     * {@code table} after (ordered by {@code key}). Returns the outcome, as {@link #directWrite} words it.
     */
    String sameWrite(String write, String table, String key) throws java.sql.SQLException {
        String expected = directWrite(write);
        try (EngineSession s = engine().openSession()) {
            String actual = engineWrite(s, write);
            assertEquals(expected, actual, write);
            String read = "SELECT * FROM " + table + " ORDER BY " + key;
            assertEquals(direct(read), rows(s, read), "the table after " + write);
            return actual;
        }
    }
}
