package io.shardwise.core.sql.analyze;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;

/**
 * MariaDB's 1064 for a statement its grammar refuses at a point the analyzer finds in the digest: worded from the text it is
 * given ({@link #in}: the user's own, so the "near" text keeps their spelling and values, as MariaDB's does), its first 80
 * characters from that point (then "..."), and the line it starts on.
 */
public final class SyntaxErrorNear extends ShardwiseException {
    private final int digestOffset;

    SyntaxErrorNear(String digest, int digestOffset) {
        super(ErrorCode.PARSE_ERROR, message(digest, digestOffset));
        this.digestOffset = digestOffset;
    }

    private SyntaxErrorNear(String text, int at, int digestOffset) {
        super(ErrorCode.PARSE_ERROR, message(text, at));
        this.digestOffset = digestOffset;
    }

    /** The same error worded from {@code text} (the statement as the user wrote it), {@code at} the digest offset's place there. */
    public SyntaxErrorNear in(String text, java.util.function.IntUnaryOperator at) {
        return new SyntaxErrorNear(text, at.applyAsInt(digestOffset), digestOffset);
    }

    private static String message(String sql, int at) {
        String near = sql.substring(at).stripTrailing();
        if (near.endsWith(";")) {
            near = near.substring(0, near.length() - 1).stripTrailing();
        }
        near = near.length() > 80 ? near.substring(0, 80) + "..." : near;
        int line = 1;
        for (int i = 0; i < at; i++) {
            line += sql.charAt(i) == '\n' ? 1 : 0;
        }
        return "check the manual that corresponds to your MariaDB server version for the right syntax to use near '" + near + "' at line "
                + line;
    }
}
