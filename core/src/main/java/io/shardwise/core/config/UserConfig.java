package io.shardwise.core.config;

import java.util.List;
import java.util.Objects;

/**
 * A client account of the server face and the logical schemas it may use. The password never prints.
 *
 * @param admin whether it reads the default backend's system schemas (mysql, performance_schema, sys)
 *     read-only and its replication status; others meet them as a MySQL user without privileges on them
 */
public record UserConfig(String name, String password, List<String> schemas, boolean admin) {
    public UserConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(password, "password");
        schemas = List.copyOf(schemas);
    }

    /** A user who is not an administrator. */
    public UserConfig(String name, String password, List<String> schemas) {
        this(name, password, schemas, false);
    }

    @Override
    public String toString() {
        return "UserConfig[name=" + name + ", password=***, schemas=" + schemas + "]";
    }
}
