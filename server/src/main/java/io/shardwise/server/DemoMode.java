package io.shardwise.server;

import java.io.PrintWriter;

/**
 * What {@code shardwise --demo} runs, found with {@link java.util.ServiceLoader}. The server's
 * distribution holds no implementation: the demo brings embedded MariaDB backends (the test kit
 * and 140 MB of database binaries), so it lives in the {@code demo/} module, whose jar
 * {@code ./shardwise --demo} puts on the class path. Without it {@code --demo} fails with a hint.
 */
public interface DemoMode {
    /**
     * Starts the demo's backends, loads the sample schema and serves it; then waits for the JVM's
     * shutdown (SIGTERM, Ctrl-C) if {@code wait}, else stops everything at once.
     *
     * @param port where the server listens, or null for the demo's default
     * @return the process exit code ({@link Main#OK} or {@link Main#FAILED})
     */
    int run(PrintWriter out, PrintWriter err, Integer port, boolean wait);
}
