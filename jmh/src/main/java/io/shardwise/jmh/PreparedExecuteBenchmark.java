package io.shardwise.jmh;

import io.shardwise.core.StatementBindings;
import io.shardwise.core.execute.InlinedUnits;
import io.shardwise.core.rewrite.SourceText;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.List;
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
 * One COM_STMT_EXECUTE of a prepared statement on the sharded sample (sysbench's {@code sbtest1}, hashed by id), as the
 * server's relay plans it ({@code EngineRelay.prepared}) once the statement's text is read and its plan cached: route
 * with this execution's values, and, for a read spanning shards, the units' values written into their text for the
 * native connections ({@code ExecutionSession.inlined}). Each invocation takes the next of 1024 value lists.
 *
 * <p>Read {@code -prof gc}'s {@code gc.alloc.rate.norm} (bytes per execute); ns/op only on a quiet machine.
 * <pre>
 * java -jar jmh/target/benchmarks.jar PreparedExecuteBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -t 1 -prof gc
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class PreparedExecuteBenchmark {
    private static final int VALUES = 1024;

    @Param({"point", "range_order", "range_distinct", "range_sum"})
    public String statement;

    private Pipeline pipeline;
    private NormalizedSql normalized;
    private Pipeline.Plan plan;
    private SourceText source;
    private List<List<Object>> values;
    private InlinedUnits inliner;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        String sql = switch (statement) {
            case "point" -> "SELECT c FROM sbtest1 WHERE id = ?";
            case "range_order" -> "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c";
            case "range_distinct" -> "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c";
            case "range_sum" -> "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?";
            default -> throw new IllegalArgumentException(statement);
        };
        pipeline = Pipeline.sample();
        normalized = Normalizer.normalize(sql);
        plan = pipeline.plan(normalized);
        source = SourceText.original(normalized, plan.digestTokenOffsets());
        inliner = new InlinedUnits();
        java.util.Random random = new java.util.Random(42);
        values = new java.util.ArrayList<>(VALUES);
        for (int i = 0; i < VALUES; i++) {
            long from = 1 + random.nextInt(100_000);
            values.add(normalized.parameterCount() == 1 ? List.of(from) : List.of(from, from + 99));
        }
        int units = execute().size();
        if (statement.equals("point") != (units == 1)) {
            throw new IllegalStateException(statement + " routed to " + units + " units");
        }
    }

    /** Route and render with this execution's values; a read spanning shards also gets its values written in. */
    @Benchmark
    public List<ExecutionUnit> execute() {
        List<Object> params = values.get(next);
        next = (next + 1) & (VALUES - 1);
        RoutePlan route = pipeline.router().route(plan.prepared(), new StatementBindings(normalized, params), source);
        return route.units().size() > 1 ? inliner.of(route.units(), LexicalMode.DEFAULT) : route.units();
    }
}
