package io.shardwise.jmh.proxy;

import io.shardwise.jmh.proxy.Results.SlapRun;
import io.shardwise.jmh.report.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * HSCALE's component table from mysqlslap runs: seconds per run of all queries at each
 * concurrency, and what each path adds per query over direct and over the relay. "Added per query"
 * is HSCALE's measure: the extra wall time of the run divided by the number of queries. Each client
 * runs its share of the queries one after another, so the mean time a client waits for one query is
 * {@code seconds × concurrency / queries}; that is the latency charted.
 */
final class HscaleReport {
    private HscaleReport() {}

    static Table table(List<SlapRun> runs, int queries, Path pngBase) {
        Map<Integer, Map<Variant, SlapRun>> steps = bySteps(runs);
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<Integer, Map<Variant, SlapRun>> step : steps.entrySet()) {
            double direct = seconds(step.getValue().get(Variant.DIRECT));
            double relay = seconds(step.getValue().get(Variant.RELAY));
            for (Map.Entry<Variant, SlapRun> e : step.getValue().entrySet()) {
                Variant v = e.getKey();
                double s = seconds(e.getValue());
                rows.add(List.of(Integer.toString(step.getKey()), v.label,
                        e.getValue().ok() ? Results.fixed(s, 3) : "**failed**",
                        Results.fixed(queries / s, 0),
                        v == Variant.DIRECT ? "" : Results.fixed(addedMs(s, direct, queries), 3),
                        v == Variant.DIRECT || v == Variant.RELAY ? "" : Results.fixed(addedMs(s, relay, queries), 3),
                        v == Variant.DIRECT || v == Variant.RELAY ? "" : Results.percent(relay, s)));
            }
        }
        charts(steps, queries, pngBase);
        String png = pngBase.getFileName().toString();
        return new Table("mysqlslap, " + String.format("%,d", queries) + " queries per run",
                "Seconds are mysqlslap's \"average number of seconds to run all queries\" over the iterations. "
                        + "\"ms added per query\" = (seconds − baseline seconds) × 1000 / queries; "
                        + "\"% of relay\" = the relay's seconds / this path's seconds (throughput as a share of the relay's).\n\n"
                        + "![queries per second](" + png + "-qps.png) ![latency](" + png + "-latency.png)",
                List.of("concurrency", "variant", "seconds per run", "queries/s", "ms added per query vs direct",
                        "ms added per query vs relay", "% of relay"), rows);
    }

    static double addedMs(double seconds, double baseline, int queries) {
        return (seconds - baseline) * 1000 / queries;
    }

    static Map<Integer, Map<Variant, SlapRun>> bySteps(List<SlapRun> runs) {
        Map<Integer, Map<Variant, SlapRun>> steps = new TreeMap<>();
        for (SlapRun r : runs) {
            steps.computeIfAbsent(r.concurrency(), k -> new TreeMap<>()).put(Variant.of(r.variant()), r);
        }
        return steps;
    }

    static double seconds(SlapRun run) {
        return run == null || !run.ok() ? Double.NaN : run.seconds();
    }

    private static void charts(Map<Integer, Map<Variant, SlapRun>> steps, int queries, Path pngBase) {
        TreeSet<Variant> variants = new TreeSet<>();
        steps.values().forEach(m -> variants.addAll(m.keySet()));
        List<Charts.Line> qps = new ArrayList<>();
        List<Charts.Line> latency = new ArrayList<>();
        for (Variant v : variants) {
            List<Double> x = new ArrayList<>();
            List<Double> q = new ArrayList<>();
            List<Double> l = new ArrayList<>();
            for (Map.Entry<Integer, Map<Variant, SlapRun>> step : steps.entrySet()) {
                double s = seconds(step.getValue().get(v));
                x.add((double) step.getKey());
                q.add(queries / s);
                l.add(s * 1000 * step.getKey() / queries);
            }
            qps.add(new Charts.Line(v.label, v.ordinal(), false, x, q));
            latency.add(new Charts.Line(v.label, v.ordinal(), false, x, l));
        }
        Path dir = pngBase.toAbsolutePath().getParent();
        String base = pngBase.getFileName().toString();
        Charts.write(dir.resolve(base + "-qps.png"), "HSCALE query (mysqlslap): queries per second", "concurrency", "queries/s",
                true, false, qps);
        Charts.write(dir.resolve(base + "-latency.png"), "HSCALE query (mysqlslap): mean time per query per client",
                "concurrency", "ms", true, true, latency);
    }
}
