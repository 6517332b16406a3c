package io.shardwise.core.sql.normalize;

/**
 * One {@code ?} of a digest: a literal of the statement, or the client's own {@code ?} marker.
 * {@code [start, end)} spans the literal in the original statement, including a folded unary
 * minus, a charset introducer, every adjacent string and a typed literal's keyword, so splicing
 * {@link #text()} back at those offsets reproduces the statement.
 *
 * <p>The value is decoded on first use (a cache hit often needs only the sharding key's value);
 * the result is cached racily, which is safe because decoding is deterministic. Hazard: a
 * {@code byte[]} value is shared, so callers must not modify it.
 */
public final class Literal {
    private final String sql;
    private final LiteralKind kind;
    private final int start;
    private final int end;
    private final int paramIndex;
    /** How the text was lexed, so the value decodes the same way (backslash escapes or not). */
    private final LexicalMode mode;
    private Object value;

    Literal(String sql, LiteralKind kind, int start, int end, int paramIndex) {
        this(sql, kind, start, end, paramIndex, LexicalMode.DEFAULT);
    }

    Literal(String sql, LiteralKind kind, int start, int end, int paramIndex, LexicalMode mode) {
        this.mode = mode;
        this.sql = sql;
        this.kind = kind;
        this.start = start;
        this.end = end;
        this.paramIndex = paramIndex;
    }

    public LiteralKind kind() {
        return kind;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** The client's parameter number (0, 1, 2 ...) for a {@code ?} marker; -1 for a literal. */
    public int paramIndex() {
        return paramIndex;
    }

    public boolean isParameter() {
        return kind == LiteralKind.PARAMETER;
    }

    /** The literal exactly as written. */
    public String text() {
        return sql.substring(start, end);
    }

    /**
     * The decoded Java value (see {@link LiteralKind} for the type per kind); null for a
     * {@link LiteralKind#PARAMETER}, whose value the client binds. SQL NULL is never a literal.
     */
    public Object value() {
        if (kind == LiteralKind.PARAMETER) {
            return null;
        }
        Object v = value;
        if (v == null) {
            v = LiteralDecoder.decode(kind, sql, start, end, mode);
            value = v;
        }
        return v;
    }

    @Override
    public String toString() {
        return kind + (isParameter() ? " #" + paramIndex : " " + text()) + " [" + start + ", " + end + ")";
    }
}
