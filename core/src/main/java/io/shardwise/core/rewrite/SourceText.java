package io.shardwise.core.rewrite;

import io.shardwise.core.sql.normalize.NormalizedSql;
import java.util.Arrays;

/**
 * The text a statement is rendered from. Plans hold offsets into their digest; rendering copies the
 * user's own text between them, so what a backend receives keeps the user's spelling — and column
 * labels come back as the user wrote them ({@code COUNT(*)}, not {@code count(*)}).
 */
public interface SourceText {
    String text();

    /** The offset in {@link #text()} of a token boundary at {@code digestOffset} of the digest. */
    int at(int digestOffset);

    /** Whether {@link #text()} spells out the statement's literal values (a user's text, not a digest). */
    default boolean hasValues() {
        return false;
    }

    /** The digest itself (tests, and statements rendered from their normalized form). */
    static SourceText of(String text) {
        return new SourceText() {
            @Override
            public String text() {
                return text;
            }

            @Override
            public int at(int digestOffset) {
                return digestOffset;
            }
        };
    }

    /**
     * A statement's original text, through the token layout of its digest ({@link
     * NormalizedSql#digestTokenOffsets()}, computed once per cached plan).
     */
    static SourceText original(NormalizedSql statement, int[] digestTokenOffsets) {
        return new SourceText() {
            @Override
            public String text() {
                return statement.sql();
            }

            @Override
            public boolean hasValues() {
                return true;
            }

            @Override
            public int at(int digestOffset) {
                int tokens = digestTokenOffsets.length / 2;
                if (tokens == 0) {
                    return 0;
                }
                int lo = 0;
                int hi = tokens - 1;
                // the first token whose end is at or after the offset
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (digestTokenOffsets[2 * mid + 1] < digestOffset) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                if (digestOffset <= digestTokenOffsets[2 * lo]) {
                    return statement.tokenStart(lo); // at (or in the space before) a token's start
                }
                if (digestOffset >= digestTokenOffsets[2 * lo + 1]) {
                    return statement.tokenEnd(lo);
                }
                throw new IllegalArgumentException("offset " + digestOffset + " is inside token " + lo + " "
                        + Arrays.toString(Arrays.copyOfRange(digestTokenOffsets, 2 * lo, 2 * lo + 2)));
            }
        };
    }
}
