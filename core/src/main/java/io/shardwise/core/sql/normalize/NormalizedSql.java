package io.shardwise.core.sql.normalize;

import java.util.List;

/**
 * A statement as the plan cache sees it: the original {@link #sql()}, its {@link #digest()} (the
 * canonical text with every literal as {@code ?}), the digest's 64-bit {@link #digestHash()} and
 * the {@link #literals()} behind its {@code ?}s, in order.
 *
 * <p>The digest is stored as token spans over the original text and rendered to a {@code String}
 * only when asked ({@link #digest()}), so a cache hit can compare with {@link #digestEquals}
 * without building it. Token {@code i} of the digest covers {@code [tokenStart(i), tokenEnd(i))}
 * of the original text; plans that must find a token again in another statement with the same
 * digest should record token indexes, not character offsets, because whitespace, comments and
 * literal lengths differ between such statements.
 *
 * <p>Immutable apart from the racily cached digest string and literal values (both deterministic).
 */
public final class NormalizedSql {
    static final int VERBATIM = -1;
    static final int PLACEHOLDER = -2;
    static final int LOWER_CASE = -3;
    /** An ANSI_QUOTES {@code "identifier"}, spelled with backticks so the digest reads alike in every mode. */
    static final int BACKTICKED = -4;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private final String sql;
    /** Per digest token: start, end, (code << 1 | space-before). Code: keyword id or one of the above. */
    private final int[] tokens;
    private final int tokenCount;
    private final long digestHash;
    private final int digestLength;
    private final List<Literal> literals;
    private final int parameterCount;
    private final LexicalMode mode;
    private String digest;

    NormalizedSql(String sql, int[] tokens, int tokenCount, long digestHash, int digestLength,
            List<Literal> literals, int parameterCount, LexicalMode mode) {
        this.mode = mode;
        this.sql = sql;
        this.tokens = tokens;
        this.tokenCount = tokenCount;
        this.digestHash = digestHash;
        this.digestLength = digestLength;
        this.literals = literals;
        this.parameterCount = parameterCount;
    }

    public String sql() {
        return sql;
    }

    /**
     * The sql_mode flags the text was read in. Part of the plan cache key: the same digest read in
     * another mode is another statement (token boundaries, string contents), so plans never mix modes.
     */
    public LexicalMode lexicalMode() {
        return mode;
    }

    /** The canonical text; see {@link Normalizer} for its spelling and spacing rules. */
    public String digest() {
        String d = digest;
        if (d == null) {
            StringBuilder out = new StringBuilder(digestLength);
            for (int i = 0; i < tokenCount; i++) {
                int s = tokens[3 * i];
                int e = tokens[3 * i + 1];
                int meta = tokens[3 * i + 2];
                if ((meta & 1) != 0) {
                    out.append(' ');
                }
                int code = meta >> 1;
                switch (code) {
                    case VERBATIM -> out.append(sql, s, e);
                    case PLACEHOLDER -> out.append('?');
                    case LOWER_CASE -> {
                        for (int j = s; j < e; j++) {
                            out.append(Keywords.lower(sql.charAt(j)));
                        }
                    }
                    case BACKTICKED -> out.append(backticked(sql, s, e));
                    default -> out.append(Keywords.text(code));
                }
            }
            d = out.toString();
            digest = d;
        }
        return d;
    }

    /** Whether {@code other} is this statement's digest, without rendering the digest. */
    public boolean digestEquals(String other) {
        if (other.length() != digestLength) {
            return false;
        }
        String d = digest;
        if (d != null) {
            return d.equals(other);
        }
        int at = 0;
        for (int i = 0; i < tokenCount; i++) {
            int s = tokens[3 * i];
            int e = tokens[3 * i + 1];
            int meta = tokens[3 * i + 2];
            if ((meta & 1) != 0 && other.charAt(at++) != ' ') {
                return false;
            }
            int code = meta >> 1;
            switch (code) {
                case VERBATIM -> {
                    if (!other.regionMatches(at, sql, s, e - s)) {
                        return false;
                    }
                    at += e - s;
                }
                case PLACEHOLDER -> {
                    if (other.charAt(at++) != '?') {
                        return false;
                    }
                }
                case LOWER_CASE -> {
                    for (int j = s; j < e; j++) {
                        if (other.charAt(at++) != Keywords.lower(sql.charAt(j))) {
                            return false;
                        }
                    }
                }
                case BACKTICKED -> {
                    String word = backticked(sql, s, e);
                    if (!other.startsWith(word, at)) {
                        return false;
                    }
                    at += word.length();
                }
                default -> {
                    String word = Keywords.text(code);
                    if (!other.startsWith(word, at)) {
                        return false;
                    }
                    at += word.length();
                }
            }
        }
        return true;
    }

    /** FNV-1a over the digest's characters; equal digests have equal hashes. */
    public long digestHash() {
        return digestHash;
    }

    public int digestLength() {
        return digestLength;
    }

    /** One entry per {@code ?} of the digest, in order. */
    public List<Literal> literals() {
        return literals;
    }

    /** How many of the literals are the client's {@code ?} markers. */
    public int parameterCount() {
        return parameterCount;
    }

    /**
     * Where each token stands in {@link #digest()}: {@code [start0, end0, start1, end1, ...]}. The same
     * for every statement with this digest, so a plan can compute it once and map its digest offsets
     * to token indexes, then to offsets in any later statement's text.
     */
    public int[] digestTokenOffsets() {
        int[] out = new int[2 * tokenCount];
        int at = 0;
        for (int i = 0; i < tokenCount; i++) {
            int s = tokens[3 * i];
            int e = tokens[3 * i + 1];
            int meta = tokens[3 * i + 2];
            if ((meta & 1) != 0) {
                at++;
            }
            int code = meta >> 1;
            int length = switch (code) {
                case VERBATIM, LOWER_CASE -> e - s;
                case PLACEHOLDER -> 1;
                case BACKTICKED -> backticked(sql, s, e).length();
                default -> Keywords.text(code).length();
            };
            out[2 * i] = at;
            at += length;
            out[2 * i + 1] = at;
        }
        return out;
    }

    public int tokenCount() {
        return tokenCount;
    }

    public int tokenStart(int index) {
        return tokens[3 * checkIndex(index)];
    }

    public int tokenEnd(int index) {
        return tokens[3 * checkIndex(index) + 1];
    }

    /** The index of the digest token whose span contains {@code offset}, or -1 (whitespace, comment). */
    public int tokenAt(int offset) {
        int lo = 0;
        int hi = tokenCount - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (tokens[3 * mid + 1] <= offset) {
                lo = mid + 1;
            } else if (tokens[3 * mid] > offset) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return digest();
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= tokenCount) {
            throw new IndexOutOfBoundsException(index);
        }
        return index;
    }

    /** {@code "a""b`c"} as {@code `a"b``c`}: the same identifier in MySQL's default quoting. */
    static String backticked(String sql, int start, int end) {
        StringBuilder out = new StringBuilder(end - start + 2).append('`');
        for (int i = start + 1; i < end - 1; i++) {
            char c = sql.charAt(i);
            if (c == '"') {
                i++; // a doubled quote stands for one
            } else if (c == '`') {
                out.append('`');
            }
            out.append(c);
        }
        return out.append('`').toString();
    }

    static long hashOf(CharSequence digest) {
        long h = FNV_OFFSET;
        for (int i = 0; i < digest.length(); i++) {
            h = mix(h, digest.charAt(i));
        }
        return h;
    }

    static long start() {
        return FNV_OFFSET;
    }

    static long mix(long h, char c) {
        return (h ^ c) * FNV_PRIME;
    }
}
