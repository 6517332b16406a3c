package io.shardwise.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.testcontainers.DockerClientFactory;

/**
 * Answers "is a Docker engine reachable?" without hanging and without Testcontainers' multi-line
 * ERROR report on machines that have no Docker at all.
 *
 * <p>A cheap pre-check looks for any hint of an engine (DOCKER_HOST, a docker.sock, a
 * Testcontainers config file). Only then is {@link DockerClientFactory#isDockerAvailable()} asked,
 * on a daemon thread bounded by {@link #TIMEOUT_SECONDS}.
 */
final class DockerProbe {

    private static final long TIMEOUT_SECONDS = 30;

    private DockerProbe() {}

    static boolean isDockerAvailable() {
        return hasDockerHint(System::getenv, Path.of(System.getProperty("user.home")))
                && askTestcontainers();
    }

    static boolean hasDockerHint(Function<String, String> env, Path home) {
        if (notBlank(env.apply("DOCKER_HOST")) || notBlank(env.apply("TESTCONTAINERS_HOST_OVERRIDE"))) {
            return true;
        }
        String xdgRuntime = env.apply("XDG_RUNTIME_DIR");
        List<Path> candidates = new java.util.ArrayList<>(List.of(
                Path.of("/var/run/docker.sock"),
                Path.of("/run/docker.sock"),
                home.resolve(".docker/run/docker.sock"),
                home.resolve(".docker/desktop/docker.sock"),
                home.resolve(".testcontainers.properties")));
        if (notBlank(xdgRuntime)) {
            candidates.add(Path.of(xdgRuntime, "docker.sock"));
            candidates.add(Path.of(xdgRuntime, "podman/podman.sock"));
        }
        return candidates.stream().anyMatch(Files::exists);
    }

    private static boolean askTestcontainers() {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Thread probe = new Thread(() -> {
            try {
                answer.complete(DockerClientFactory.instance().isDockerAvailable());
            } catch (Throwable t) {
                answer.complete(false);
            }
        }, "shardwise-docker-probe");
        probe.setDaemon(true); // a wedged engine must not keep the JVM alive
        probe.start();
        try {
            return answer.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static boolean notBlank(String s) {
        return s != null && !s.isBlank();
    }
}
