package io.shardwise.core.execute;

import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One session's units with their {@code ?} values written in ({@link InlineParameters}), the markers of each unit
 * text found once: a prepared statement's units have the same text at every execution (the router keeps it rendered
 * per node), so each execution splices its values into spans already found instead of lexing the text again.
 *
 * <p>Exact: the markers are a function of the text and the lexical mode alone ({@link InlineParameters#markers}); the
 * key is the whole text, and the cache holds one mode's markers, emptied when the session's mode changes (sql_mode
 * ANSI_QUOTES or NO_BACKSLASH_ESCAPES decide what is a string, so where a {@code ?} is one). Bounded: at most
 * {@link #MAX_TEXTS} texts of at most {@link #MAX_LENGTH} characters, emptied when full; longer texts are lexed every time.
 *
 * <p>Thread-safe: the face may inline a prepared execution's units on its event loop ({@code EngineRelay}) while the
 * session's thread inlines others; the mode and its map are read as one reference.
 */
public final class InlinedUnits {
    static final int MAX_TEXTS = 64;
    static final int MAX_LENGTH = 16 * 1024;

    private record Markers(LexicalMode mode, ConcurrentHashMap<String, int[]> byText) {}

    private volatile Markers cache = new Markers(null, new ConcurrentHashMap<>());
    /** How many times a text was lexed for its markers (tests). */
    private volatile long lexes;

    /** {@code units} with their values inline, in {@code mode}; units without parameters as they are. */
    public List<ExecutionUnit> of(List<ExecutionUnit> units, LexicalMode mode) {
        return InlineParameters.of(units, mode, this);
    }

    int[] markers(String sql, LexicalMode mode) {
        Markers c = cache;
        if (!mode.equals(c.mode())) {
            c = new Markers(mode, new ConcurrentHashMap<>());
            cache = c;
        }
        int[] spans = c.byText().get(sql);
        if (spans != null) {
            return spans;
        }
        spans = InlineParameters.markers(sql, mode);
        lexes++;
        if (sql.length() <= MAX_LENGTH) {
            if (c.byText().size() >= MAX_TEXTS) {
                c = new Markers(mode, new ConcurrentHashMap<>());
                cache = c;
            }
            c.byText().put(sql, spans);
        }
        return spans;
    }

    long lexes() {
        return lexes;
    }
}
