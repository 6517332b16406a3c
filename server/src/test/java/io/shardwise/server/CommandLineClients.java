package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;

/** The MariaDB command-line programs the server tests drive (mariadb, mariadb-admin), found on the PATH. */
final class CommandLineClients {
    private CommandLineClients() {}

    /**
     * The first of {@code names} executable on the PATH; fails the test (naming the package) when none is, since CI
     * installs mariadb-client and a missing client must not pass as a skipped check.
     */
    static String require(String... names) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            for (String name : names) {
                File f = new File(dir, name);
                if (f.canExecute()) {
                    return f.getPath();
                }
            }
        }
        return fail("none of " + String.join(", ", names) + " is on the PATH; install the client (apt-get install -y mariadb-client)");
    }
}
