package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.mysql.cj.jdbc.JdbcStatement;
import io.shardwise.core.Engine;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.MysqlServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
    private static final BigTables TABLES = new BigTables();
    private static MysqlServer backend;
    private static Engine engine;
    private static ShardwiseServer server;

    @BeforeAll
    static void start() throws SQLException {
        TABLES.createSchemas("load_ds");
        backend = TABLES.backend;
        for (String schema : TABLES.schemas) {
            try (Connection c = backend.connect(schema); Statement s = c.createStatement()) {
                for (int t = 0; t < 2; t++) {
                    s.execute("CREATE TABLE big_" + t + " (id BIGINT NOT NULL PRIMARY KEY, payload VARCHAR(" + PAYLOAD + ") NOT NULL)");
                }
            }
        }
        engine = TABLES.start("loaddb", """
                server:
                  users: [ { name: app, password: app, schemas: [loaddb] } ]
                """, "LoadDataMemoryIT");
        server = ShardwiseServer.start(engine, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        TABLES.close();
    }

    @Test
    void aMillionRowFileLoadsThroughASmallHeap() throws SQLException {
        BigTables.assertSmallHeap();
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
            try (Connection c = backend.connect(TABLES.schemaOf(node)); Statement s = c.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*), SUM(id MOD 4 <> " + node + ") FROM " + BigTables.tableOf(node))) {
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
