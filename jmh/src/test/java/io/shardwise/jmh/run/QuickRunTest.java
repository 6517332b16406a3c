package io.shardwise.jmh.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;

/**
 * The smoke test that keeps {@code -Pbench} from rotting: the same runner and report writer, every
 * suite, one 0.1 s iteration per benchmark, all in this JVM (no forks) against the shared test
 * server. It checks that every benchmark ran, that the report got a row for each, and that
 * hand-written text around the generated section survived. It measures nothing.
 */
class QuickRunTest {
    /** Superseded by ModesBenchmark (direct and shardwise-jdbc, same statements); kept for the driver's own tuning runs. */
    private static final Set<String> OUTSIDE_SUITES = Set.of("io.shardwise.jmh.JdbcBenchmark.pointSelect",
            "io.shardwise.jmh.JdbcBenchmark.pointUpdate", "io.shardwise.jmh.JdbcBenchmark.pointSelect8",
            "io.shardwise.jmh.JdbcBenchmark.pointUpdate8",
            // timed by its own runner (modes.FederationRun), which checks every target's answer before timing it
            "io.shardwise.jmh.modes.FederationBenchmark.run");

    @Test
    void quickRunRunsEverySuiteAndWritesARowPerBenchmark(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("benchmarks.md");
        String handWritten = "# Benchmarks\n\nAnalysis written by hand.\n";
        Files.writeString(report, handWritten);

        RunAll.Outcome outcome = RunAll.run(new RunAll.Options(report, dir, true, 0, null, "QuickRunTest"));

        TreeSet<String> uncovered = new TreeSet<>(RunAll.benchmarks());
        uncovered.removeAll(outcome.benchmarks());
        uncovered.removeAll(OUTSIDE_SUITES);
        assertEquals(Set.of(), uncovered, "benchmarks no suite runs (add them to Suite.defaults)");
        TreeSet<String> ran = new TreeSet<>();
        outcome.results().forEach(r -> ran.add(r.getParams().getBenchmark()));
        assertEquals(new TreeSet<>(outcome.benchmarks()), ran, "every benchmark asked for has a result");

        String text = Files.readString(report);
        assertTrue(text.startsWith(handWritten), "the hand-written part is kept:\n" + text);
        for (RunResult r : outcome.results()) {
            String name = r.getParams().getBenchmark();
            String method = name.substring(name.lastIndexOf('.') + 1);
            if (name.startsWith(JmhTables.MODES)) {
                String row = line(text, "| `" + method + "` | " + r.getParams().getThreads() + " |");
                assertFalse(row.contains("not run") || row.contains("n/a"), "every target measured: " + row);
            } else {
                String cls = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1, name.lastIndexOf('.'));
                String workload = r.getParams().getParam("workload");
                line(text, "| `" + cls + "." + method + "` | " + (workload == null ? "" : workload) + " |");
            }
        }
        for (String suite : List.of("hit", "miss", "merge", "modes-1", "modes-8")) {
            assertTrue(Files.size(dir.resolve("jmh-" + suite + ".json")) > 0, "raw results of " + suite);
        }
        assertTrue(text.contains("| versions | Shardwise "), text);
    }

    private static String line(String text, String start) {
        for (String line : text.split("\n")) {
            if (line.startsWith(start)) {
                return line;
            }
        }
        throw new AssertionError("no row starting " + start + " in\n" + text);
    }
}
