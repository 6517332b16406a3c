package io.shardwise.jmh.modes;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Both faces and a peer against the same statements and data, in one run: sysbench's point select
 * and point update, and a scatter over both shards with ORDER BY ... LIMIT, through
 * <ul>
 *   <li>{@code direct}: Connector/J straight to one database holding every row (the baseline);
 *   <li>{@code shardwise-jdbc}: the Shardwise driver on the sample layout (two databases);
 *   <li>{@code shardwise-server}: Connector/J to a Shardwise server started in this JVM on the same layout;
 *   <li>{@code shardingsphere-jdbc}: Apache ShardingSphere-JDBC 5.5, {@code sbtest1} sharded over two
 *       databases by id, loaded in its own class loader ({@link PeerClassLoader}).
 * </ul>
 * Every target is a HikariCP pool of {@value #POOL} in front of its driver, and every backend pool
 * behind Shardwise and ShardingSphere also holds {@value #POOL}; prepared statements are Connector/J's
 * defaults (client-side) everywhere. Backends: the test server (embedded MariaDB unless
 * SHARDWISE_TEST_MYSQL names one). Throughput; the suite runner runs this class at 1 and 8 threads and
 * reports each target as a ratio to direct.
 *
 * <p>Hazard: client, Shardwise, the peer and MariaDB share the machine's cores: ratios are far below
 * what separate hosts give, and more so at 8 threads.
 *
 * <p>Run: {@code java -jar jmh/target/benchmarks.jar ModesBenchmark -t 8 -p target=direct,shardwise-jdbc}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 3, time = 2)
public class ModesBenchmark {
    static final int POOL = 8;
    static final int ROWS = 1000;
    static final String POINT_SELECT = "SELECT c FROM sbtest1 WHERE id = ?";
    static final String POINT_UPDATE = "UPDATE sbtest1 SET k = k + 1 WHERE id = ?";
    static final String SCATTER = "SELECT id, k, c FROM sbtest1 WHERE k >= ? ORDER BY k, id LIMIT 10";

    @Param({"direct", "shardwise-jdbc", "shardwise-server", "shardingsphere-jdbc"})
    public String target;

    private Targets.Opened opened;
    private HikariDataSource pool;
    /** The context class loader the target's calls need (the peer's), or null. */
    ClassLoader contextLoader;

    /** Sets the peer's context class loader on each benchmark thread once, outside the measured calls. */
    @State(Scope.Thread)
    public static class Caller {
        @Setup(Level.Trial)
        public void bind(ModesBenchmark benchmark) {
            if (benchmark.contextLoader != null) {
                Thread.currentThread().setContextClassLoader(benchmark.contextLoader);
            }
        }
    }

    @Setup(Level.Trial)
    public void start() throws Exception {
        opened = Targets.open(target, POOL);
        pool = opened.pool();
        contextLoader = opened.contextLoader();
        ClassLoader previous = Thread.currentThread().getContextClassLoader();
        if (contextLoader != null) {
            Thread.currentThread().setContextClassLoader(contextLoader);
        }
        try {
            check();
        } finally {
            Thread.currentThread().setContextClassLoader(previous);
        }
    }

    /** Each statement once, with a known answer, so a broken target fails here instead of measuring errors. */
    private void check() throws SQLException {
        if (pointSelect(1) == null) {
            throw new IllegalStateException(target + ": no row for id 1");
        }
        if (pointUpdate(1) != 1) {
            throw new IllegalStateException(target + ": the update of id 1 did not match one row");
        }
        if (scatter(1) != 10) {
            throw new IllegalStateException(target + ": the scatter did not return 10 rows");
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        if (opened != null) {
            Targets.release(opened);
        }
    }

    @Benchmark
    public String pointSelect(Caller caller) throws SQLException {
        return pointSelect(1 + ThreadLocalRandom.current().nextInt(ROWS));
    }

    @Benchmark
    public int pointUpdate(Caller caller) throws SQLException {
        return pointUpdate(1 + ThreadLocalRandom.current().nextInt(ROWS));
    }

    /** Reads all ten rows; returns how many came back. */
    @Benchmark
    public int scatterOrderLimit(Caller caller) throws SQLException {
        // k is uniform over 1..ROWS, so starting in the lower 90 % leaves at least ten rows to return
        return scatter(1 + ThreadLocalRandom.current().nextInt(ROWS * 9 / 10));
    }

    private String pointSelect(int id) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(POINT_SELECT)) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private int pointUpdate(int id) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(POINT_UPDATE)) {
            ps.setInt(1, id);
            return ps.executeUpdate();
        }
    }

    private int scatter(int k) throws SQLException {
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(SCATTER)) {
            ps.setInt(1, k);
            int rows = 0;
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows += rs.getString(3).isEmpty() ? 0 : 1;
                }
            }
            return rows;
        }
    }
}
