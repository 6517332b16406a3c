package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.mysql.cj.jdbc.JdbcStatement;
import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 14 item 7: a million-row {@code LOAD DATA LOCAL INFILE} (about 120 MB, more than this JVM's
 * whole heap) goes through the server to four shards in bounded memory: the client (Connector/J)
 * streams a generated file, the server reads it as it arrives, sends each shard its rows in batches,
 * and never holds the file. Every row lands on the shard its key routes to.
 *
 * <p>Hazard: the heap limit is the point, so the test runs only in the {@code memory} failsafe execution
 * ({@code -Xmx96m}); run it alone with
 * {@code ./mvnw -o -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=LoadDataMemoryIT}.
 */
@Tag("memory")
class LoadDataMemoryIT {
    private static final int ROWS = 1_000_000;
    private static final int PAYLOAD = 100;
    private static final long MAX_HEAP_FOR_THIS_TEST = 128L * 1024 * 1024;
    private static final String YAML = """
            schema: loaddb
            backends:
              ds0: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}", pool: { max: 8, minIdle: 0 } }
              ds1: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}", pool: { max: 8, minIdle: 0 } }
            defaultBackend: ds0
            tables:
              big: { nodes: "ds${0..1}.big_${0..1}", key: id, algorithm: { type: mod } }
            server:
              users: [ { name: app, password: app, schemas: [loaddb] } ]
            """;

    private static MysqlServer backend;
    private static final List<String> schemas = new ArrayList<>();
    private static Engine engine;
    private static ShardwiseServer server;

    @BeforeAll
    static void start() throws SQLException {
        backend = TestBackends.shared();
        for (int ds = 0; ds < 2; ds++) {
            String schema = TestBackends.uniqueSchemaName("load_ds" + ds);
            backend.createSchema(schema);
            schemas.add(schema);
            try (Connection c = backend.connect(schema); Statement s = c.createStatement()) {
                for (int t = 0; t < 2; t++) {
                    s.execute("CREATE TABLE big_" + t + " (id BIGINT NOT NULL PRIMARY KEY, payload VARCHAR(" + PAYLOAD + ") NOT NULL)");
                }
            }
        }
        String yaml = YAML.formatted(backend.jdbcUrl(schemas.get(0)), backend.user(), backend.jdbcUrl(schemas.get(1)), backend.user());
        engine = Engine.start(ShardingRule.load(yaml, "LoadDataMemoryIT", Map.of("BACKEND_PASSWORD", backend.password())::get));
        server = ShardwiseServer.start(engine, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
        for (String schema : schemas) {
            backend.dropSchema(schema);
        }
    }

    @Test
    void aMillionRowFileLoadsThroughASmallHeap() throws SQLException {
        assertTrue(Runtime.getRuntime().maxMemory() <= MAX_HEAP_FOR_THIS_TEST, "this JVM may use "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB of heap, so the run would prove nothing: run the failsafe"
                + " execution 'memory' (-Xmx96m), see the class Javadoc");
        String url = "jdbc:mysql://127.0.0.1:" + server.address().getPort() + "/loaddb?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&allowLoadLocalInfile=true";
        try (Connection c = DriverManager.getConnection(url, "app", "app"); Statement s = c.createStatement()) {
            s.unwrap(JdbcStatement.class).setLocalInfileInputStream(new Rows());
            long started = System.nanoTime();
            assertEquals(ROWS, s.executeUpdate("LOAD DATA LOCAL INFILE 'generated' INTO TABLE big FIELDS TERMINATED BY ','"));
            System.out.printf("[LoadDataMemoryIT] %,d rows in %,d ms%n", ROWS, (System.nanoTime() - started) / 1_000_000);
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id), MIN(id), MAX(id), SUM(LENGTH(payload)) FROM big")) {
                rs.next();
                assertEquals(ROWS, rs.getLong(1));
                assertEquals((long) ROWS * (ROWS - 1) / 2, rs.getLong(2));
                assertEquals(0, rs.getLong(3));
                assertEquals(ROWS - 1, rs.getLong(4));
                assertEquals((long) ROWS * PAYLOAD, rs.getLong(5));
            }
        }
        for (int node = 0; node < 4; node++) {
            try (Connection c = backend.connect(schemas.get(node / 2)); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id MOD 4 <> " + node + ") FROM big_" + (node % 2))) {
                rs.next();
                assertEquals(ROWS / 4, rs.getLong(1), "rows of node " + node);
                assertEquals(0, rs.getLong(2), "rows of node " + node + " that mod 4 places elsewhere");
            }
        }
        assertEquals(0, engine.activeConnections(), "connections left borrowed");
    }

    /** {@code id,payload\n} for ids 0..ROWS-1, made as read: the file never exists whole. */
    private static final class Rows extends InputStream {
        private int id;
        private byte[] line = new byte[0];
        private int at;

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (at == line.length) {
                if (id == ROWS) {
                    return -1;
                }
                String prefix = id + ",";
                line = (prefix + "x".repeat(PAYLOAD - String.valueOf(id).length()) + id + "\n").getBytes(StandardCharsets.US_ASCII);
                id++;
                at = 0;
            }
            int n = Math.min(len, line.length - at);
            System.arraycopy(line, at, b, off, n);
            at += n;
            return n;
        }
    }
}
