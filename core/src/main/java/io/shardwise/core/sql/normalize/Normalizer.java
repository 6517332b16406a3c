package io.shardwise.core.sql.normalize;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Turns a statement into its {@link NormalizedSql} in one pass of {@link SqlLexer}, computing the
 * digest hash and length on the way, so that statements differing only in comments, whitespace,
 * keyword case or literal values share one cached plan.
 *
 * <p><b>Digest spelling.</b> Ordinary comments are dropped; hints ({@code /*+ *}{@code /}) and
 * executable comments ({@code /*! *}{@code /}) stay verbatim. Every literal becomes {@code ?}, a
 * unary minus before a number folding into it ({@code id = -5} is {@code id = ?} with value -5;
 * a minus after an operand, {@code a - 5}, stays). The literal right after {@code INTERVAL} stays
 * verbatim. Keywords and built-in function names print in lower case, except where a word names a
 * table, alias or qualified part (next to a {@code .}; a non-reserved word after FROM, JOIN, INTO,
 * UPDATE, TABLE, AS, after a comma of a FROM list (up to WHERE, GROUP, ORDER, SET, VALUES ...),
 * or after an identifier or {@code )}): table
 * names and aliases are case-sensitive on Linux, and the digest is the text shards receive.
 * Identifiers and user variables keep their case; {@code @@system} variables print in lower case.
 * A {@code ;} with only comments or whitespace after it is dropped.
 *
 * <p><b>Digest spacing.</b> One space between tokens, except none after {@code (} or before
 * {@code )}, {@code ,} or {@code ;}; none on either side of {@code .}; and none between a
 * function-like word (identifier, non-reserved keyword, function name) and its {@code (}, so
 * {@code count(*)} and {@code t(a, b)} but {@code in (?, ?)} and {@code values (?)}.
 * Example: {@code SELECT c FROM sbtest1 WHERE id=42} is {@code select c from sbtest1 where id = ?}.
 *
 * <p>Malformed input (an unterminated string, identifier or comment) throws a
 * {@code ShardwiseException} with {@code PARSE_ERROR} naming the position; anything else lexes.
 * Not thread-confined: {@link #normalize} keeps its state on the stack of one call.
 */
public final class Normalizer {
    private static final int START = 0;
    /** Identifiers, non-reserved keywords and function names: a following {@code (} is a call. */
    private static final int CALLABLE = 1;
    private static final int RESERVED = 2;
    /** NULL, TRUE, CURRENT_TIMESTAMP ...: a following minus is binary. */
    private static final int VALUE = 3;
    private static final int LPAREN = 4;
    private static final int RPAREN = 5;
    private static final int COMMA = 6;
    private static final int DOT = 7;
    private static final int OPERATOR = 8;
    /** Literals, {@code ?} and variables. */
    private static final int OPERAND = 9;
    private static final int OPAQUE = 10;
    private static final int SEMI = 11;

    private static final boolean[] STARTS_TABLE_LIST = new boolean[4096];
    private static final boolean[] ENDS_TABLE_LIST = new boolean[4096];

    static {
        for (String w : "from join straight_join update into table".split(" ")) {
            STARTS_TABLE_LIST[Keywords.lookup(w, 0, w.length())] = true;
        }
        for (String w : "where group order having limit window union except intersect set values select for lock"
                .split(" ")) {
            ENDS_TABLE_LIST[Keywords.lookup(w, 0, w.length())] = true;
        }
    }

    // not final: an event loop's normalizer reads every statement of that loop (SPARE), a new one each other thread's
    private String sql;
    private LexicalMode mode;
    private final SqlLexer lexer;
    /** Per token three ints; the statement gets a copy of exactly its tokens (this array is the loop's scratch). */
    private int[] tokens = new int[SCRATCH_TOKENS];
    private int tokenCount;
    private long hash;
    private int length;
    /** The first literal alone: most statements have one, and List.of(first) needs no array. */
    private Literal firstLiteral;
    private Literal[] literals;
    private int literalCount;
    private int parameterCount;
    /** Class of the last digest token, and its keyword id when it printed as a keyword (else -1). */
    private int prev;
    private int prevKeyword;
    private boolean inTableList;
    private boolean glueNext;
    /** In {@link #run}: a normalize reached from inside one (none does today) gets a normalizer of its own. */
    private boolean busy;

    /** Ints of token scratch kept between statements (64 tokens); a longer statement's grown array is not kept. */
    private static final int SCRATCH_TOKENS = 3 * 64;
    /**
     * Each event loop's normalizer: a relayed statement is normalized on the loop, and a normalizer and
     * its lexer per statement were 120 bytes of its garbage. Virtual threads (the sessions' own) make
     * their own per statement, as before, rather than keep one each.
     */
    private static final ThreadLocal<Normalizer> SPARE = new ThreadLocal<>();

    private Normalizer() {
        this.lexer = new SqlLexer("", LexicalMode.DEFAULT);
    }

    /** The statement read in MySQL's default sql_mode ({@link LexicalMode#DEFAULT}). */
    public static NormalizedSql normalize(String sql) {
        return normalize(sql, LexicalMode.DEFAULT);
    }

    /** The statement read as a session with that sql_mode reads it (NO_BACKSLASH_ESCAPES, ANSI_QUOTES). */
    public static NormalizedSql normalize(String sql, LexicalMode mode) {
        Normalizer n;
        if (Thread.currentThread().isVirtual()) {
            n = new Normalizer();
        } else {
            n = SPARE.get();
            if (n == null) {
                n = new Normalizer();
                SPARE.set(n);
            } else if (n.busy) {
                n = new Normalizer();
            }
        }
        n.busy = true;
        try {
            n.start(sql, mode);
            return n.run();
        } finally {
            n.finish();
        }
    }

    private void start(String sql, LexicalMode mode) {
        this.sql = sql;
        this.mode = mode;
        lexer.restart(sql, mode);
        tokenCount = 0;
        hash = NormalizedSql.start();
        length = 0;
        firstLiteral = null;
        literals = null; // a LiteralList keeps its array: never reused
        literalCount = 0;
        parameterCount = 0;
        prev = START;
        prevKeyword = -1;
        inTableList = false;
        glueNext = false;
    }

    /** Forgets the statement (a kept normalizer holds no text, literal or long array of it). */
    private void finish() {
        busy = false;
        sql = null;
        lexer.restart("", LexicalMode.DEFAULT);
        firstLiteral = null;
        literals = null;
        if (tokens.length > SCRATCH_TOKENS) {
            tokens = new int[SCRATCH_TOKENS];
        }
    }

    private NormalizedSql run() {
        for (TokenKind kind = lexer.next(); kind != TokenKind.EOF; kind = lexer.next()) {
            token(kind, lexer.start(), lexer.end());
        }
        List<Literal> list = literalCount == 0 ? List.of()
                : literalCount == 1 ? List.of(firstLiteral) : new LiteralList(literals, literalCount);
        // the mode seeds nothing in the default case, so default-mode hashes stay what they were
        long h = mode == LexicalMode.DEFAULT ? hash : NormalizedSql.mix(hash, (char) mode.ordinal());
        return new NormalizedSql(sql, Arrays.copyOf(tokens, 3 * tokenCount), tokenCount, h, length, list, parameterCount, mode);
    }

    private void token(TokenKind kind, int s, int e) {
        switch (kind) {
            case IDENTIFIER -> emit(s, e, NormalizedSql.VERBATIM, CALLABLE, -1);
            case QUOTED_IDENTIFIER -> emit(s, e, sql.charAt(s) == '"' ? NormalizedSql.BACKTICKED : NormalizedSql.VERBATIM, CALLABLE, -1);
            case KEYWORD -> keyword(lexer.keyword(), s, e);
            case INTEGER, DECIMAL, DOUBLE, STRING, HEX, BIT, DATE, TIME, TIMESTAMP -> literal(kind.literalKind(), s, s, e);
            case PARAMETER -> {
                addLiteral(new Literal(sql, LiteralKind.PARAMETER, s, e, parameterCount++, mode));
                emit(s, e, NormalizedSql.PLACEHOLDER, OPERAND, -1);
            }
            case USER_VARIABLE -> emit(s, e, NormalizedSql.VERBATIM, OPERAND, -1);
            case SYSTEM_VARIABLE -> emit(s, e, NormalizedSql.LOWER_CASE, OPERAND, -1);
            case OPERATOR -> operator(s, e);
            case LEFT_PAREN -> emit(s, e, NormalizedSql.VERBATIM, LPAREN, -1);
            case RIGHT_PAREN -> emit(s, e, NormalizedSql.VERBATIM, RPAREN, -1);
            case COMMA -> emit(s, e, NormalizedSql.VERBATIM, COMMA, -1);
            case DOT -> emit(s, e, NormalizedSql.VERBATIM, DOT, -1);
            case SEMICOLON -> {
                if (!lexer.onlySeparatorsRemain()) {
                    emit(s, e, NormalizedSql.VERBATIM, SEMI, -1);
                    inTableList = false;
                }
            }
            case HINT, EXECUTABLE_COMMENT -> emit(s, e, NormalizedSql.VERBATIM, OPAQUE, -1);
            case EOF -> throw new IllegalStateException("EOF is handled by run()");
        }
    }

    private void keyword(int id, int s, int e) {
        int flags = Keywords.flags(id);
        boolean reserved = (flags & Keywords.RESERVED_FLAG) != 0;
        boolean tableListWord = STARTS_TABLE_LIST[id] || ENDS_TABLE_LIST[id];
        if (prev == DOT || lexer.isDotNext() || (!reserved && isNamePosition())) {
            emit(s, e, NormalizedSql.VERBATIM, CALLABLE, -1);
            return;
        }
        int cls = !reserved || (flags & Keywords.FUNCTION_FLAG) != 0 ? CALLABLE
                : (flags & Keywords.VALUE_FLAG) != 0 ? VALUE : RESERVED;
        emit(s, e, id, cls, id);
        if (tableListWord) {
            inTableList = STARTS_TABLE_LIST[id];
        }
    }

    /** Where a non-reserved word is more likely a table name or alias than a keyword. */
    private boolean isNamePosition() {
        return (prevKeyword >= 0 && (STARTS_TABLE_LIST[prevKeyword] || prevKeyword == Keywords.AS))
                || (prev == COMMA && inTableList)
                || prev == RPAREN
                || (prev == CALLABLE && prevKeyword < 0);
    }

    private void operator(int s, int e) {
        if (e - s == 1 && sql.charAt(s) == '-' && isUnaryPosition()) {
            int resume = lexer.position();
            TokenKind next = lexer.next();
            if (next.isNumber()) {
                literal(next.literalKind(), s, lexer.start(), lexer.end());
                return;
            }
            lexer.reset(resume);
        }
        emit(s, e, NormalizedSql.VERBATIM, OPERATOR, -1);
    }

    private boolean isUnaryPosition() {
        return switch (prev) {
            case START, LPAREN, COMMA, OPERATOR, RESERVED, OPAQUE, SEMI -> true;
            default -> false;
        };
    }

    /** A literal spanning {@code [s, e)}; {@code valueStart > s} when a unary minus was folded in. */
    private void literal(LiteralKind kind, int s, int valueStart, int e) {
        if (prevKeyword == Keywords.INTERVAL) {
            // Calcite cannot parse INTERVAL ? DAY: the quantity stays in the digest
            if (valueStart > s) {
                emit(s, s + 1, NormalizedSql.VERBATIM, OPERATOR, -1);
                glueNext = true;
                emit(valueStart, e, NormalizedSql.VERBATIM, OPERAND, -1);
            } else {
                emit(s, e, NormalizedSql.VERBATIM, OPERAND, -1);
            }
            return;
        }
        addLiteral(new Literal(sql, kind, s, e, -1, mode));
        emit(s, e, NormalizedSql.PLACEHOLDER, OPERAND, -1);
    }

    private void addLiteral(Literal literal) {
        if (literalCount == 0) {
            firstLiteral = literal;
            literalCount = 1;
            return;
        }
        if (literals == null) {
            literals = new Literal[4];
            literals[0] = firstLiteral;
        } else if (literalCount == literals.length) {
            literals = Arrays.copyOf(literals, literalCount * 2);
        }
        literals[literalCount++] = literal;
    }

    private void emit(int s, int e, int code, int cls, int keywordId) {
        boolean space = !glueNext && needsSpace(prev, cls);
        glueNext = false;
        if (3 * tokenCount + 3 > tokens.length) {
            tokens = Arrays.copyOf(tokens, tokens.length * 2);
        }
        int at = 3 * tokenCount++;
        tokens[at] = s;
        tokens[at + 1] = e;
        tokens[at + 2] = code << 1 | (space ? 1 : 0);
        long h = hash;
        if (space) {
            h = NormalizedSql.mix(h, ' ');
            length++;
        }
        switch (code) {
            case NormalizedSql.VERBATIM -> {
                for (int i = s; i < e; i++) {
                    h = NormalizedSql.mix(h, sql.charAt(i));
                }
                length += e - s;
            }
            case NormalizedSql.PLACEHOLDER -> {
                h = NormalizedSql.mix(h, '?');
                length++;
            }
            case NormalizedSql.LOWER_CASE -> {
                for (int i = s; i < e; i++) {
                    h = NormalizedSql.mix(h, Keywords.lower(sql.charAt(i)));
                }
                length += e - s;
            }
            case NormalizedSql.BACKTICKED -> {
                String word = NormalizedSql.backticked(sql, s, e);
                for (int i = 0; i < word.length(); i++) {
                    h = NormalizedSql.mix(h, word.charAt(i));
                }
                length += word.length();
            }
            default -> {
                String word = Keywords.text(code);
                for (int i = 0; i < word.length(); i++) {
                    h = NormalizedSql.mix(h, word.charAt(i));
                }
                length += word.length();
            }
        }
        hash = h;
        prev = cls;
        prevKeyword = keywordId;
    }

    private static boolean needsSpace(int prev, int cls) {
        if (prev == START || prev == LPAREN || prev == DOT) {
            return false;
        }
        return switch (cls) {
            case DOT, RPAREN, COMMA, SEMI -> false;
            case LPAREN -> prev != CALLABLE;
            default -> true;
        };
    }

    /** The literals of one statement; immutable. */
    private static final class LiteralList extends AbstractList<Literal> implements RandomAccess {
        private final Literal[] items;
        private final int size;

        LiteralList(Literal[] items, int size) {
            this.items = items;
            this.size = size;
        }

        @Override
        public Literal get(int index) {
            return items[java.util.Objects.checkIndex(index, size)];
        }

        @Override
        public int size() {
            return size;
        }
    }
}
