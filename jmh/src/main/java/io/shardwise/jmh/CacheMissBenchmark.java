package io.shardwise.jmh;

import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.analyze.Analyzer;
import io.shardwise.core.sql.analyze.Statement;
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
 * A plan-cache miss: {@link #analyze} is the analyzer on a digest (lexing, Calcite parse, table and
 * key-condition extraction, template and merge shape), which runs once per distinct digest;
 * {@link #missPath} is the whole chain with no cache (normalize, analyze, route), what a statement
 * costs when its digest is not cached, for instance one that never repeats. Statements as in
 * {@link HotPathBenchmark}, plus a GROUP BY / ORDER BY / LIMIT scatter.
 *
 * <p>Hazard: these need a long warm-up (Calcite's parser is large; with 5 s of warm-up the
 * times still fell 2-7x during measurement on a 2-core machine), so {@code -Dbench.quick} figures
 * for this class are not steady state.
 *
 * <p>Run (from the repository root):
 * <pre>
 * ./mvnw -B -pl jmh -am verify -Pbench -Dbench.filter=CacheMissBenchmark
 * # or, after a -Pbench build, directly (java: the JDK 21+ the build used):
 * java -jar jmh/target/benchmarks.jar CacheMissBenchmark -f 1 -wi 10 -w 2s -i 8 -r 1s -t 1 -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
// Calcite's parser takes C2 far longer to settle than the hot path: 10 s of warm-up at least
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 10, time = 2)
public class CacheMissBenchmark {
    @Param({"sbtest_point", "small_point", "small_scatter", "heavy_scatter"})
    public String workload;

    private Pipeline pipeline;
    private Analyzer analyzer;
    private String[] statements;
    private String digest;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        Workload w = Workload.of(workload);
        pipeline = Pipeline.sample();
        analyzer = pipeline.analyzer();
        statements = w.statements(42);
        digest = Normalizer.normalize(statements[0]).digest();
        RoutePlan route = missPath();
        if (route.kind() != w.expectedKind) {
            throw new IllegalStateException(workload + " routed " + route.kind() + ", expected " + w.expectedKind);
        }
    }

    /** Analysis of the statements' one digest (every statement of a workload shares it). */
    @Benchmark
    public Statement analyze() {
        return analyzer.analyze(digest);
    }

    /** Normalize, analyze and route, bypassing the cache. */
    @Benchmark
    public RoutePlan missPath() {
        String sql = statements[next];
        next = (next + 1) & Workload.MASK;
        NormalizedSql normalized = Normalizer.normalize(sql);
        Pipeline.Plan plan = new Pipeline.Plan(pipeline.router().prepare(analyzer.analyze(normalized.digest())),
                normalized.digestTokenOffsets());
        return pipeline.route(normalized, plan);
    }
}
