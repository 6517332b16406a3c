package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.jdbc.Driver;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The compatibility suite's "streaming a large result with a small heap": an application reads a
 * half-million-row scatter (about 175 MB of rows on the wire) through the Shardwise driver in a JVM
 * of 96 MB heap, with the fetch size an application would set ({@code Integer.MIN_VALUE}, as for
 * Connector/J streaming) and with the default, ordered and unordered. Every row is read and digested
 * (count, sum of ids, sum of CRC32 of the payloads) and the digest must equal Connector/J's,
 * streaming straight from the backends over the same physical tables. A driver that buffered the
 * result would need several times the heap and fail with OutOfMemoryError; the live heap, sampled
 * after {@code System.gc()}, must also stay under half the heap.
 *
 * <p>The rows are real tables (MEMORY, so filling them costs no disk I/O), grown on each backend by
 * INSERT ... SELECT doubling from one seed row, each physical table
 * holding the ids that {@code type: mod} places on it. Half a million wide rows rather than
 * millions of narrow ones keeps the four reads to seconds while the payload bytes alone (168 MB)
 * exceed the heap.
 *
 * <p>Hazard: runs only in failsafe's {@code memory} execution ({@code -Xmx96m}, see
 * {@code it/pom.xml}) and fails fast in a bigger JVM. Alone:
 * {@code ./mvnw -pl it -am verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=DriverStreamingMemoryIT}.
 */
@Tag("memory")
class DriverStreamingMemoryIT {
    private static final int NODES = 4;
    /** Doublings per physical table: 2^17 rows each, 524,288 in all. */
    private static final int DOUBLINGS = 17;
    private static final long ROWS = NODES * (1L << DOUBLINGS);
    private static final int PAYLOAD_LENGTH = 320;
    private static final long SAMPLE_EVERY = 250_000L;
    private static final long LIVE_HEAP_LIMIT = 48L * 1024 * 1024;
    private static final long MAX_HEAP_FOR_THIS_TEST = 128L * 1024 * 1024;

    private static final String YAML = """
            schema: bigdb
            backends:
              ds0: { url: "%s", user: "%s", password: "%s", pool: { max: 8, minIdle: 0 } }
              ds1: { url: "%s", user: "%s", password: "%s", pool: { max: 8, minIdle: 0 } }
            defaultBackend: ds0
            tables:
              big: { nodes: "ds${0..1}.big_${0..1}", key: id, algorithm: { type: mod } }
            """;

    private static MysqlServer server;
    private static final List<String> schemas = new ArrayList<>();
    private static Path config;
    private static String url;
    private static Digest direct;

    /** What a reader of every row saw: enough to tell a lost, doubled or altered row. */
    record Digest(long rows, long idSum, long crcSum) {}

    @BeforeAll
    static void fillTablesAndReadThemStraightThroughConnectorJ() throws SQLException, IOException {
        server = TestBackends.shared();
        for (int ds = 0; ds < 2; ds++) {
            String schema = TestBackends.uniqueSchemaName("stream_ds" + ds);
            server.createSchema(schema);
            schemas.add(schema);
        }
        long started = System.nanoTime();
        for (int node = 0; node < NODES; node++) {
            fill(node);
        }
        long filled = System.nanoTime();
        String yaml = YAML.formatted(server.jdbcUrl(schemas.get(0)), server.user(), server.password(),
                server.jdbcUrl(schemas.get(1)), server.user(), server.password());
        config = Files.createTempFile("shardwise-streaming", ".yaml");
        Files.writeString(config, yaml);
        url = "jdbc:shardwise:" + config;
        StringBuilder union = new StringBuilder();
        for (int node = 0; node < NODES; node++) {
            union.append(node == 0 ? "" : " UNION ALL ").append("SELECT id, payload FROM ").append(schemaOf(node)).append('.').append(tableOf(node));
        }
        try (Connection c = server.connect(schemas.getFirst()); Statement s = c.createStatement()) {
            s.setFetchSize(Integer.MIN_VALUE); // Connector/J buffers whole results otherwise, which this heap cannot hold
            direct = read(s, union.toString(), false); // the digest does not depend on the order
        }
        assertEquals(ROWS, direct.rows(), "rows Connector/J read straight from the backends");
        System.out.printf("[DriverStreamingMemoryIT] filled %,d rows in %,d ms; Connector/J read them in %,d ms%n", ROWS,
                (filled - started) / 1_000_000, (System.nanoTime() - filled) / 1_000_000);
    }

    /** Node n's table holds ids ≡ n (mod 4): a seed row, then each pass copies every row 4·count higher. */
    private static void fill(int node) throws SQLException {
        try (Connection c = server.connect(schemaOf(node)); Statement s = c.createStatement()) {
            // MEMORY: no redo, undo or disk, so the doubling takes a second; the BTREE key streams ORDER BY id without a sort
            s.execute("SET SESSION max_heap_table_size = " + 256L * 1024 * 1024);
            s.execute("CREATE TABLE " + tableOf(node) + " (id BIGINT NOT NULL, payload VARCHAR(" + PAYLOAD_LENGTH + ") NOT NULL,"
                    + " PRIMARY KEY USING BTREE (id)) ENGINE=MEMORY DEFAULT CHARSET=latin1");
            s.execute("INSERT INTO " + tableOf(node) + " VALUES (" + node + ", RPAD(MD5(" + node + "), " + PAYLOAD_LENGTH + ", '.'))");
            for (int i = 0; i < DOUBLINGS; i++) {
                long count = 1L << i;
                s.execute("INSERT INTO " + tableOf(node) + " SELECT id + " + NODES * count + ", RPAD(MD5(id + " + NODES * count + "), "
                        + PAYLOAD_LENGTH + ", '.') FROM " + tableOf(node));
            }
        }
    }

    @AfterAll
    static void shutDownAndDrop() throws SQLException, IOException {
        if (url != null) {
            Driver.shutdown(url);
            Files.deleteIfExists(config);
        }
        for (String schema : schemas) {
            server.dropSchema(schema);
        }
    }

    @ParameterizedTest(name = "{0}, fetch size {1}")
    @CsvSource({"ORDER BY id, -2147483648", "ORDER BY id, 0", "unordered, -2147483648", "unordered, 0"})
    void aLargeScatterStreamsThroughTheDriverAndAgreesWithConnectorJ(String order, int fetchSize) throws SQLException {
        Runtime runtime = Runtime.getRuntime();
        assertTrue(runtime.maxMemory() <= MAX_HEAP_FOR_THIS_TEST, "this JVM may use " + runtime.maxMemory() / (1024 * 1024)
                + " MB of heap, so the run would prove nothing: run the failsafe execution 'memory' (-Xmx96m), see the class Javadoc");
        boolean ordered = order.startsWith("ORDER");
        Digest seen;
        long started = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.setFetchSize(fetchSize);
            seen = read(s, "SELECT id, payload FROM big" + (ordered ? " ORDER BY id" : ""), ordered);
            assertEquals(0, c.unwrap(Engine.class).activeConnections(), "backend connections left borrowed after the last row");
        }
        System.out.printf("[DriverStreamingMemoryIT] %s, fetch size %d: %,d rows in %,d ms%n", order, fetchSize, seen.rows(),
                (System.nanoTime() - started) / 1_000_000);
        assertEquals(direct, seen, "the digest of every row, Connector/J straight to the backends vs the Shardwise driver");
    }

    /**
     * Reads every row, digesting it; checks ids strictly increase when ordered, and that the live
     * heap stays bounded while reading.
     */
    private static Digest read(Statement s, String sql, boolean ordered) throws SQLException {
        Runtime runtime = Runtime.getRuntime();
        CRC32 crc = new CRC32();
        long rows = 0;
        long idSum = 0;
        long crcSum = 0;
        long previous = -1;
        long peakLive = 0;
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                long id = rs.getLong(1);
                if (ordered && id <= previous) {
                    fail("row " + rows + " has id " + id + " after id " + previous + ": not in ORDER BY id order");
                }
                previous = id;
                crc.reset();
                crc.update(rs.getBytes(2));
                rows++;
                idSum += id;
                crcSum += crc.getValue();
                if (rows % SAMPLE_EVERY == 0) {
                    System.gc();
                    peakLive = Math.max(peakLive, runtime.totalMemory() - runtime.freeMemory());
                }
            }
        }
        assertTrue(peakLive <= LIVE_HEAP_LIMIT, "peak live heap " + peakLive / (1024 * 1024) + " MB while streaming exceeds "
                + LIVE_HEAP_LIMIT / (1024 * 1024) + " MB: rows are being retained");
        return new Digest(rows, idSum, crcSum);
    }

    /** Node n of {@code ds${0..1}.big_${0..1}}: the mod algorithm's node order. */
    private static String schemaOf(int node) {
        return schemas.get(node / 2);
    }

    private static String tableOf(int node) {
        return "big_" + (node % 2);
    }
}
