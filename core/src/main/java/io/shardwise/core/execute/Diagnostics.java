package io.shardwise.core.execute;

import java.util.ArrayList;
import java.util.List;

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

    /**
     * Per unit, its slot, read and written as volatile ({@link #SLOT}): one array where an
     * AtomicReferenceArray is two objects. An area is made per statement (relayed ones on an event
     * loop), so what most statements never use is made only when used.
     */
    private final Unit[] units;
    /** What the merger raised itself, after the units' conditions (it computes after they were read); null until it raises one. */
    private volatile List<Condition> merged;
    /** Conditions the merger raised, beyond the cap too; written under this area's lock. */
    private volatile int mergedCount;
    private volatile Condition error;
    private static final java.lang.invoke.VarHandle SLOT = java.lang.invoke.MethodHandles.arrayElementVarHandle(Unit[].class);
    private static final Unit[] NO_UNITS = new Unit[0];

    /** What one unit's backend reported: its warning count, and the conditions SHOW WARNINGS listed (up to the backend's cap). */
    record Unit(int count, List<Condition> conditions) {}

    public Diagnostics(int units) {
        this.units = units == 0 ? NO_UNITS : new Unit[units];
    }

    /** An area for statements that raise nothing of their own (answered without a backend). */
    public static Diagnostics empty() {
        return new Diagnostics(0);
    }

    public void unit(int index, int count, List<Condition> conditions) {
        if (index < units.length) {
            SLOT.setVolatile(units, index, new Unit(count, List.copyOf(conditions)));
        }
    }

    /** A condition the merger raised while computing the result (kept up to {@link #MAX_ERROR_COUNT}). */
    public synchronized void merged(Condition condition) {
        if (mergedCount++ < MAX_ERROR_COUNT) {
            if (merged == null) {
                merged = new java.util.concurrent.CopyOnWriteArrayList<>();
            }
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
        for (int i = 0; i < units.length; i++) {
            Unit u = (Unit) SLOT.getVolatile(units, i);
            if (u != null) {
                for (Condition c : u.conditions()) {
                    if (out.size() < MAX_ERROR_COUNT) {
                        out.add(c);
                    }
                }
            }
        }
        List<Condition> raised = merged;
        for (Condition c : raised == null ? List.<Condition>of() : raised) {
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
        int n = (error == null ? 0 : 1) + mergedCount;
        for (int i = 0; i < units.length; i++) {
            Unit u = (Unit) SLOT.getVolatile(units, i);
            if (u != null) {
                n += Math.max(u.count(), u.conditions().size());
            }
        }
        return n;
    }

    /** {@code @@error_count}. */
    public int errorCount() {
        int n = error == null ? 0 : 1;
        for (int i = 0; i < units.length; i++) {
            Unit u = (Unit) SLOT.getVolatile(units, i);
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
