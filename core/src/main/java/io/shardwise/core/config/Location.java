package io.shardwise.core.config;

import java.util.Objects;

/**
 * Where a value sits in the configuration file: its YAML path ({@code tables.orders.nodes},
 * {@code server.users[0].name}) and its 1-based line, 0 when the line is unknown, or {@link #PROPERTY}
 * when a {@link ConfigOverrides property} set the value rather than the file.
 */
public record Location(String path, int line) {
    public static final Location ROOT = new Location("", 0);
    /** The line of a value that a property set; the path is then the property's name. */
    public static final int PROPERTY = -1;

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
        if (line == PROPERTY) {
            return where + " (set by a property)";
        }
        return line > 0 ? where + " (line " + line + ")" : where;
    }
}
