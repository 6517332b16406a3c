package io.shardwise.core.route;

import java.util.concurrent.ConcurrentHashMap;

/**
 * One cached plan's unit SQL, already rendered, for prepared statements: without clause edits a
 * unit's SQL is a function of the plan, the user's own text (its spelling, comments, spacing and
 * inline literals; many texts share one digest) and the node's physical table names, never of the
 * parameter values, which stay {@code ?}s. A prepared statement's text is the same at every
 * execution, so it is rendered once per node and then looked up.
 *
 * <p>Why nothing invalidates it: physical names come from the sharding rule, fixed for the engine's
 * life, and a new rule means a new engine; DDL changes a table's columns, not its names or the
 * statement's text; the session's charset changes how Connector/J encodes the text, not the text.
 * Never cached: units with clause edits a value made (a scatter's rewritten LIMIT carries the
 * offset plus the count, values of this execution; the router keeps units whose edits are the
 * statement's own, its labels or a merge planned without reading a value, in stores of their own, with
 * the order of their values), and text statements without a {@code ?} (their literals make nearly
 * every text new, which would only fill the cache).
 *
 * <p>Bounded: at most {@link #MAX_SOURCES} texts per plan, each at most {@link #MAX_LENGTH}
 * characters; other texts render every time, as before. The plan cache's weight does not count
 * these strings, so the bound is what keeps them small next to the plan.
 *
 * <p>Thread-safe: plans are shared by every session. A slot is written at most a few times with
 * equal strings (two threads may render the same unit at once); a String is safely published
 * through a race, so a reader sees either null (and renders) or the whole text.
 */
final class RenderedTexts {
    static final int MAX_SOURCES = 16;
    static final int MAX_LENGTH = 4096;

    /** Slot 0: the text with the single tables' names; slot i + 1: the text for sharded node i. */
    private final int slots;
    private final ConcurrentHashMap<String, Object[]> bySource = new ConcurrentHashMap<>(4);

    RenderedTexts(int nodes) {
        this.slots = nodes + 1;
    }

    static int singleSlot() {
        return 0;
    }

    static int nodeSlot(int node) {
        return node + 1;
    }

    /** The rendered SQL for {@code source} at {@code slot} (as the router keeps it), or null when not rendered yet. */
    Object get(String source, int slot) {
        Object[] texts = bySource.get(source);
        return texts == null ? null : texts[slot];
    }

    void put(String source, int slot, Object sql) {
        if (source.length() > MAX_LENGTH) {
            return;
        }
        Object[] texts = bySource.get(source);
        if (texts == null) {
            if (bySource.size() >= MAX_SOURCES) {
                return;
            }
            texts = bySource.computeIfAbsent(source, s -> new Object[slots]);
        }
        texts[slot] = sql;
    }

    /** How many user texts hold rendered units (tests). */
    int sources() {
        return bySource.size();
    }
}
