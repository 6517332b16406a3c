package io.shardwise.core.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects every mistake of one load, so users see all of them in one pass rather than fixing
 * them one restart at a time. Not thread-safe: one load, one thread.
 */
public final class Problems {
    private final List<ConfigProblem> list = new ArrayList<>();

    public void add(Location location, String message) {
        list.add(new ConfigProblem(location, message));
    }

    public boolean isEmpty() {
        return list.isEmpty();
    }

    public int size() {
        return list.size();
    }

    public List<ConfigProblem> list() {
        return List.copyOf(list);
    }

    /** Throws {@link InvalidConfigException} listing every problem, if there is any. */
    public void throwIfAny(String source) {
        if (!list.isEmpty()) {
            throw new InvalidConfigException(source, list);
        }
    }
}
