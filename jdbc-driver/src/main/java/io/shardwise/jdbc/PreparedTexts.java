package io.shardwise.jdbc;

import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

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
 * held, as Connector/J's {@code prepStmtCacheSqlLimit} does. A text is read in the session's
 * sql_mode (NO_BACKSLASH_ESCAPES, ANSI_QUOTES), so a change of mode starts over too.
 */
final class PreparedTexts {
    static final int MAX_TEXTS = 256;
    static final int MAX_CACHED_LENGTH = 4096;
    private final ConcurrentHashMap<String, NormalizedSql> texts = new ConcurrentHashMap<>();
    private volatile LexicalMode mode = LexicalMode.DEFAULT;

    /** @param reader reads a text in {@code current}, the session's mode ({@code EngineSession::normalize}) */
    NormalizedSql normalize(String sql, LexicalMode current, Function<String, NormalizedSql> reader) {
        if (sql.length() > MAX_CACHED_LENGTH) {
            return reader.apply(sql);
        }
        if (!current.equals(mode)) {
            texts.clear();
            mode = current;
        }
        NormalizedSql cached = texts.get(sql);
        if (cached == null) {
            // a text that fails to lex throws here, before anything is stored, on every prepare
            cached = reader.apply(sql);
            if (texts.size() >= MAX_TEXTS) {
                texts.clear();
            }
            texts.put(sql, cached);
        }
        return cached;
    }
}
