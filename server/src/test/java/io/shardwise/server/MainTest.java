package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    @Test
    void leakDetectionIsOffInProductionUnlessTheCommandLineSetsIt() {
        String key = "io.netty.leakDetection.level";
        String tests = System.getProperty(key); // paranoid: the build's test JVMs
        try {
            Main.nettyDefaults();
            assertEquals(tests, System.getProperty(key), "a level set on the command line stays");
            System.clearProperty(key);
            Main.nettyDefaults();
            assertEquals("disabled", System.getProperty(key));
        } finally {
            if (tests == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, tests);
            }
        }
    }

    @Test
    void checkAcceptsAValidConfigurationAndSummarisesIt(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shop.yaml");
        Files.writeString(file, """
                schema: shop
                backends:
                  ds0: { url: "jdbc:mysql://127.0.0.1:3306/shop_0" }
                  ds1: { url: "jdbc:mysql://127.0.0.1:3306/shop_1" }
                defaultBackend: ds0
                tables:
                  orders: { nodes: "ds${0..1}.orders_${0..1}", key: user_id, algorithm: mod }
                  order_items: { bindTo: orders, key: user_id }
                  countries: { broadcast: true }
                """);
        assertEquals(Main.OK, run("--check", "--config", file.toString()), err::toString);
        assertTrue(out.toString().contains("schema 'shop': 2 backends, 2 sharded tables (1 binding group), 1 broadcast, 0 single"),
                out::toString);
    }

    @Test
    void checkPrintsEveryProblemAndFails(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("bad.yaml");
        Files.writeString(file, """
                schema: shop
                backends: { ds0: { url: "jdbc:mysql://h/s", usr: root } }
                tables: { t: { nodes: "ds${0..1}.t", key: id, algorithm: mod } }
                """);
        assertEquals(Main.FAILED, run("--check", "-c", file.toString()));
        String e = err.toString();
        assertTrue(e.contains("backends.ds0.usr (line 2): unknown key 'usr'. Did you mean 'user'?"), e);
        assertTrue(e.contains("tables.t.nodes (line 3): table 't' names backend ds1; defined: ds0"), e);
    }

    @Test
    void aMissingConfigurationFileIsReportedNotThrown(@TempDir Path dir) {
        assertEquals(Main.FAILED, run("--check", "--config", dir.resolve("nope.yaml").toString()));
        assertTrue(err.toString().contains("cannot read"), err::toString);
    }

    @Test
    void withoutConfigOrDemoItExplainsTheUsage() {
        assertEquals(CommandLine.ExitCode.USAGE, run());
        assertTrue(err.toString().contains("Give --config FILE"), err::toString);
        assertEquals(CommandLine.ExitCode.USAGE, run("--bogus"));
    }

    @Test
    void withoutTheDemoModuleDemoFailsSayingWhereTheDemoIs() {
        // the server's class path holds no DemoMode: the demo and its embedded MariaDB live in demo/
        assertEquals(Main.FAILED, run("--demo", "--exit-when-ready"));
        assertTrue(err.toString().contains("--demo needs the demo module") && err.toString().contains("./shardwise --demo"),
                err::toString);
    }

    @Test
    void helpListsTheOptions() {
        assertEquals(Main.OK, run("--help"));
        for (String option : new String[] {"--config", "--check", "--demo", "--port", "--version"}) {
            assertTrue(out.toString().contains(option), option);
        }
        assertTrue(!out.toString().contains("--exit-when-ready"), "hidden test option stays hidden");
    }
}
