package io.shardwise.jdbc;

import io.shardwise.core.sql.normalize.NormalizedSql;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One connection's prepared statement texts, normalized once rather than on every
 * {@code prepareStatement}: applications behind a pool prepare the same few texts on every request
 * (HikariCP does not cache statements), and lexing the text was the largest cost of preparing.
 * Keyed by the exact text.
 *
 * <p>Per connection, not per JVM: a {@link NormalizedSql} decodes its literal values lazily into
 * plain fields, which is safe for the threads a pool hands one connection to in turn but not for
 * threads sharing one object at once.
 *
 * <p>Bounded crudely: at {@link #MAX_TEXTS} texts it starts over, which an application with a
 * normal, fixed set of statements never reaches, and one that builds texts with inline values only
 * pays a lookup for. Texts longer than {@link #MAX_CACHED_LENGTH} (large generated INSERTs) are not
 * held, as Connector/J's {@code prepStmtCacheSqlLimit} does.
 */
final class PreparedTexts {
    static final int MAX_TEXTS = 256;
    static final int MAX_CACHED_LENGTH = 4096;
    private final ConcurrentHashMap<String, NormalizedSql> texts = new ConcurrentHashMap<>();

    NormalizedSql normalize(String sql) {
        if (sql.length() > MAX_CACHED_LENGTH) {
            return Normalizer.normalize(sql);
        }
        NormalizedSql cached = texts.get(sql);
        if (cached == null) {
            // a text that fails to lex throws here, before anything is stored, on every prepare
            cached = Normalizer.normalize(sql);
            if (texts.size() >= MAX_TEXTS) {
                texts.clear();
            }
            texts.put(sql, cached);
        }
        return cached;
    }
}
