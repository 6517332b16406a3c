package io.shardwise.core.config;

import java.util.Objects;

/** One physical table: a backend and a table name on it. */
public record DataNode(String backend, String table) {
    public DataNode {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(table, "table");
    }

    /** Whether two node lists are laid out alike: as many nodes, on the same backends, in the same order. */
    public static boolean sameShape(java.util.List<DataNode> a, java.util.List<DataNode> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).backend().equals(b.get(i).backend())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return backend + "." + table;
    }
}
