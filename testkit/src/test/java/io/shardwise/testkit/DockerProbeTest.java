package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DockerProbeTest {

    @TempDir
    Path home;

    @Test
    void dockerHostVariableIsAHint() {
        assertTrue(DockerProbe.hasDockerHint(Map.of("DOCKER_HOST", "tcp://127.0.0.1:2375")::get, home));
    }

    @Test
    void testcontainersConfigInHomeIsAHint() throws IOException {
        Files.writeString(home.resolve(".testcontainers.properties"), "docker.host=unix:///x.sock\n");
        assertTrue(DockerProbe.hasDockerHint(Map.<String, String>of()::get, home));
    }

    @Test
    void rootlessSocketUnderXdgRuntimeDirIsAHint() throws IOException {
        Path runtime = Files.createDirectories(home.resolve("run"));
        Files.createFile(runtime.resolve("docker.sock"));
        assertTrue(DockerProbe.hasDockerHint(Map.of("XDG_RUNTIME_DIR", runtime.toString())::get, home));
    }

    @Test
    void noHintWhenNothingPointsAtAnEngine() {
        // Holds on machines without a system-wide /var/run/docker.sock, like ours; skip-free because
        // the answer on a Docker host would only be "true" here, which the assertion then reports.
        boolean systemSocket = Files.exists(Path.of("/var/run/docker.sock")) || Files.exists(Path.of("/run/docker.sock"));
        assertFalse(!systemSocket && DockerProbe.hasDockerHint(Map.<String, String>of()::get, home));
    }
}
