package io.shardwise.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's test command, {@code bin/test}: what CI runs, and on a machine lacking the clients
 * the tests drive it stops before the build, naming each one and how to install it. (Not named
 * {@code Test…IT}: surefire would take it for a unit test.)
 */
class BinTestCommandIT {
    /** What bin/test itself needs; everything else (mariadb, sysbench, script ...) is left off PATH. */
    private static final List<String> SHELL_TOOLS = List.of("bash", "env", "dirname", "cut", "awk", "tr", "id", "sed", "cat");

    private static Path onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(name + " is not on PATH");
    }

    @Test
    void withoutTheClientsItStopsBeforeTheBuildNamingEachToolAndItsInstallCommand(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectory(dir.resolve("bin"));
        for (String tool : SHELL_TOOLS) { // wrappers, not symbolic links, which @TempDir warns about deleting
            Path wrapper = Files.writeString(bin.resolve(tool), "#!/bin/sh\nexec " + onPath(tool) + " \"$@\"\n");
            assertTrue(wrapper.toFile().setExecutable(true));
        }
        ProcessBuilder builder = new ProcessBuilder(ProjectFiles.root().resolve("bin/test").toString(), "-q")
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        builder.environment().put("PATH", bin.toString());
        builder.environment().put("SHARDWISE_TEST_INSTALL", "never"); // report, never apt-get on the test machine
        Process p = builder.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "bin/test stops at once");
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        assertEquals(1, p.exitValue(), err);
        assertTrue(err.contains("the tests drive tools this machine lacks"), err);
        for (String line : List.of("the mariadb command-line client  sudo apt-get install mariadb-client",
                "mysqlslap                        sudo apt-get install mariadb-client",
                "sysbench                         sudo apt-get install sysbench",
                "script(1)                        sudo apt-get install bsdutils")) {
            assertTrue(err.contains(line), () -> line + " missing from:\n" + err);
        }
        assertEquals("", Files.readString(dir.resolve("out.txt")), "no build started");
    }

    @Test
    void ciRunsExactlyTheReadmesTestCommandAndTheReadmeOpensWithTheDemoAndTheTests() throws Exception {
        List<String> ci = Files.readAllLines(ProjectFiles.root().resolve(".ci/run")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        assertEquals("exec bin/test", ci.getLast(), ci::toString);
        String readme = Files.readString(ProjectFiles.root().resolve("README.md"));
        Matcher block = Pattern.compile("```sh\n(.*?)\n```", Pattern.DOTALL).matcher(readme);
        assertTrue(block.find());
        assertEquals("./shardwise --demo", block.group(1));
        assertTrue(block.find());
        assertEquals("bin/test", block.group(1));
        assertFalse(readme.contains("install-test-deps"), "the README names no separate install step");
    }
}
