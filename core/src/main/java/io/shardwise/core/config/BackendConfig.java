package io.shardwise.core.config;

import java.util.Objects;

/** A physical MySQL-compatible server (one connection pool each). The password never prints. */
public record BackendConfig(String name, String url, String user, String password, PoolConfig pool) {
    public BackendConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(pool, "pool");
    }

    /** The URL read once for every reader of it (host, port, database, properties, TLS). */
    public BackendUrl address() {
        return BackendUrl.parse(url);
    }

    @Override
    public String toString() {
        return "BackendConfig[name=" + name + ", url=" + url + ", user=" + user + ", password=***, pool=" + pool + "]";
    }
}
