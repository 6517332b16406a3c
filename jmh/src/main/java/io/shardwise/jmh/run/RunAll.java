package io.shardwise.jmh.run;

import io.shardwise.jmh.report.Environment;
import io.shardwise.jmh.report.Report;
import io.shardwise.jmh.report.Table;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.BenchmarkListEntry;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The whole benchmark suite in one command: runs every {@link Suite} with JMH (raw results as
 * {@code jmh-<suite>.json} in the results directory), then writes the tables with the machine and
 * versions into the report's {@code jmh} section ({@link Report}). What {@code ./mvnw verify -Pbench}
 * runs; without Maven, after that build:
 * <pre>
 * java -cp jmh/target/benchmarks.jar io.shardwise.jmh.run.RunAll [--quick] [--filter REGEX]
 *      [--report docs/benchmarks.md] [--results jmh/target] [--forks N]
 * </pre>
 * {@code --filter} keeps only benchmarks whose full name matches (JMH's own {@code java -jar} runs
 * single classes with any options). {@code --quick}: one short iteration each, for a smoke run.
 */
public final class RunAll {
    /**
     * @param forks forks per benchmark in quick runs (0: all in this JVM; default runs use the suites' own)
     */
    record Options(Path report, Path results, boolean quick, int forks, Pattern filter, String command) {}

    /** What a run produced: every benchmark it asked JMH for, and JMH's results. */
    record Outcome(List<String> benchmarks, List<RunResult> results, List<Table> tables) {}

    private RunAll() {}

    public static void main(String[] args) throws Exception {
        Path report = Path.of("docs/benchmarks.md");
        Path results = Path.of("jmh/target");
        boolean quick = false;
        int forks = 1;
        Pattern filter = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> quick = true;
                case "--report" -> report = Path.of(args[++i]);
                case "--results" -> results = Path.of(args[++i]);
                case "--forks" -> forks = Integer.parseInt(args[++i]);
                case "--filter" -> {
                    String f = ++i < args.length ? args[i] : "";
                    filter = f.isBlank() ? null : Pattern.compile(f);
                }
                default -> throw new IllegalArgumentException("unknown argument " + a
                        + "; usage: RunAll [--quick] [--filter REGEX] [--report FILE] [--results DIR] [--forks N]");
            }
        }
        String command = "./mvnw verify -Pbench" + (quick ? " -Dbench.quick" : "") + (filter == null ? "" : " -Dbench.filter=" + filter);
        int status = 1;
        try {
            Outcome outcome = run(new Options(report, results, quick, forks, filter, command));
            System.out.println("Wrote " + outcome.results().size() + " results to " + report + " (raw JSON in " + results + ")");
            status = 0;
        } catch (Exception | Error e) {
            e.printStackTrace();
        } finally {
            // embedded backends and pools keep non-daemon threads: end the JVM explicitly, shutdown hooks clean up
            System.exit(status);
        }
    }

    static Outcome run(Options options) throws RunnerException {
        if (options.quick()) {
            // JMH's /tmp/jmh.lock keeps two measurements apart; a quick run measures nothing and must
            // not fail because another build on the machine is benchmarking
            System.setProperty("jmh.ignoreLock", "true");
        }
        if (options.quick() && options.forks() == 0) {
            System.setProperty(io.shardwise.jmh.modes.PeerVersions.REUSE_TARGETS, "true"); // one start per target, not per trial
        }
        double loadBefore = Environment.load();
        Path backendFile = options.results().toAbsolutePath().resolve("backend.txt");
        System.setProperty(io.shardwise.jmh.modes.PeerVersions.BACKEND_FILE, backendFile.toString()); // for runs without forks
        List<String> all = benchmarks();
        List<String> asked = new ArrayList<>();
        List<RunResult> results = new ArrayList<>();
        for (Suite defaults : Suite.defaults()) {
            Suite suite = options.quick() ? defaults.quick(options.forks()) : defaults;
            List<String> names = all.stream()
                    .filter(n -> suite.include().matcher(n).matches())
                    .filter(n -> options.filter() == null || options.filter().matcher(n).find())
                    .toList();
            if (names.isEmpty()) {
                continue;
            }
            asked.addAll(names);
            results.addAll(new Runner(options(suite, names, options.results(), backendFile).build()).run());
        }
        if (asked.isEmpty()) {
            throw new IllegalArgumentException("no benchmark matches " + options.filter() + "; known: " + all);
        }
        List<Table> tables = JmhTables.of(results);
        String settings = options.quick()
                ? "**Quick run** (`-Dbench.quick`: one iteration of 0.1 s, " + (options.forks() == 0 ? "no fork" : options.forks() + " fork") + "):"
                        + " proves the harness; the numbers are not steady state.\n\n"
                : "Default settings: one fork per benchmark; iterations of 1 s (engine) and 2 s (modes), 3–10 warm-up and 3–5"
                        + " measured, as `jmh/.../run/Suite.java` lists.\n\n";
        Report.write(options.report(), "jmh", settings + Report.section(options.command(),
                Environment.capture(versions(results, backendFile), loadBefore), tables));
        return new Outcome(asked, results, tables);
    }

    private static ChainedOptionsBuilder options(Suite suite, List<String> names, Path resultsDir, Path backendFile) {
        ChainedOptionsBuilder b = new OptionsBuilder();
        for (String name : names) {
            b = b.include("^" + Pattern.quote(name) + "$");
        }
        try {
            Files.createDirectories(resultsDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        TimeValue iteration = TimeValue.milliseconds(Math.round(suite.seconds() * 1000));
        return b.threads(suite.threads())
                .forks(suite.forks())
                .warmupIterations(suite.warmups())
                .warmupTime(iteration)
                .measurementIterations(suite.measurements())
                .measurementTime(iteration)
                // replaces the classes' @Fork(jvmArgsAppend), which said the same heap
                .jvmArgsAppend("-Xms1g", "-Xmx1g", "-D" + io.shardwise.jmh.modes.PeerVersions.BACKEND_FILE + "=" + backendFile)
                .addProfiler(GCProfiler.class)
                .shouldFailOnError(true)
                .resultFormat(ResultFormatType.JSON)
                .result(resultsDir.resolve("jmh-" + suite.name() + ".json").toString());
    }

    private static String backend(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file).strip() : "unknown";
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /** Every benchmark method the annotation processor generated, by full name. */
    static List<String> benchmarks() {
        TreeSet<String> names = new TreeSet<>();
        for (BenchmarkListEntry e : BenchmarkList.defaultList().getAll(
                OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT), List.of())) {
            names.add(e.getUsername());
        }
        return List.copyOf(names);
    }

    private static Map<String, String> versions(List<RunResult> results, Path backendFile) {
        Properties built = new Properties();
        try (InputStream in = RunAll.class.getResourceAsStream("/io/shardwise/jmh/bench.properties")) {
            if (in != null) {
                built.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> v = new LinkedHashMap<>();
        v.put("Shardwise", built.getProperty("shardwise.version", "?"));
        boolean modes = results.stream().anyMatch(r -> r.getParams().getBenchmark().startsWith(JmhTables.MODES));
        if (modes) {
            v.put("backend", backend(backendFile));
            v.put("Connector/J", com.mysql.cj.Constants.CJ_VERSION);
            v.put("HikariCP", built.getProperty("hikaricp.version", "?"));
            v.put("ShardingSphere-JDBC", io.shardwise.jmh.modes.PeerVersions.shardingSphere());
        }
        v.put("JMH", built.getProperty("jmh.version", "?"));
        return v;
    }
}
