package io.shardwise.core.config;

import java.util.Objects;

/**
 * Where a value sits in the configuration file: its YAML path ({@code tables.orders.nodes},
 * {@code server.users[0].name}) and its 1-based line, or 0 when the line is unknown.
 */
public record Location(String path, int line) {
    public static final Location ROOT = new Location("", 0);

    public Location {
        Objects.requireNonNull(path, "path");
    }

    public Location child(String key, int childLine) {
        return new Location(path.isEmpty() ? key : path + "." + key, childLine);
    }

    public Location item(int index, int itemLine) {
        return new Location(path + "[" + index + "]", itemLine);
    }

    @Override
    public String toString() {
        String where = path.isEmpty() ? "(top level)" : path;
        return line > 0 ? where + " (line " + line + ")" : where;
    }
}
