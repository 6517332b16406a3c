package io.shardwise.jmh;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

/**
 * JDBC mode: sysbench's point select and point update through the Shardwise driver against the
 * sharded sample, and through HikariCP + Connector/J straight to one backend database holding the
 * same data; the same pool size (8) for both, side by side in one run. Backends: embedded MariaDB,
 * started in the fork. Throughput; the ratio shardwise-jdbc / direct is what to read.
 *
 * <p>One thread and eight in one run: {@code pointSelect} and {@code pointUpdate} run on the threads
 * JMH is given ({@code -t 1} under {@code -Pbench}), {@code pointSelect8} and {@code pointUpdate8}
 * are groups of eight threads, which JMH keeps at eight whatever {@code -t} asks for below that.
 * Each operation borrows a pooled connection and prepares its statement, as a web request does.
 *
 * <p>{@code target=paired} holds both pools in one trial and sends each operation to one of them at
 * random, timing each: both see the same machine at the same moments, so their ratio stands on a
 * shared, noisy machine where the separate trials of {@code direct} and {@code shardwise-jdbc},
 * minutes apart, do not. It prints the ratio (direct mean time / Shardwise mean time, that is
 * Shardwise throughput as a fraction of direct) after every iteration and for the whole trial; its
 * JMH score is the mixed throughput and means little on its own.
 *
 * <p>Run: {@code ./mvnw -pl jmh -am verify -Pbench -Dbench.filter=JdbcBenchmark}, or after a
 * {@code -Pbench} build {@code java -jar jmh/target/benchmarks.jar JdbcBenchmark -t 1 -f 1 -wi 3 -w 3s -i 5 -r 3s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
public class JdbcBenchmark {
    private static final int ROWS = 1000;
    private static final int POOL = 8;
    private static final Pattern ENV = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)(?::-([^}]*))?}");
    private static final int HISTOGRAM_MICROS = 20_000;
    private static final String SELECT = "SELECT c FROM sbtest1 WHERE id = ?";
    private static final String UPDATE = "UPDATE sbtest1 SET k = k + 1 WHERE id = ?";

    @Param({"direct", "shardwise-jdbc", "paired"})
    public String target;

    private MysqlServer server;
    private SampleTarget sample;
    private HikariDataSource direct;
    private HikariDataSource shardwise;
    private boolean paired;
    /** Paired mode: nanoseconds and operations per side, this iteration and the whole trial. */
    private final LongAdder directNanos = new LongAdder();
    private final LongAdder directOps = new LongAdder();
    private final LongAdder shardwiseNanos = new LongAdder();
    private final LongAdder shardwiseOps = new LongAdder();
    /** Paired mode: per-operation times in microsecond buckets, for medians that a descheduled operation cannot skew. */
    private final AtomicLongArray directMicros = new AtomicLongArray(HISTOGRAM_MICROS);
    private final AtomicLongArray shardwiseMicros = new AtomicLongArray(HISTOGRAM_MICROS);
    private final List<Double> medianRatios = new ArrayList<>();
    private double trialDirectNanos;
    private double trialDirectOps;
    private double trialShardwiseNanos;
    private double trialShardwiseOps;

    @Setup(Level.Trial)
    public void start() throws Exception {
        server = TestBackends.shared();
        sample = new SampleTarget(server.host(), server.port(), server.user(), server.password(), TestBackends.uniqueSchemaName("bench"));
        paired = target.equals("paired");
        if (paired || target.equals("direct")) {
            String whole = sample.databasePrefix() + "_whole";
            SampleData.loadUnsharded(sample, whole);
            HikariConfig config = poolConfig(server.jdbcUrl(whole));
            config.setUsername(server.user());
            config.setPassword(server.password());
            direct = new HikariDataSource(config);
        }
        if (paired || target.equals("shardwise-jdbc")) {
            SampleData.loadSharded(SampleData.rule(sample));
            Path file = Files.createTempFile("shardwise-bench", ".yaml");
            Files.writeString(file, substitute(SampleData.configYaml()));
            file.toFile().deleteOnExit();
            shardwise = new HikariDataSource(poolConfig("jdbc:shardwise:" + file));
        }
    }

    private static HikariConfig poolConfig(String url) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(POOL);
        config.setMinimumIdle(POOL);
        return config;
    }

    /** The sample configuration with its environment references filled for this server. */
    private String substitute(String yaml) {
        Matcher m = ENV.matcher(yaml);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "SHARDWISE_SAMPLE_HOST" -> sample.host();
                case "SHARDWISE_SAMPLE_PORT" -> Integer.toString(sample.port());
                case "SHARDWISE_SAMPLE_DB" -> sample.databasePrefix();
                case "SHARDWISE_SAMPLE_USER" -> sample.user();
                case "SHARDWISE_SAMPLE_PASSWORD" -> sample.password();
                default -> m.group(2) == null ? "" : m.group(2);
            };
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    @TearDown(Level.Iteration)
    public void iterationRatio(IterationParams iteration) {
        if (paired) {
            boolean measured = iteration.getType() == IterationType.MEASUREMENT;
            double dn = directNanos.sumThenReset();
            double dops = directOps.sumThenReset();
            double sn = shardwiseNanos.sumThenReset();
            double sops = shardwiseOps.sumThenReset();
            if (measured) { // warm-up iterations are printed, not counted
                trialDirectNanos += dn;
                trialDirectOps += dops;
                trialShardwiseNanos += sn;
                trialShardwiseOps += sops;
            }
            long dm = median(directMicros);
            long sm = median(shardwiseMicros);
            if (measured) {
                medianRatios.add((double) dm / sm);
            }
            System.out.printf("%n  paired%s: direct %.1f us/op (median %d, %.0f ops), shardwise-jdbc %.1f us/op"
                            + " (median %d, %.0f ops), ratio %.3f (of medians %.3f)%n", measured ? "" : " (warm-up)",
                    dn / dops / 1000, dm, dops, sn / sops / 1000, sm, sops, (dn / dops) / (sn / sops), (double) dm / sm);
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        if (paired) {
            Collections.sort(medianRatios);
            System.out.printf("%n  paired trial: direct %.1f us/op, shardwise-jdbc %.1f us/op, ratio shardwise/direct %.3f;"
                            + " per-iteration ratios of medians %s, median %.3f%n",
                    trialDirectNanos / trialDirectOps / 1000, trialShardwiseNanos / trialShardwiseOps / 1000,
                    (trialDirectNanos / trialDirectOps) / (trialShardwiseNanos / trialShardwiseOps),
                    medianRatios.stream().map(r -> String.format("%.2f", r)).toList(), medianRatios.get(medianRatios.size() / 2));
        }
        for (HikariDataSource pool : new HikariDataSource[] {direct, shardwise}) {
            if (pool != null) {
                pool.close();
            }
        }
        for (String db : new String[] {sample.databasePrefix() + "_whole", sample.databasePrefix() + "_0", sample.databasePrefix() + "_1"}) {
            server.dropSchema(db);
        }
    }

    @Benchmark
    public String pointSelect() throws SQLException {
        if (!paired) {
            return select(direct != null ? direct : shardwise);
        }
        boolean viaShardwise = ThreadLocalRandom.current().nextBoolean();
        long t0 = System.nanoTime();
        String c = select(viaShardwise ? shardwise : direct);
        record(viaShardwise, System.nanoTime() - t0);
        return c;
    }

    @Benchmark
    @Group("pointSelect8")
    @GroupThreads(8)
    public String pointSelect8() throws SQLException {
        return pointSelect();
    }

    @Benchmark
    public int pointUpdate() throws SQLException {
        if (!paired) {
            return update(direct != null ? direct : shardwise);
        }
        boolean viaShardwise = ThreadLocalRandom.current().nextBoolean();
        long t0 = System.nanoTime();
        int n = update(viaShardwise ? shardwise : direct);
        record(viaShardwise, System.nanoTime() - t0);
        return n;
    }

    @Benchmark
    @Group("pointUpdate8")
    @GroupThreads(8)
    public int pointUpdate8() throws SQLException {
        return pointUpdate();
    }

    private void record(boolean viaShardwise, long nanos) {
        (viaShardwise ? shardwiseNanos : directNanos).add(nanos);
        (viaShardwise ? shardwiseOps : directOps).increment();
        (viaShardwise ? shardwiseMicros : directMicros).incrementAndGet((int) Math.min(HISTOGRAM_MICROS - 1, nanos / 1000));
    }

    /** The median bucket, emptying the histogram for the next iteration. */
    private static long median(AtomicLongArray micros) {
        long[] counts = new long[micros.length()];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = micros.getAndSet(i, 0);
            total += counts[i];
        }
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen * 2 >= total && total > 0) {
                return i;
            }
        }
        return -1;
    }

    private static String select(HikariDataSource pool) throws SQLException {
        int id = 1 + ThreadLocalRandom.current().nextInt(ROWS);
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(SELECT)) {
            ps.setInt(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static int update(HikariDataSource pool) throws SQLException {
        int id = 1 + ThreadLocalRandom.current().nextInt(ROWS);
        try (Connection c = pool.getConnection(); PreparedStatement ps = c.prepareStatement(UPDATE)) {
            ps.setInt(1, id);
            return ps.executeUpdate();
        }
    }
}
