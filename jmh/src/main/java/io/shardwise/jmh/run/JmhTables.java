package io.shardwise.jmh.run;

import io.shardwise.jmh.report.Table;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** JMH results as the report's tables: the engine's stages and merges per operation, the modes as ratios to direct. */
final class JmhTables {
    static final String MODES = "io.shardwise.jmh.modes.ModesBenchmark.";
    static final List<String> TARGETS = List.of("direct", "shardwise-jdbc", "shardwise-server", "shardingsphere-jdbc");

    private JmhTables() {}

    static List<Table> of(Collection<RunResult> results) {
        List<RunResult> engine = new ArrayList<>();
        List<RunResult> modes = new ArrayList<>();
        for (RunResult r : results) {
            (r.getParams().getBenchmark().startsWith(MODES) ? modes : engine).add(r);
        }
        List<Table> tables = new ArrayList<>();
        if (!engine.isEmpty()) {
            tables.add(engine(engine));
        }
        if (!modes.isEmpty()) {
            tables.add(modes(modes));
            tables.add(modesAllocation(modes));
        }
        return tables;
    }

    private static Table engine(List<RunResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (RunResult r : results) {
            Result<?> primary = r.getPrimaryResult();
            String workload = r.getParams().getParam("workload");
            rows.add(List.of("`" + shortName(r) + "`", workload == null ? "" : workload,
                    scored(primary), primary.getScoreUnit(), allocation(r)));
        }
        return new Table("Engine: cache hit, cache miss, merge (one thread, no backend)",
                "`HotPathBenchmark.hotPath` is a plan-cache hit (normalize + lookup + route + render), the other `HotPathBenchmark` rows"
                        + " its stages; `CacheMissBenchmark.missPath` the same with analysis (Calcite) and no cache. `MergeBenchmark` rows are"
                        + " per input row: 8 units of 1024 rows, merged and read to the end. Time ± JMH's 99.9 % interval; B/op is"
                        + " `gc.alloc.rate.norm`, bytes allocated per operation (exact whatever the load).",
                List.of("benchmark", "workload", "time", "unit", "B/op"), rows);
    }

    /** One row per statement and thread count; each target's throughput and its ratio to direct. */
    private static Table modes(List<RunResult> results) {
        Map<String, Map<String, RunResult>> rows = byStatementAndThreads(results);
        List<String> headers = new ArrayList<>(List.of("statement", "threads"));
        for (String t : TARGETS) {
            headers.add(t + (t.equals("direct") ? " ops/s" : " ops/s (× direct)"));
        }
        List<List<String>> cells = new ArrayList<>();
        for (Map.Entry<String, Map<String, RunResult>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\t");
            RunResult direct = row.getValue().get("direct");
            List<String> line = new ArrayList<>(List.of("`" + key[0] + "`", key[1]));
            for (String t : TARGETS) {
                RunResult r = row.getValue().get(t);
                if (r == null) {
                    line.add("not run");
                    continue;
                }
                double score = r.getPrimaryResult().getScore();
                String text = scored(r.getPrimaryResult());
                if (direct != null && !t.equals("direct")) {
                    text += String.format(Locale.ROOT, " (**%.2f×**)", score / direct.getPrimaryResult().getScore());
                }
                line.add(text);
            }
            cells.add(line);
        }
        return new Table("JDBC and server mode against direct (`ModesBenchmark`)",
                "Operations per second through a HikariCP pool of 8 per target (backend pools of 8 behind Shardwise and"
                        + " ShardingSphere), ± JMH's 99.9 % interval; in parentheses the ratio to `direct` (Connector/J straight to one"
                        + " database holding every row) in the same run. Client, middleware and MariaDB share the machine's cores.",
                headers, cells);
    }

    /** Bytes per statement, same rows as {@link #modes}: exact whatever the load, unlike the times. */
    private static Table modesAllocation(List<RunResult> results) {
        Map<String, Map<String, RunResult>> rows = byStatementAndThreads(results);
        List<String> headers = new ArrayList<>(List.of("statement", "threads"));
        for (String t : TARGETS) {
            headers.add(t + " B/op");
        }
        List<List<String>> cells = new ArrayList<>();
        for (Map.Entry<String, Map<String, RunResult>> row : rows.entrySet()) {
            String[] key = row.getKey().split("\t");
            List<String> line = new ArrayList<>(List.of("`" + key[0] + "`", key[1]));
            for (String t : TARGETS) {
                RunResult r = row.getValue().get(t);
                line.add(r == null ? "not run" : allocation(r));
            }
            cells.add(line);
        }
        return new Table("Allocation per statement, JDBC and server mode",
                "Bytes allocated in the benchmark's JVM per statement (`gc.alloc.rate.norm`): the client's Connector/J and"
                        + " HikariCP for every target, plus the driver's work (`shardwise-jdbc`, `shardingsphere-jdbc`: their"
                        + " own backend connections too) or the in-process server's (`shardwise-server`). Not affected by load.",
                headers, cells);
    }

    private static Map<String, Map<String, RunResult>> byStatementAndThreads(List<RunResult> results) {
        Map<String, Map<String, RunResult>> rows = new LinkedHashMap<>();
        for (RunResult r : results) {
            String key = shortName(r).substring("ModesBenchmark.".length()) + "\t" + r.getParams().getThreads();
            rows.computeIfAbsent(key, k -> new LinkedHashMap<>()).put(r.getParams().getParam("target"), r);
        }
        return rows;
    }

    private static String shortName(RunResult r) {
        String name = r.getParams().getBenchmark();
        int method = name.lastIndexOf('.');
        return name.substring(name.lastIndexOf('.', method - 1) + 1);
    }

    private static String allocation(RunResult r) {
        for (Map.Entry<String, Result> e : r.getSecondaryResults().entrySet()) {
            if (e.getKey().endsWith("gc.alloc.rate.norm")) {
                return String.format(Locale.ROOT, "%.0f", e.getValue().getScore());
            }
        }
        return "n/a";
    }

    /** The score ± its 99.9 % interval; a single iteration has no interval, and shows none. */
    private static String scored(Result<?> result) {
        double error = result.getScoreError();
        return number(result.getScore()) + (Double.isNaN(error) ? "" : " ± " + number(error));
    }

    /** Three significant digits at most, no exponent: 0.123, 12.3, 1234. */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String pattern = a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f" : "%.3f";
        return String.format(Locale.ROOT, pattern, v);
    }
}
