package io.shardwise.jmh;

import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A plan-cache hit, the path every repeated statement takes: normalize, cache lookup, route and
 * render each unit's SQL ({@link #hotPath}), and the same steps one by one so the cost splits
 * ({@link #normalize}, {@link #lookup}, {@link #route}). Each invocation takes the next of
 * {@value Workload#STATEMENTS} pre-built statements (Zipf keys); the cache holds every digest
 * before measurement starts. One thread: the targets (≤ 1 µs and ≤ 256 B per cache hit) are per core.
 *
 * <p>Hazard: {@link #route} reuses pre-normalized statements, whose literals cache their decoded
 * value after the first lap, so it leaves out key decoding that {@link #hotPath} pays every time.
 *
 * <p>Run (from the repository root; {@code -prof gc} adds bytes allocated per operation as
 * {@code gc.alloc.rate.norm}):
 * <pre>
 * ./mvnw -B -pl jmh -am verify -Pbench -Dbench.quick -Dbench.filter=HotPathBenchmark
 * # or, after that build, directly (java: the JDK 21+ the build used):
 * java -jar jmh/target/benchmarks.jar HotPathBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -t 1 -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 10, time = 2)
public class HotPathBenchmark {
    @Param({"sbtest_point", "small_point", "small_scatter", "heavy_scatter"})
    public String workload;

    private Pipeline pipeline;
    private String[] statements;
    private NormalizedSql[] normalized;
    private Pipeline.Plan[] plans;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = Workload.of(workload);
        pipeline = Pipeline.sample();
        statements = w.statements(42);
        normalized = new NormalizedSql[Workload.STATEMENTS];
        plans = new Pipeline.Plan[Workload.STATEMENTS];
        for (int i = 0; i < Workload.STATEMENTS; i++) {
            normalized[i] = Normalizer.normalize(statements[i]);
            plans[i] = pipeline.plan(normalized[i]);
            RoutePlan route = pipeline.run(statements[i]);
            if (route.kind() != w.expectedKind) {
                throw new IllegalStateException(workload + " routed " + route.kind() + ", expected " + w.expectedKind
                        + ":\n" + route.explain());
            }
        }
        if (pipeline.stats().entries() != 1) {
            throw new IllegalStateException(workload + " statements do not share one digest: " + pipeline.stats());
        }
    }

    private int next() {
        int i = next;
        next = (i + 1) & Workload.MASK;
        return i;
    }

    /** Normalize, cache hit, route and render: what a repeated statement costs before it reaches a backend. */
    @Benchmark
    public RoutePlan hotPath() {
        return pipeline.run(statements[next()]);
    }

    /** Lexing, digest hash and literal spans. */
    @Benchmark
    public NormalizedSql normalize() {
        return Normalizer.normalize(statements[next()]);
    }

    /** The plan cache probe of an already normalized statement (always a hit). */
    @Benchmark
    public Pipeline.Plan lookup() {
        return pipeline.plan(normalized[next()]);
    }

    /** Routing and rendering from a normalized statement and its cached plan (literal values already decoded). */
    @Benchmark
    public RoutePlan route() {
        int i = next();
        return pipeline.route(normalized[i], plans[i]);
    }
}
