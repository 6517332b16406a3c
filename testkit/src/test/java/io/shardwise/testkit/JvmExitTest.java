package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class JvmExitTest {

    @Test
    void jvmWhoseMainForgetsToCloseServersStillExitsAndStopsThem() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ForgottenServerMain.class.getName())
                .redirectErrorStream(true)
                .start();
        String output;
        boolean exited;
        try {
            exited = child.waitFor(60, TimeUnit.SECONDS);
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
            output = new String(child.getInputStream().readAllBytes());
        }

        assertTrue(exited, "child JVM still running after 60 s:\n" + output);
        assertEquals(0, child.exitValue(), output);
        String ports = output.lines().filter(l -> l.startsWith("PORTS ")).findFirst()
                .orElseThrow(() -> new AssertionError("no PORTS line:\n" + output));
        for (String port : List.of(ports.split(" ")).subList(1, 3)) {
            assertThrows(SQLException.class,
                    () -> Jdbc.connect(Jdbc.url("127.0.0.1", Integer.parseInt(port), null), "root", "").close(),
                    "mariadbd on port " + port + " outlived its JVM");
        }
    }
}
