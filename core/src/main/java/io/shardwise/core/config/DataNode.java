package io.shardwise.core.config;

import java.util.Objects;

/** One physical table: a backend and a table name on it. */
public record DataNode(String backend, String table) {
    public DataNode {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(table, "table");
    }

    @Override
    public String toString() {
        return backend + "." + table;
    }
}
