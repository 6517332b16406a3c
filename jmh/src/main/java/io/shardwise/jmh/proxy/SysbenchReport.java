package io.shardwise.jmh.proxy;

import io.shardwise.jmh.proxy.Results.SysbenchRun;
import io.shardwise.jmh.report.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * Tables and charts of the sysbench experiments (kingshard's report, its pool sweep, the
 * concurrency sweep): per step (threads, or pool size) and variant, the throughput, average and
 * p95 latency, and throughput as a share of direct and of the relay at the same step.
 */
final class SysbenchReport {
    /** What one series of runs is stepped over. */
    enum Axis {
        THREADS("threads", SysbenchRun::threads), POOL("backend pool size", SysbenchRun::pool);

        final String title;
        final ToIntFunction<SysbenchRun> key;

        Axis(String title, ToIntFunction<SysbenchRun> key) {
            this.title = title;
            this.key = key;
        }
    }

    private SysbenchReport() {}

    /**
     * The table of one test and, next to {@code pngBase}, {@code -qps.png} (or {@code -tps.png}) and
     * {@code -latency.png}. {@code tps} selects transactions per second instead of queries per second.
     */
    static Table test(String title, String note, List<SysbenchRun> runs, Axis axis, boolean tps, Path pngBase) {
        String rate = tps ? "TPS" : "QPS";
        ToDoubleFunction<SysbenchRun> rateOf = tps ? SysbenchRun::tps : SysbenchRun::qps;
        Map<Integer, Map<Variant, SysbenchRun>> steps = bySteps(runs, axis);
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<Integer, Map<Variant, SysbenchRun>> step : steps.entrySet()) {
            double direct = rate(step.getValue().get(Variant.DIRECT), rateOf);
            double relay = rate(step.getValue().get(Variant.RELAY), rateOf);
            for (Map.Entry<Variant, SysbenchRun> e : step.getValue().entrySet()) {
                SysbenchRun r = e.getValue();
                double value = rate(r, rateOf);
                rows.add(List.of(Integer.toString(step.getKey()), e.getKey().label,
                        r.ok() ? Results.fixed(value, 0) : "**failed**",
                        Results.fixed(r.avgMs(), 2), Results.fixed(r.p95Ms(), 2),
                        e.getKey() == Variant.DIRECT ? "" : Results.percent(value, direct),
                        e.getKey() == Variant.DIRECT || e.getKey() == Variant.RELAY ? "" : Results.percent(value, relay),
                        r.errors() > 0 ? Long.toString(r.errors()) : ""));
            }
        }
        charts(title, steps, axis, rate, rateOf, pngBase);
        String pngName = pngBase.getFileName().toString();
        String charts = "![" + rate + "](" + pngName + "-" + rate.toLowerCase() + ".png) ![latency](" + pngName + "-latency.png)";
        return new Table(title, (note.isEmpty() ? "" : note + "\n\n") + charts,
                List.of(axis.title, "variant", rate, "avg ms", "p95 ms", "% of direct", "% of relay", "ignored errors"), rows);
    }

    /** Peak and last-step throughput per variant: where each peaks and whether it collapses after. */
    static Table peaks(String title, List<SysbenchRun> runs, boolean tps) {
        ToDoubleFunction<SysbenchRun> rateOf = tps ? SysbenchRun::tps : SysbenchRun::qps;
        Map<Integer, Map<Variant, SysbenchRun>> steps = bySteps(runs, Axis.THREADS);
        List<List<String>> rows = new ArrayList<>();
        for (Variant v : Variant.values()) {
            double peak = Double.NaN;
            int at = 0;
            double last = Double.NaN;
            int lastAt = 0;
            for (Map.Entry<Integer, Map<Variant, SysbenchRun>> step : steps.entrySet()) {
                SysbenchRun r = step.getValue().get(v);
                if (r == null) {
                    continue;
                }
                double value = rate(r, rateOf);
                lastAt = step.getKey();
                last = value;
                if (!Double.isNaN(value) && (Double.isNaN(peak) || value > peak)) {
                    peak = value;
                    at = step.getKey();
                }
            }
            if (lastAt > 0) {
                rows.add(List.of(v.label, Results.fixed(peak, 0), Integer.toString(at), Results.fixed(last, 0),
                        Integer.toString(lastAt), Results.percent(last, peak)));
            }
        }
        String rate = tps ? "TPS" : "QPS";
        return new Table(title, "", List.of("variant", "peak " + rate, "at threads", "last " + rate, "at threads", "last / peak"), rows);
    }

    /** The step's runs per variant, variants in report order, steps ascending. */
    static Map<Integer, Map<Variant, SysbenchRun>> bySteps(List<SysbenchRun> runs, Axis axis) {
        Map<Integer, Map<Variant, SysbenchRun>> steps = new TreeMap<>();
        for (SysbenchRun r : runs) {
            steps.computeIfAbsent(axis.key.applyAsInt(r), k -> new TreeMap<>()).put(Variant.of(r.variant()), r);
        }
        return steps;
    }

    static Optional<Double> ratio(List<SysbenchRun> runs, int threads, Variant of, Variant to) {
        Map<Variant, SysbenchRun> step = bySteps(runs, Axis.THREADS).get(threads);
        if (step == null || step.get(of) == null || step.get(to) == null) {
            return Optional.empty();
        }
        double a = rate(step.get(of), SysbenchRun::qps);
        double b = rate(step.get(to), SysbenchRun::qps);
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? Optional.empty() : Optional.of(a / b);
    }

    private static double rate(SysbenchRun run, ToDoubleFunction<SysbenchRun> rateOf) {
        return run == null || !run.ok() ? Double.NaN : rateOf.applyAsDouble(run);
    }

    private static void charts(String title, Map<Integer, Map<Variant, SysbenchRun>> steps, Axis axis, String rate,
                               ToDoubleFunction<SysbenchRun> rateOf, Path pngBase) {
        TreeSet<Variant> variants = new TreeSet<>();
        steps.values().forEach(m -> variants.addAll(m.keySet()));
        List<Charts.Line> rates = new ArrayList<>();
        List<Charts.Line> latencies = new ArrayList<>();
        for (Variant v : variants) {
            List<Double> x = new ArrayList<>();
            List<Double> r = new ArrayList<>();
            List<Double> avg = new ArrayList<>();
            List<Double> p95 = new ArrayList<>();
            for (Map.Entry<Integer, Map<Variant, SysbenchRun>> step : steps.entrySet()) {
                SysbenchRun run = step.getValue().get(v);
                x.add((double) step.getKey());
                r.add(rate(run, rateOf));
                avg.add(run == null || !run.ok() ? Double.NaN : run.avgMs());
                p95.add(run == null || !run.ok() ? Double.NaN : run.p95Ms());
            }
            rates.add(new Charts.Line(v.label, v.ordinal(), false, x, r));
            latencies.add(new Charts.Line(v.label + " avg", v.ordinal(), false, x, avg));
            latencies.add(new Charts.Line(v.label + " p95", v.ordinal(), true, x, p95));
        }
        Path dir = pngBase.toAbsolutePath().getParent();
        String base = pngBase.getFileName().toString();
        Charts.write(dir.resolve(base + "-" + rate.toLowerCase() + ".png"), title + ": " + rate, axis.title, rate, true, false, rates);
        Charts.write(dir.resolve(base + "-latency.png"), title + ": latency (avg solid, p95 dashed)", axis.title, "ms", true, true, latencies);
    }
}
