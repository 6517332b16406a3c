package io.shardwise.it;

import java.nio.file.Files;
import java.nio.file.Path;

/** Files of the checkout the tests run in (docs, the packaged server). */
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
        Path jar = root().resolve("server/target/shardwise-server.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing; the server module packages it before these tests run");
        }
        return jar;
    }
}
