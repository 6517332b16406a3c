package io.shardwise.jdbc;

import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Prepared statement texts, normalized once per JVM rather than once per {@code prepareStatement}:
 * applications behind a pool prepare the same few texts on every request (HikariCP does not cache
 * statements), and lexing the text was the largest cost of preparing. Keyed by the exact text; a
 * {@link NormalizedSql} is immutable and does not depend on the engine, so one map serves all.
 *
 * <p>Bounded crudely: when it holds {@link #MAX_TEXTS} texts it starts over, which an application
 * with a normal, fixed set of statements never reaches, and one that builds texts with inline
 * values only pays a lookup for. Texts longer than {@link #MAX_CACHED_LENGTH} (large generated
 * INSERTs) are not held, as Connector/J's {@code prepStmtCacheSqlLimit} does.
 */
final class PreparedTexts {
    static final int MAX_TEXTS = 2048;
    static final int MAX_CACHED_LENGTH = 4096;
    private static final ConcurrentHashMap<String, NormalizedSql> TEXTS = new ConcurrentHashMap<>();

    private PreparedTexts() {}

    static NormalizedSql normalize(String sql) {
        if (sql.length() > MAX_CACHED_LENGTH) {
            return Normalizer.normalize(sql);
        }
        NormalizedSql cached = TEXTS.get(sql);
        if (cached == null) {
            // a text that fails to lex throws here, before anything is stored, on every prepare
            cached = Normalizer.normalize(sql);
            if (TEXTS.size() >= MAX_TEXTS) {
                TEXTS.clear();
            }
            TEXTS.put(sql, cached);
        }
        return cached;
    }
}
