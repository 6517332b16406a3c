package io.shardwise.jmh.modes;

import io.shardwise.jmh.report.Environment;
import io.shardwise.jmh.report.Report;
import io.shardwise.jmh.report.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link FederationBenchmark} the only way its figures can be trusted: first every target's answer
 * to every statement is checked against one database's ({@link FederationBenchmark#verdict}), then JMH
 * times only the pairs that answered exactly, and the report names the others with the reason (refused,
 * with the error; a different answer, with the first difference). Writes the {@code federation} section
 * of the document (default {@code docs/benchmarks/tpch.md}) and {@code federation-bench.md} and the raw
 * JSON in the results directory. {@code -Pbench} runs it; alone, after that build:
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.shardwise.jmh.modes.FederationRun [-f 1] [-wi 2] [-i 3] [-r 2]
 *      [--doc docs/benchmarks/tpch.md] [--results jmh/target]
 * </pre>
 */
public final class FederationRun {
    private FederationRun() {}

    /** Run settings: JMH's forks, warm-up and measured iterations, seconds per iteration. */
    record Settings(int forks, int warmups, int iterations, double seconds, Path doc, Path results) {
        String command() {
            return String.format(Locale.ROOT, "java -cp jmh/target/benchmarks.jar io.shardwise.jmh.modes.FederationRun -f %d -wi %d -i %d -r %s",
                    forks, warmups, iterations, java.math.BigDecimal.valueOf(seconds).stripTrailingZeros().toPlainString());
        }
    }

    public static void main(String[] args) throws Exception {
        int forks = 1;
        int warmups = 2;
        int iterations = 3;
        double seconds = 2;
        Path doc = Path.of("docs/benchmarks/tpch.md");
        Path results = Path.of("jmh/target");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "-f" -> forks = Integer.parseInt(args[i + 1]);
                case "-wi" -> warmups = Integer.parseInt(args[i + 1]);
                case "-i" -> iterations = Integer.parseInt(args[i + 1]);
                case "-r" -> seconds = Double.parseDouble(args[i + 1]);
                case "--doc" -> doc = Path.of(args[i + 1]);
                case "--results" -> results = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: FederationRun [-f N] [-wi N] [-i N] [-r SECONDS] [--doc FILE] [--results DIR]");
            }
        }
        int status = 1;
        try {
            run(new Settings(forks, warmups, iterations, seconds, doc, results));
            status = 0;
        } catch (Exception | Error e) {
            e.printStackTrace();
        } finally {
            System.exit(status); // embedded backend and pools keep non-daemon threads; shutdown hooks clean up
        }
    }

    static void run(Settings settings) throws Exception {
        double loadBefore = Environment.load();
        Map<String, Map<String, FederationBenchmark.Verdict>> verdicts = verdicts();
        Map<String, Map<String, Result<?>>> times = new TreeMap<>();
        Path backendFile = settings.results().toAbsolutePath().resolve("backend-federation.txt");
        Files.createDirectories(settings.results());
        for (String query : FederationBenchmark.QUERIES.keySet().stream().sorted().toList()) {
            List<String> timed = new ArrayList<>();
            for (String target : FederationBenchmark.TARGETS) {
                if (target.equals("direct") || verdicts.get(query).get(target).ok()) {
                    timed.add(target);
                }
            }
            ChainedOptionsBuilder b = new OptionsBuilder()
                    .include("^" + Pattern.quote(FederationBenchmark.class.getName() + ".run") + "$")
                    .param("query", query)
                    .param("target", timed.toArray(String[]::new))
                    .forks(settings.forks())
                    .warmupIterations(settings.warmups())
                    .warmupTime(TimeValue.milliseconds(Math.round(settings.seconds() * 1_000)))
                    .measurementIterations(settings.iterations())
                    .measurementTime(TimeValue.milliseconds(Math.round(settings.seconds() * 1_000)))
                    .jvmArgsAppend("-Xms1g", "-Xmx1g", "-D" + Layouts.BACKEND_FILE + "=" + backendFile)
                    .shouldFailOnError(true)
                    .resultFormat(ResultFormatType.JSON)
                    .result(settings.results().resolve("jmh-federation-" + query + ".json").toString());
            for (RunResult r : new Runner(b.build()).run()) {
                times.computeIfAbsent(query, q -> new LinkedHashMap<>()).put(r.getParams().getParam("target"), r.getPrimaryResult());
            }
        }
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("backend", Files.exists(backendFile) ? Files.readString(backendFile).strip() : "unknown");
        versions.put("Connector/J", com.mysql.cj.Constants.CJ_VERSION);
        versions.put("ShardingSphere-JDBC", PeerClassLoader.shardingSphereVersion());
        String section = Report.section(settings.command(), Environment.capture(versions, loadBefore), List.of(table(verdicts, times)));
        Report.write(settings.doc(), "federation", section);
        Files.writeString(settings.results().resolve("federation-bench.md"), section);
        System.out.println("federation-bench: wrote " + settings.doc() + " and " + settings.results().resolve("federation-bench.md"));
    }

    /** Every target's verdict on every statement, in this JVM, before JMH forks anything. */
    static Map<String, Map<String, FederationBenchmark.Verdict>> verdicts() throws Exception {
        Map<String, Map<String, FederationBenchmark.Verdict>> verdicts = new TreeMap<>();
        Targets.Opened direct = Targets.open("direct", FederationBenchmark.POOL);
        try {
            for (String target : FederationBenchmark.TARGETS) {
                if (target.equals("direct")) {
                    continue;
                }
                Targets.Opened opened = Targets.open(target, FederationBenchmark.POOL);
                try {
                    for (Map.Entry<String, String> q : FederationBenchmark.QUERIES.entrySet()) {
                        FederationBenchmark.Verdict v = FederationBenchmark.verdict(direct, opened, q.getValue());
                        verdicts.computeIfAbsent(q.getKey(), k -> new LinkedHashMap<>()).put(target, v);
                        System.out.println("federation-bench check " + q.getKey() + " on " + target + ": " + v.text());
                    }
                } finally {
                    Targets.release(opened);
                }
            }
        } finally {
            Targets.release(direct);
        }
        return verdicts;
    }

    static Table table(Map<String, Map<String, FederationBenchmark.Verdict>> verdicts, Map<String, Map<String, Result<?>>> times) {
        List<String> headers = new ArrayList<>(List.of("statement"));
        for (String t : FederationBenchmark.TARGETS) {
            headers.add(t + (t.equals("direct") ? " ms/op" : " ms/op (× direct)"));
        }
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<String, Map<String, FederationBenchmark.Verdict>> q : verdicts.entrySet()) {
            Map<String, Result<?>> measured = times.getOrDefault(q.getKey(), Map.of());
            Result<?> direct = measured.get("direct");
            List<String> row = new ArrayList<>(List.of("`" + q.getKey() + "`"));
            for (String t : FederationBenchmark.TARGETS) {
                FederationBenchmark.Verdict v = t.equals("direct") ? FederationBenchmark.Verdict.OK : q.getValue().get(t);
                Result<?> r = measured.get(t);
                if (!v.ok()) {
                    row.add("not timed, " + v.text());
                } else if (r == null) {
                    row.add("not run");
                } else if (t.equals("direct") || direct == null) {
                    row.add(ms(r));
                } else {
                    row.add(ms(r) + String.format(Locale.ROOT, " (%.1f×)", r.getScore() / direct.getScore()));
                }
            }
            rows.add(row);
        }
        StringBuilder statements = new StringBuilder();
        FederationBenchmark.QUERIES.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> statements.append("`").append(e.getKey()).append("`: `").append(e.getValue()).append("`. "));
        return new Table("Cross-shard join and IN (subquery): Shardwise, one database, ShardingSphere-JDBC with SQL federation",
                "One thread, milliseconds per statement read to the end (± JMH's 99.9 % interval), and the ratio to one database."
                        + " Each target's answer was first compared with one database's; a target that refused or answered"
                        + " differently was not timed and its cell says why. " + statements,
                headers, rows);
    }

    private static String ms(Result<?> r) {
        double error = r.getScoreError();
        return Double.isNaN(error)
                ? String.format(Locale.ROOT, "%.3f", r.getScore())
                : String.format(Locale.ROOT, "%.3f ± %.3f", r.getScore(), error);
    }
}
