package io.shardwise.core;

import io.shardwise.core.session.UserVariables;
import io.shardwise.core.sql.normalize.ClientCharset;
import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.HashMap;
import java.util.function.Function;

/**
 * The prepared statements' texts one session's relay has read, so that an execution does not read
 * its statement again: a text normalized (executable comments, explicit bytes, the lexer and digest),
 * checked for an inner {@code @x :=} and for markers outside the WHERE clause once, then reused by
 * every execution — the text of a prepared statement never changes, only its values do. A text
 * COM_QUERY carries its values in its text and is read each time; an execution of a prepared one
 * cost the same read again per execution before this.
 *
 * <p>A reading holds for the lexical mode and character set it was made in (both are inputs of the
 * normalization; another mode or charset reads again). A text that mentions {@code @} is never kept:
 * the session substitutes the user variables it reads ({@link EngineSession#normalize}), whose values
 * change. Whether the plan is cached, routing and access are looked up per execution, as before.
 * Bounded: past {@link #MAX} texts the readings are dropped and made again. One per session; not
 * thread-safe (the relay's event loop, or the session's thread, one at a time).
 */
final class PreparedTexts {
    static final int MAX = 256;

    /**
     * One text read in one mode and charset.
     *
     * @param assigns the statement assigns a user variable inside it ({@code @x := ...})
     * @param markersOnlyInWhere every {@code ?} lies in the WHERE clause ({@link EngineRelay#markersOnlyInWhere})
     */
    record Reading(NormalizedSql normalized, LexicalMode mode, ClientCharset charset, boolean assigns, boolean markersOnlyInWhere,
                   Kept kept) {
        Reading(NormalizedSql normalized, LexicalMode mode, ClientCharset charset, boolean assigns, boolean markersOnlyInWhere) {
            this(normalized, mode, charset, assigns, markersOnlyInWhere, new Kept());
        }
    }

    /**
     * The relayed unit of a statement whose route no value changes ({@link EngineRelay#prepared}: it names no sharded
     * table, so one node, one unit, the text already rendered), kept for its reading (so for its text, lexical mode and
     * charset) with what else it was routed by: the cached plan it was routed from (a new plan after DDL or eviction
     * routes again) and the session's schema. Empty until the first execution routes it.
     */
    static final class Kept {
        private CachedPlan plan;
        private String schema;
        private java.util.List<io.shardwise.core.route.ExecutionUnit> units;

        /** The kept units when routed from {@code plan} in {@code schema}, else null. */
        java.util.List<io.shardwise.core.route.ExecutionUnit> units(CachedPlan plan, String schema) {
            return this.plan == plan && plan != null && schema.equals(this.schema) ? units : null;
        }

        void keep(CachedPlan plan, String schema, java.util.List<io.shardwise.core.route.ExecutionUnit> units) {
            this.plan = plan;
            this.schema = schema;
            this.units = units;
        }
    }

    private final HashMap<String, Reading> bySql = new HashMap<>();
    private long reads;

    /** {@code sql}'s reading in this mode and charset: kept, or made now with {@code normalize} (and kept when it may be). */
    Reading read(String sql, LexicalMode mode, ClientCharset charset, Function<String, NormalizedSql> normalize) {
        Reading kept = bySql.get(sql);
        if (kept != null && kept.mode().equals(mode) && kept.charset() == charset) {
            return kept;
        }
        reads++;
        NormalizedSql normalized = normalize.apply(sql);
        Reading reading = new Reading(normalized, mode, charset,
                UserVariables.innerAssignment(normalized.sql(), normalized.lexicalMode()) != null,
                EngineRelay.markersOnlyInWhere(normalized));
        if (sql.indexOf('@') < 0) {
            if (bySql.size() >= MAX && kept == null) {
                bySql.clear();
            }
            bySql.put(sql, reading);
        }
        return reading;
    }

    /** How many times a text was read (normalized), kept readings not counted: one per statement and mode. */
    long reads() {
        return reads;
    }
}
