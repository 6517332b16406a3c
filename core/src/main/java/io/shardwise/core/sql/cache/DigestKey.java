package io.shardwise.core.sql.cache;

import io.shardwise.core.sql.normalize.LexicalMode;
import io.shardwise.core.sql.normalize.NormalizedSql;

/**
 * A plan cache key: the digest hash plus either the digest string (stored keys) or the statement
 * it came from (probes). A probe compares itself with a stored key through
 * {@link NormalizedSql#digestEquals}, so a cache hit never renders the digest string; only a miss
 * stores a key, and stored keys always hold the string. The full comparison (not the 64-bit hash
 * alone) is what keeps a hash collision from running another statement's plan. The lexical mode
 * (every sql_mode flag that changes how a text reads: NO_BACKSLASH_ESCAPES, ANSI_QUOTES, PIPES_AS_CONCAT,
 * HIGH_NOT_PRECEDENCE, IGNORE_SPACE, MariaDB's ORACLE and EMPTY_STRING_IS_NULL) is part of the key: one
 * text read in two modes is two statements.
 */
final class DigestKey {
    private final long hash;
    private final String digest;
    private final NormalizedSql statement;
    private final LexicalMode mode;

    private DigestKey(long hash, String digest, NormalizedSql statement, LexicalMode mode) {
        this.mode = mode;
        this.hash = hash;
        this.digest = digest;
        this.statement = statement;
    }

    static DigestKey probe(NormalizedSql statement) {
        return new DigestKey(statement.digestHash(), null, statement, statement.lexicalMode());
    }

    static DigestKey stored(NormalizedSql statement) {
        return new DigestKey(statement.digestHash(), statement.digest(), null, statement.lexicalMode());
    }

    String digest() {
        return digest != null ? digest : statement.digest();
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof DigestKey other) || hash != other.hash || !mode.equals(other.mode)) {
            return false;
        }
        if (digest != null) {
            return other.digest != null ? digest.equals(other.digest) : other.statement.digestEquals(digest);
        }
        return statement.digestEquals(other.digest());
    }

    @Override
    public int hashCode() {
        return Long.hashCode(hash);
    }

    @Override
    public String toString() {
        return digest();
    }
}
