package io.shardwise.core.sql.normalize;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.function.Supplier;

/**
 * The statements of one query text (a COM_QUERY, a JDBC statement), taken one at a time as MySQL's parser takes them: the text is
 * first stripped of leading whitespace and of trailing whitespace and semicolons ({@code alloc_query}),
 * then each call to {@link #next} lexes up to the next {@code ;} outside strings, identifiers,
 * comments and compound statements (core's {@link SqlLexer}; {@link CompoundScope}: a stored
 * program's {@code BEGIN ... END} body is part of its CREATE statement). With multi-statements off, text after the first {@code ;} other
 * than comments is a syntax error (1064), as MySQL's grammar has {@code stmt ';' END_OF_INPUT}.
 *
 * <p>Lexing is lazy on purpose: a malformed statement (an unterminated string) fails when it is
 * reached, after the statements before it ran, as in MySQL. An empty statement between two
 * semicolons is a syntax error; one holding only comments is MySQL's empty query (an OK, no error);
 * an entirely empty query is error 1065.
 */
public final class QueryStatements {
    /** One statement: its text (null for a comments-only statement), and whether more follow it. */
    public record Next(String sql, boolean more) {
        public boolean onlyComments() {
            return sql == null;
        }
    }

    private final String text;
    private final boolean multi;
    /**
     * The session's lexical mode, asked before each statement: as in MySQL, a {@code SET sql_mode}
     * among the statements changes how the ones after it are read.
     */
    private final Supplier<LexicalMode> mode;
    /** Created on the first {@code ;} or comment: most queries are one statement and are lexed once, by the engine. */
    private SqlLexer lexer;
    private LexicalMode lexerMode;
    /** Whether a {@code ;} lies inside a compound statement (a stored program's body) rather than ending the statement. */
    private CompoundScope scope;
    private int pos;
    private boolean started;

    public QueryStatements(String query, boolean multiStatements) {
        this(query, multiStatements, () -> LexicalMode.DEFAULT);
    }

    public QueryStatements(String query, boolean multiStatements, Supplier<LexicalMode> mode) {
        this.text = strip(query);
        this.multi = multiStatements;
        this.mode = mode;
    }

    /** MySQL's {@code alloc_query}: leading whitespace, and trailing whitespace and {@code ;}, are not part of the query. */
    public static String strip(String query) {
        int from = 0;
        int to = query.length();
        while (from < to && Character.isWhitespace(query.charAt(from))) {
            from++;
        }
        while (to > from && (query.charAt(to - 1) == ';' || Character.isWhitespace(query.charAt(to - 1)))) {
            to--;
        }
        return query.substring(from, to);
    }

    public boolean hasNext() {
        return !started || pos < text.length();
    }

    /**
     * The next statement; throws the error MySQL gives for it (1064 for a malformed or empty one,
     * 1065 when the whole query is empty), after which the caller must run no further statement.
     */
    public Next next() {
        if (!started && text.isEmpty()) {
            started = true;
            throw new ShardwiseException(ErrorCode.EMPTY_QUERY);
        }
        if (!started && text.indexOf(';') < 0 && !mayBeOnlyComments()) {
            started = true; // the common case, one statement: no lexing here (the normalizer lexes it once)
            pos = text.length();
            return new Next(text, false);
        }
        started = true;
        int from = pos;
        LexicalMode now = mode.get();
        if (lexer == null || !now.equals(lexerMode)) {
            lexer = new SqlLexer(text, now);
            lexerMode = now;
        }
        lexer.reset(from);
        if (scope == null) {
            scope = new CompoundScope(text);
        }
        scope.reset();
        boolean anyToken = false;
        for (TokenKind kind = lexer.next(); ; kind = lexer.next()) {
            if (kind == TokenKind.SEMICOLON && scope.inBody()) {
                scope.token(kind, lexer.start(), lexer.end());
                continue;
            }
            if (kind != TokenKind.SEMICOLON && kind != TokenKind.EOF) {
                scope.token(kind, lexer.start(), lexer.end());
            }
            if (kind == TokenKind.EOF) {
                pos = text.length();
                return new Next(anyToken ? text.substring(from).strip() : null, false);
            }
            if (kind == TokenKind.SEMICOLON) {
                if (!anyToken) {
                    pos = text.length();
                    throw syntaxErrorNear(lexer.start());
                }
                String sql = text.substring(from, lexer.start()).strip();
                int rest = skipWhitespace(lexer.end());
                if (!multi) {
                    // stmt ';' END_OF_INPUT: only comments may follow
                    pos = text.length();
                    if (lexer.next() != TokenKind.EOF) {
                        throw syntaxErrorNear(rest);
                    }
                    return new Next(sql, false);
                }
                pos = rest;
                return new Next(sql, rest < text.length());
            }
            anyToken = true;
        }
    }

    /** Whether the text starts with a comment, so it might hold no token (cheap: one or two characters). */
    private boolean mayBeOnlyComments() {
        char c = text.charAt(0);
        return c == '#' || ((c == '/' || c == '-') && text.length() > 1 && (text.charAt(1) == '*' || text.charAt(1) == '-'));
    }

    private int skipWhitespace(int p) {
        while (p < text.length() && Character.isWhitespace(text.charAt(p))) {
            p++;
        }
        return p;
    }

    private ShardwiseException syntaxErrorNear(int offset) {
        return syntaxError(text, offset);
    }

    /** MySQL's 1064 in MySQL's wording: the text from the offending token, up to 80 characters, and its line. */
    public static ShardwiseException syntaxError(String text, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        String near = text.substring(offset, Math.min(text.length(), offset + 80));
        return new ShardwiseException(ErrorCode.PARSE_ERROR, "check the manual that corresponds to your MySQL server version"
                + " for the right syntax to use near '" + near + "' at line " + line);
    }
}
