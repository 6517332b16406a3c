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
 * <p>Over a configuration with no table rules ({@code norules_point}: sbtest1 whole on the default backend) the route is
 * what every execute did before the relay kept it per prepared statement; {@code norules_point_kept} is what it does
 * now ({@code EngineRelay.prepared}: the kept unit, checked against its plan and schema). {@code text_begin_commit}:
 * a text BEGIN or COMMIT as {@code EngineRelay.plan} read it before (normalized, its plan probed in the cache), and
 * {@code text_begin_commit_kept} as it reads it now ({@code EngineRelay.transactionControl}, an exact match).
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

    @Param({"point", "range_order", "range_distinct", "range_sum", "norules_point", "norules_point_kept", "text_begin_commit",
            "text_begin_commit_kept"})
    public String statement;

    private Pipeline pipeline;
    private NormalizedSql normalized;
    private Pipeline.Plan plan;
    private SourceText source;
    private List<List<Object>> values;
    private InlinedUnits inliner;
    private int next;
    /** The kept route's unit and what it is checked against ({@code PreparedTexts.Kept}). */
    private Object keptPlan;
    private String keptSchema;
    private List<ExecutionUnit> keptUnits;
    private String schema;
    private static final String[] TRANSACTION_TEXTS = {"BEGIN", "COMMIT"};

    @Setup(Level.Trial)
    public void setUp() {
        String sql = switch (statement) {
            case "point", "norules_point", "norules_point_kept" -> "SELECT c FROM sbtest1 WHERE id = ?";
            case "text_begin_commit", "text_begin_commit_kept" -> "BEGIN";
            case "range_order" -> "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c";
            case "range_distinct" -> "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c";
            case "range_sum" -> "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?";
            default -> throw new IllegalArgumentException(statement);
        };
        pipeline = statement.startsWith("norules") ? Pipeline.noRules() : Pipeline.sample();
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
        schema = new String("shop"); // the session's, another instance than the kept one's
        if (statement.startsWith("text")) {
            pipeline.plan(Normalizer.normalize("COMMIT")); // both plans cached, as after the session's thread ran them once
            return;
        }
        keptPlan = plan;
        keptSchema = "shop";
        keptUnits = route(values.get(0)).units();
        int units = ((List<?>) execute()).size();
        if (statement.contains("point") != (units == 1)) {
            throw new IllegalStateException(statement + " routed to " + units + " units");
        }
    }

    private RoutePlan route(List<Object> params) {
        return pipeline.router().route(plan.prepared(), new StatementBindings(normalized, params), source);
    }

    /** {@code EngineRelay.transactionControl}. */
    private static boolean transactionControl(String sql) {
        if (sql.length() > 17 || sql.length() < 5) {
            return false;
        }
        return switch (sql) {
            case "BEGIN", "COMMIT", "ROLLBACK", "START TRANSACTION", "begin", "commit", "rollback", "start transaction" -> true;
            default -> false;
        };
    }

    /** Route and render with this execution's values; a read spanning shards also gets its values written in. */
    @Benchmark
    public Object execute() {
        List<Object> params = values.get(next);
        next = (next + 1) & (VALUES - 1);
        switch (statement) {
            case "norules_point_kept" -> {
                if (keptPlan == plan && schema.equals(keptSchema)) {
                    return keptUnits;
                }
            }
            case "text_begin_commit" -> {
                NormalizedSql text = Normalizer.normalize(TRANSACTION_TEXTS[next & 1]);
                return pipeline.plan(text);
            }
            case "text_begin_commit_kept" -> {
                return transactionControl(TRANSACTION_TEXTS[next & 1]) ? null : pipeline.plan(Normalizer.normalize(TRANSACTION_TEXTS[next & 1]));
            }
            default -> { }
        }
        RoutePlan route = route(params);
        return route.units().size() > 1 ? inliner.of(route.units(), LexicalMode.DEFAULT) : route.units();
    }
}
