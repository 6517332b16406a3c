package io.shardwise.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the checkout the tests run in (docs, the packaged server, the demo and the distribution). */
final class ProjectFiles {
    private ProjectFiles() {}

    static Path root() {
        String root = System.getProperty("shardwise.root");
        if (root == null) {
            throw new IllegalStateException("system property shardwise.root is not set; run through Maven (./mvnw verify)");
        }
        return Path.of(root).toAbsolutePath().normalize();
    }

    static Path serverJar() {
        return built("server/target/shardwise-server.jar", "the server module");
    }

    /** The demo's jar: the server's command line plus the embedded backends ({@code ./shardwise --demo}). */
    static Path demoJar() {
        return built("demo/target/shardwise-demo.jar", "the demo module");
    }

    /** The server distribution as a deployment receives it. */
    static Path distribution() {
        String version = System.getProperty("shardwise.version");
        if (version == null) {
            throw new IllegalStateException("system property shardwise.version is not set; run through Maven (./mvnw verify)");
        }
        return built("server/target/shardwise-" + version + ".tar.gz", "the server module");
    }

    private static Path built(String path, String module) {
        Path file = root().resolve(path);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException(file + " is missing; " + module + " packages it before these tests run");
        }
        return file;
    }
}
