package io.shardwise.core.config;

import java.util.List;
import java.util.Objects;

/** Settings of the server face only: where it listens and who may connect. */
public record ServerConfig(String bind, int port, List<UserConfig> users) {
    public static final ServerConfig DEFAULT = new ServerConfig("127.0.0.1", 3307, List.of());

    public ServerConfig {
        Objects.requireNonNull(bind, "bind");
        users = List.copyOf(users);
    }
}
