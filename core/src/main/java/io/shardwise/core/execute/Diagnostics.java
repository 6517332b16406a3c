package io.shardwise.core.execute;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The diagnostics area of one statement: the conditions each unit's backend reported, merged in
 * unit order, then the statement's error, if it failed. Units fill their own slot from their own
 * threads (an update when it is done, a result set when its cursor reaches the end), so a SELECT's
 * conditions are complete only once its rows are read, as on MySQL's wire (the EOF carries them).
 *
 * <p>Like MySQL, {@link #warningCount} counts every condition raised, while {@link #conditions}
 * keeps at most {@link #MAX_ERROR_COUNT} ({@code max_error_count}'s default).
 */
public final class Diagnostics {
    public static final int MAX_ERROR_COUNT = 64;

    private final AtomicReferenceArray<Unit> units;
    /** What the merger raised itself, after the units' conditions (it computes after they were read). */
    private final List<Condition> merged = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger mergedCount = new java.util.concurrent.atomic.AtomicInteger();
    private volatile Condition error;

    /** What one unit's backend reported: its warning count, and the conditions SHOW WARNINGS listed (up to the backend's cap). */
    record Unit(int count, List<Condition> conditions) {}

    public Diagnostics(int units) {
        this.units = new AtomicReferenceArray<>(units);
    }

    /** An area for statements that raise nothing of their own (answered without a backend). */
    public static Diagnostics empty() {
        return new Diagnostics(0);
    }

    public void unit(int index, int count, List<Condition> conditions) {
        if (index < units.length()) {
            units.set(index, new Unit(count, List.copyOf(conditions)));
        }
    }

    /** A condition the merger raised while computing the result (kept up to {@link #MAX_ERROR_COUNT}). */
    public void merged(Condition condition) {
        if (mergedCount.getAndIncrement() < MAX_ERROR_COUNT) {
            merged.add(condition);
        }
    }

    /** The statement failed with this error (Shardwise's own or a backend's, as the client sees it). */
    public void fail(int code, String message) {
        error = new Condition(Condition.Level.ERROR, code, message);
    }

    /** Conditions in unit order, then the error; at most {@link #MAX_ERROR_COUNT}. */
    public List<Condition> conditions() {
        List<Condition> out = new ArrayList<>();
        for (int i = 0; i < units.length(); i++) {
            Unit u = units.get(i);
            if (u != null) {
                for (Condition c : u.conditions()) {
                    if (out.size() < MAX_ERROR_COUNT) {
                        out.add(c);
                    }
                }
            }
        }
        for (Condition c : merged) {
            if (out.size() < MAX_ERROR_COUNT) {
                out.add(c);
            }
        }
        Condition e = error;
        if (e != null) {
            // MySQL keeps the error even when warnings filled the area: it is what the client was told
            if (out.size() == MAX_ERROR_COUNT) {
                out.removeLast();
            }
            out.add(e);
        }
        return out;
    }

    /** {@code @@warning_count}: errors, warnings and notes raised, including those beyond the cap. */
    public int warningCount() {
        int n = (error == null ? 0 : 1) + mergedCount.get();
        for (int i = 0; i < units.length(); i++) {
            Unit u = units.get(i);
            if (u != null) {
                n += Math.max(u.count(), u.conditions().size());
            }
        }
        return n;
    }

    /** {@code @@error_count}. */
    public int errorCount() {
        int n = error == null ? 0 : 1;
        for (int i = 0; i < units.length(); i++) {
            Unit u = units.get(i);
            if (u != null) {
                for (Condition c : u.conditions()) {
                    if (c.level() == Condition.Level.ERROR) {
                        n++;
                    }
                }
            }
        }
        return n;
    }
}
