package io.shardwise.jmh.proxy;

import io.shardwise.jmh.proxy.Results.SlapRun;
import io.shardwise.jmh.proxy.Results.SysbenchRun;
import io.shardwise.jmh.report.Environment;
import io.shardwise.jmh.report.Report;
import io.shardwise.jmh.report.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns one proxy experiment's raw results (written by {@code jmh/proxy-bench} into its work
 * directory) into {@code docs/benchmarks/proxy-<experiment>.md} and its PNG charts. Only the part
 * between the generated markers is replaced, so notes written around it survive a rerun.
 *
 * <p>Usage: {@code ProxyReport hscale|kingshard|concurrency|connect|profile WORK_DIR OUT_DIR COMMAND}. The work
 * directory holds {@code settings.properties} ({@code version.X} lines are the versions measured)
 * and {@code <experiment>.csv} (kingshard also {@code pool.csv}; profile also {@code profile.jfr}).
 */
public final class ProxyReport {
    static final double RELAY_TARGET = 0.85;
    static final double ADDED_MS_TARGET = 0.05;

    private ProxyReport() {}

    /** The recorded run's statement count (sysbench's "queries:" total, which the script writes), 0 when unknown. */
    static long profiledQueries(Path work) {
        Path counted = work.resolve("profile.queries");
        try {
            return Files.exists(counted) ? Long.parseLong(Files.readString(counted).trim()) : 0;
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: ProxyReport hscale|kingshard|concurrency|connect|profile WORK_DIR OUT_DIR COMMAND");
            System.exit(2);
        }
        String experiment = args[0];
        Path work = Path.of(args[1]);
        Path out = Path.of(args[2]);
        Map<String, String> settings = Results.settings(work.resolve("settings.properties"));
        List<Table> tables = new ArrayList<>();
        tables.add(settingsTable(settings));
        String title = switch (experiment) {
            case "hscale" -> {
                int queries = Integer.parseInt(settings.get("queries"));
                List<SlapRun> runs = Results.slap(work.resolve("hscale.csv"));
                tables.add(HscaleReport.table(runs, queries, out.resolve("proxy-hscale")));
                tables.add(Targets.hscale(runs, queries));
                yield "HSCALE's component table (mysqlslap)";
            }
            case "kingshard" -> {
                List<SysbenchRun> runs = Results.sysbench(work.resolve("kingshard.csv"));
                for (String test : tests(runs)) {
                    List<SysbenchRun> of = runs.stream().filter(r -> r.test().equals(test)).toList();
                    tables.add(SysbenchReport.test("sysbench " + test, "", of, SysbenchReport.Axis.THREADS, false,
                            out.resolve("proxy-kingshard-" + test.replace('/', '-'))));
                }
                Path pool = work.resolve("pool.csv");
                if (Files.exists(pool)) {
                    List<SysbenchRun> poolRuns = Results.sysbench(pool);
                    tables.add(SysbenchReport.test("backend pool sweep, sysbench " + poolRuns.getFirst().test() + " at "
                                    + poolRuns.getFirst().threads() + " threads",
                            "Shardwise's pool size per backend (`pool: { max: N, minIdle: N }`); direct and relay do not "
                                    + "depend on it and are measured again at each step as the drift reference.",
                            poolRuns, SysbenchReport.Axis.POOL, false, out.resolve("proxy-kingshard-pool")));
                }
                tables.add(Targets.pointSelect(runs));
                yield "kingshard's report (sysbench)";
            }
            case "concurrency" -> {
                List<SysbenchRun> runs = Results.sysbench(work.resolve("concurrency.csv"));
                tables.add(SysbenchReport.test("sysbench oltp_read_only, transactions per second", "", runs,
                        SysbenchReport.Axis.THREADS, true, out.resolve("proxy-concurrency")));
                tables.add(SysbenchReport.peaks("Peak and collapse", runs, true));
                yield "The concurrency sweep (sysbench oltp_read_only)";
            }
            case "connect" -> {
                tables.add(ConnectReport.table(Results.connect(work.resolve("connect.csv"))));
                yield "Connection set-up (mysqlslap, fresh connections)";
            }
            case "profile" -> {
                List<SysbenchRun> runs = Results.sysbench(work.resolve("profile.csv"));
                List<List<String>> rows = new ArrayList<>();
                for (SysbenchRun r : runs) {
                    rows.add(List.of(Variant.of(r.variant()).label, r.test(), Integer.toString(r.threads()),
                            r.ok() ? Results.fixed(r.qps(), 0) : r.status(), r.ok() ? Results.fixed(r.avgMs(), 2) : ""));
                }
                tables.add(new Table("The profiled runs", "The relay ran just before the recorded Shardwise run, as the "
                        + "reference; only the Shardwise run was recorded.", List.of("variant", "test", "threads", "QPS", "avg ms"), rows));
                tables.addAll(ProfileReport.tables(ProfileReport.read(work.resolve("profile.jfr")), profiledQueries(work)));
                yield "Where the server's time goes (JFR profile)";
            }
            default -> throw new IllegalArgumentException("unknown experiment '" + experiment
                    + "'; expected hscale, kingshard, concurrency, connect or profile");
        };
        Map<String, String> versions = new LinkedHashMap<>();
        settings.forEach((k, v) -> {
            if (k.startsWith("version.")) {
                versions.put(k.substring("version.".length()), v);
            }
        });
        double loadBefore = Double.parseDouble(settings.getOrDefault("load.before", "-1"));
        Environment environment = Environment.capture(versions, loadBefore);
        Path document = out.resolve("proxy-" + experiment + ".md");
        ensureHeading(document, title);
        Report.write(document, "proxy-" + experiment, Report.section(args[3], environment, tables));
        System.out.println("[proxy-report] wrote " + document);
    }

    static List<String> tests(List<SysbenchRun> runs) {
        return runs.stream().map(SysbenchRun::test).distinct().toList();
    }

    private static Table settingsTable(Map<String, String> settings) {
        List<List<String>> rows = new ArrayList<>();
        settings.forEach((k, v) -> {
            if (!k.startsWith("version.") && !k.startsWith("load.")) {
                rows.add(List.of(k, v));
            }
        });
        return new Table("Settings", "", List.of("setting", "value"), rows);
    }

    private static void ensureHeading(Path document, String title) {
        if (Files.exists(document)) {
            return;
        }
        try {
            Files.createDirectories(document.toAbsolutePath().getParent());
            Files.writeString(document, "# " + title + "\n\nHow to run it and how to read it: "
                    + "[benchmarks.md, Proxy experiments](../benchmarks.md#proxy-experiments).\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + document, e);
        }
    }

    /** The targets for the server face, read off the results (never asserted by a timed test). */
    static final class Targets {
        private Targets() {}

        static Table pointSelect(List<SysbenchRun> runs) {
            List<List<String>> rows = new ArrayList<>();
            for (String test : tests(runs)) {
                if (!test.startsWith("oltp_point_select")) {
                    continue;
                }
                List<SysbenchRun> of = runs.stream().filter(r -> r.test().equals(test)).toList();
                for (int threads : List.of(8, 32)) {
                    Optional<Double> ratio = SysbenchReport.ratio(of, threads, Variant.SW_SHARDED, Variant.RELAY);
                    rows.add(List.of(test + ", " + threads + " threads, sharded QPS / relay QPS ≥ " + RELAY_TARGET,
                            ratio.map(r -> String.format(Locale.ROOT, "%.2f", r)).orElse("not measured"),
                            verdict(ratio.map(r -> r >= RELAY_TARGET))));
                }
            }
            return new Table("Against the targets", "", List.of("target", "measured", "verdict"), rows);
        }

        static Table hscale(List<SlapRun> runs, int queries) {
            List<List<String>> rows = new ArrayList<>();
            Map<Integer, Map<Variant, SlapRun>> steps = HscaleReport.bySteps(runs);
            for (Map.Entry<Integer, Map<Variant, SlapRun>> step : steps.entrySet()) {
                double relay = HscaleReport.seconds(step.getValue().get(Variant.RELAY));
                double part = HscaleReport.seconds(step.getValue().get(Variant.SW_PARTITIONED));
                Optional<Double> ratio = Double.isNaN(relay) || Double.isNaN(part) ? Optional.empty() : Optional.of(relay / part);
                rows.add(List.of("concurrency " + step.getKey() + ", partitioned throughput / relay's ≥ " + RELAY_TARGET,
                        ratio.map(r -> String.format(Locale.ROOT, "%.2f", r)).orElse("not measured"),
                        verdict(ratio.map(r -> r >= RELAY_TARGET))));
                if (step.getKey() == 1) {
                    Optional<Double> added = ratio.map(r -> HscaleReport.addedMs(part, relay, queries));
                    rows.add(List.of("concurrency 1, partitioned adds ≤ " + ADDED_MS_TARGET + " ms per query over the relay",
                            added.map(a -> String.format(Locale.ROOT, "%.3f ms", a)).orElse("not measured"),
                            verdict(added.map(a -> a <= ADDED_MS_TARGET))));
                }
            }
            return new Table("Against the targets", "", List.of("target", "measured", "verdict"), rows);
        }

        private static String verdict(Optional<Boolean> met) {
            return met.map(m -> m ? "met" : "**missed**").orElse("—");
        }
    }
}
