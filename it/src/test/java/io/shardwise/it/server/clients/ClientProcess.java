package io.shardwise.it.server.clients;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a client program to its end with a time limit and keeps what it printed. A client that is
 * not installed fails the test with what to install (never a silent skip).
 */
final class ClientProcess {
    /** How a run ended. */
    record Result(int exit, String out, String err) {
        String describe() {
            return "exit " + exit + "\n--- stdout\n" + out + "\n--- stderr\n" + err;
        }
    }

    private ClientProcess() {}

    /**
     * The first of {@code candidates} (a name looked up on PATH, or an absolute path) that exists;
     * fails naming {@code install} otherwise.
     */
    static String require(String install, String... candidates) {
        String path = System.getenv().getOrDefault("PATH", "");
        for (String candidate : candidates) {
            if (candidate.startsWith("/")) {
                if (Files.isExecutable(Path.of(candidate))) {
                    return candidate;
                }
                continue;
            }
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, candidate))) {
                    return Path.of(dir, candidate).toString();
                }
            }
        }
        fail("none of " + List.of(candidates) + " is installed: " + install + " (bin/test installs it)");
        throw new AssertionError("unreachable");
    }

    static Result run(List<String> command, String stdin, Path workingDirectory, int timeoutSeconds) {
        Process p;
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            if (workingDirectory != null) {
                builder.directory(workingDirectory.toFile());
            }
            p = builder.start();
        } catch (IOException e) {
            throw new AssertionError("cannot start " + command + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> out = drain(p.getInputStream());
        CompletableFuture<String> err = drain(p.getErrorStream());
        try {
            try (var in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                fail(command.getFirst() + " did not finish in " + timeoutSeconds + " s: " + command);
            }
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new AssertionError("talking to " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new AssertionError("interrupted", e);
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "<unreadable: " + e.getMessage() + ">";
            }
        }, Thread::startVirtualThread);
    }
}
