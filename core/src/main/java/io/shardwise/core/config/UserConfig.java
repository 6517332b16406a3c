package io.shardwise.core.config;

import java.util.List;
import java.util.Objects;

/** A client account of the server face and the logical schemas it may use. The password never prints. */
public record UserConfig(String name, String password, List<String> schemas) {
    public UserConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        schemas = List.copyOf(schemas);
    }

    @Override
    public String toString() {
        return "UserConfig[name=" + name + ", password=***, schemas=" + schemas + "]";
    }
}
