package io.shardwise.core.sql.normalize;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A single-pass, hand-written MySQL lexer over a {@code String}, used as a cursor: {@link #next()}
 * advances and returns the kind, {@link #start()}/{@link #end()} give the span. It allocates nothing
 * per token. Whitespace and ordinary comments ({@code -- }, {@code #}, {@code /* *}{@code /}) are
 * skipped; hints and executable comments are tokens.
 *
 * <p>Combined tokens (one token, one span): a charset introducer or {@code N} with its string,
 * hex or bit literal ({@code _utf8mb4'x'}, {@code _binary X'1F'}); adjacent string literals
 * ({@code 'a' 'b'}, also across comments); typed literals ({@code DATE '2024-01-31'}).
 *
 * <p>Reads in a {@link LexicalMode}: by default {@code "x"} is a string and backslash escapes are
 * on; with ANSI_QUOTES {@code "x"} is a {@link TokenKind#QUOTED_IDENTIFIER}, with
 * NO_BACKSLASH_ESCAPES a backslash in a string is an ordinary character. Unterminated strings, identifiers and comments and
 * malformed {@code X''}/{@code b''} literals throw {@link ErrorCode#PARSE_ERROR}; any other
 * character becomes a one-character {@link TokenKind#OPERATOR} for the parser to reject.
 * Over 300 lines because MySQL's lexical grammar is; every method is one token shape.
 */
public final class SqlLexer {
    private static final String CHARSETS = " armscii8 ascii big5 binary cp1250 cp1251 cp1256 cp1257 cp850"
            + " cp852 cp866 cp932 dec8 eucjpms euckr gb18030 gb2312 gbk geostd8 greek hebrew hp8 keybcs2 koi8r"
            + " koi8u latin1 latin2 latin5 latin7 macce macroman sjis swe7 tis620 ucs2 ujis utf16 utf16le utf32"
            + " utf8 utf8mb3 utf8mb4 ";

    // not final: a Normalizer of an event loop lexes every statement with one lexer (reset)
    private String sql;
    private int length;
    /** Whether a backslash escapes the next character of a single- or double-quoted string. */
    private boolean backslashEscapes;
    /** Whether {@code "} opens an identifier (ANSI_QUOTES) rather than a string. */
    private boolean ansiQuotes;
    private int pos;
    private int start;
    private int end;
    private int keyword = -1;
    /** The last lookahead's skipTrivia(from) = to, so next() does not skip the same comments again. */
    private int skippedFrom = -1;
    private int skippedTo;

    /** A lexer in MySQL's default mode ({@link LexicalMode#DEFAULT}). */
    public SqlLexer(String sql) {
        this(sql, LexicalMode.DEFAULT);
    }

    public SqlLexer(String sql, LexicalMode mode) {
        restart(sql, mode);
    }

    /** This lexer at the start of {@code sql}, as if new. */
    void restart(String sql, LexicalMode mode) {
        this.sql = sql;
        this.length = sql.length();
        this.backslashEscapes = mode.backslashEscapes();
        this.ansiQuotes = mode.ansiQuotes();
        pos = 0;
        start = 0;
        end = 0;
        keyword = -1;
        skippedFrom = -1;
        skippedTo = 0;
    }

    /** Every token up to (not including) EOF; for tests and tools, not the hot path. */
    public static List<Token> tokenize(String sql) {
        return tokenize(sql, LexicalMode.DEFAULT);
    }

    public static List<Token> tokenize(String sql, LexicalMode mode) {
        SqlLexer lexer = new SqlLexer(sql, mode);
        List<Token> tokens = new ArrayList<>();
        for (TokenKind kind = lexer.next(); kind != TokenKind.EOF; kind = lexer.next()) {
            tokens.add(new Token(kind, lexer.start, lexer.end));
        }
        return tokens;
    }

    /**
     * Splits multi-statement text at {@code ;} outside strings, identifiers and comments. Each
     * statement is trimmed of surrounding whitespace; statements with no token (only whitespace or
     * comments) are dropped.
     */
    public static List<String> splitStatements(String sql) {
        return splitStatements(sql, LexicalMode.DEFAULT);
    }

    public static List<String> splitStatements(String sql, LexicalMode mode) {
        SqlLexer lexer = new SqlLexer(sql, mode);
        List<String> statements = new ArrayList<>();
        int segmentStart = 0;
        boolean hasToken = false;
        for (TokenKind kind = lexer.next(); ; kind = lexer.next()) {
            if (kind == TokenKind.SEMICOLON || kind == TokenKind.EOF) {
                if (hasToken) {
                    statements.add(sql.substring(segmentStart, lexer.start).strip());
                }
                if (kind == TokenKind.EOF) {
                    return statements;
                }
                segmentStart = lexer.end;
                hasToken = false;
            } else {
                hasToken = true;
            }
        }
    }

    /** Advances to the next token and returns its kind; {@link TokenKind#EOF} at the end. */
    public TokenKind next() {
        pos = skipTrivia(pos, true);
        start = pos;
        keyword = -1;
        TokenKind kind = pos >= length ? TokenKind.EOF : scan(sql.charAt(pos));
        end = pos;
        return kind;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** The {@link Keywords} id of the current {@link TokenKind#KEYWORD} token, else -1. */
    public int keyword() {
        return keyword;
    }

    /** Where the next {@link #next()} starts scanning; pass it to {@link #reset} to back up. */
    public int position() {
        return pos;
    }

    public void reset(int position) {
        pos = position;
    }

    /** The first character of the next token without consuming it, or -1 at the end. */
    public int peekChar() {
        int p = skipTrivia(pos, false);
        return p < length ? sql.charAt(p) : -1;
    }

    /** Whether the next token is a {@code .} qualifier (not the start of a number such as {@code .5}). */
    public boolean isDotNext() {
        int p = skipTrivia(pos, false);
        if (charAt(p) != '.') {
            return false;
        }
        return !isDigit(charAt(p + 1)) || (p > 0 && (isIdentChar(sql.charAt(p - 1)) || sql.charAt(p - 1) == '`'));
    }

    /** True when only whitespace, comments and semicolons remain. */
    public boolean onlySeparatorsRemain() {
        int p = skipTrivia(pos, false);
        while (p < length && sql.charAt(p) == ';') {
            p = skipTrivia(p + 1, false);
        }
        return p >= length;
    }

    private TokenKind scan(char c) {
        switch (c) {
            case '\'', '"' -> {
                if (c == '"' && ansiQuotes) {
                    pos = scanQuoted(pos, c, "quoted identifier");
                    return TokenKind.QUOTED_IDENTIFIER;
                }
                pos = scanQuoted(pos, c, "string literal");
                absorbAdjacentStrings();
                return TokenKind.STRING;
            }
            case '`' -> {
                pos = scanQuoted(pos, '`', "quoted identifier");
                return TokenKind.QUOTED_IDENTIFIER;
            }
            case '@' -> {
                return scanVariable();
            }
            case '?' -> {
                pos++;
                return TokenKind.PARAMETER;
            }
            case '(' -> {
                pos++;
                return TokenKind.LEFT_PAREN;
            }
            case ')' -> {
                pos++;
                return TokenKind.RIGHT_PAREN;
            }
            case ',' -> {
                pos++;
                return TokenKind.COMMA;
            }
            case ';' -> {
                pos++;
                return TokenKind.SEMICOLON;
            }
            case '.' -> {
                // ".5" is a number, but "t.5" qualifies t (a digit-leading identifier)
                if (isDigit(charAt(pos + 1)) && (pos == 0 || !(isIdentChar(sql.charAt(pos - 1)) || sql.charAt(pos - 1) == '`'))) {
                    return scanNumber();
                }
                pos++;
                return TokenKind.DOT;
            }
            case '/' -> {
                if (charAt(pos + 1) == '*') {
                    TokenKind opaque = charAt(pos + 2) == '+' ? TokenKind.HINT : TokenKind.EXECUTABLE_COMMENT;
                    pos = endOfBlockComment(pos);
                    return opaque;
                }
                pos++;
                return TokenKind.OPERATOR;
            }
            default -> {
                if (isDigit(c)) {
                    return scanNumber();
                }
                if (isIdentChar(c)) {
                    return scanWord(c);
                }
                return scanOperator(c);
            }
        }
    }

    private TokenKind scanWord(char c) {
        char next = charAt(pos + 1);
        if (next == '\'') {
            switch (c) {
                case 'x', 'X' -> {
                    pos = scanHexString(pos);
                    return TokenKind.HEX;
                }
                case 'b', 'B' -> {
                    pos = scanBitString(pos);
                    return TokenKind.BIT;
                }
                case 'n', 'N' -> {
                    pos = scanQuoted(pos + 1, '\'', "string literal");
                    absorbAdjacentStrings();
                    return TokenKind.STRING;
                }
                default -> { }
            }
        }
        int wordStart = pos;
        pos = endOfWord(pos);
        if (c == '_' && isCharset(wordStart + 1, pos)) {
            TokenKind introduced = scanIntroduced();
            if (introduced != null) {
                return introduced;
            }
        }
        int id = Keywords.lookup(sql, wordStart, pos);
        if (id >= 0) {
            TokenKind typed = id == Keywords.DATE ? TokenKind.DATE
                    : id == Keywords.TIME ? TokenKind.TIME
                    : id == Keywords.TIMESTAMP ? TokenKind.TIMESTAMP : null;
            if (typed != null) {
                int q = skipTrivia(pos, false);
                if (q < length && isStringQuote(sql.charAt(q))) {
                    pos = scanQuoted(q, sql.charAt(q), "string literal");
                    return typed;
                }
            }
            keyword = id;
            return TokenKind.KEYWORD;
        }
        return TokenKind.IDENTIFIER;
    }

    /** After {@code _charset}: the string, hex or bit literal it introduces, or null if none follows. */
    private TokenKind scanIntroduced() {
        int q = skipTrivia(pos, false);
        char c = charAt(q);
        char c1 = charAt(q + 1);
        if (isStringQuote(c)) {
            pos = scanQuoted(q, c, "string literal");
            absorbAdjacentStrings();
            return TokenKind.STRING;
        }
        if ((c == 'x' || c == 'X') && c1 == '\'') {
            pos = scanHexString(q);
            return TokenKind.HEX;
        }
        if ((c == 'b' || c == 'B') && c1 == '\'') {
            pos = scanBitString(q);
            return TokenKind.BIT;
        }
        if (c == '0' && (c1 == 'x' || c1 == 'b')) {
            int save = pos;
            pos = q;
            TokenKind kind = scanNumber();
            if (kind == TokenKind.HEX || kind == TokenKind.BIT) {
                return kind;
            }
            pos = save;
        }
        return null;
    }

    private void absorbAdjacentStrings() {
        for (int q = skipTrivia(pos, false); q < length && isStringQuote(sql.charAt(q));
                q = skipTrivia(pos, false)) {
            pos = scanQuoted(q, sql.charAt(q), "string literal");
        }
    }

    private TokenKind scanNumber() {
        int numberStart = pos;
        char c1 = charAt(pos + 1);
        if (sql.charAt(pos) == '0' && (c1 == 'x' || c1 == 'b')) {
            int p = pos + 2;
            while (c1 == 'x' ? isHexDigit(charAt(p)) : (charAt(p) == '0' || charAt(p) == '1')) {
                p++;
            }
            if (p > pos + 2 && !isIdentChar(charAt(p))) {
                pos = p;
                return c1 == 'x' ? TokenKind.HEX : TokenKind.BIT;
            }
            return scanDigitLeadingWord(numberStart);
        }
        int p = pos;
        while (isDigit(charAt(p))) {
            p++;
        }
        boolean decimal = false;
        if (charAt(p) == '.') {
            decimal = true;
            p++;
            while (isDigit(charAt(p))) {
                p++;
            }
        }
        boolean exponent = false;
        if (charAt(p) == 'e' || charAt(p) == 'E') {
            int e = p + 1;
            if (charAt(e) == '+' || charAt(e) == '-') {
                e++;
            }
            if (isDigit(charAt(e))) {
                exponent = true;
                p = e;
                while (isDigit(charAt(p))) {
                    p++;
                }
            }
        }
        if (!decimal && isIdentChar(charAt(p))) {
            return scanDigitLeadingWord(numberStart);
        }
        pos = p;
        return exponent ? TokenKind.DOUBLE : decimal ? TokenKind.DECIMAL : TokenKind.INTEGER;
    }

    /** MySQL identifiers may start with digits ({@code 1abc}, {@code 0xyz}) when not all digits. */
    private TokenKind scanDigitLeadingWord(int wordStart) {
        pos = endOfWord(wordStart);
        return TokenKind.IDENTIFIER;
    }

    private TokenKind scanVariable() {
        int p = pos + 1;
        if (charAt(p) == '@') {
            p++;
            while (isIdentChar(charAt(p)) || (charAt(p) == '.' && isIdentChar(charAt(p + 1)))) {
                p++;
            }
            pos = p;
            return TokenKind.SYSTEM_VARIABLE;
        }
        char c = charAt(p);
        if (c == '\'' || c == '"' || c == '`') {
            pos = scanQuoted(p, c, "variable name");
            return TokenKind.USER_VARIABLE;
        }
        while (isIdentChar(charAt(p)) || charAt(p) == '.') {
            p++;
        }
        pos = p;
        return p == start + 1 ? TokenKind.OPERATOR : TokenKind.USER_VARIABLE;
    }

    private TokenKind scanOperator(char c) {
        char c1 = charAt(pos + 1);
        int len = 1;
        switch (c) {
            case '<' -> len = c1 == '=' ? (charAt(pos + 2) == '>' ? 3 : 2) : (c1 == '>' || c1 == '<') ? 2 : 1;
            case '>' -> len = c1 == '=' || c1 == '>' ? 2 : 1;
            case '!' -> len = c1 == '=' ? 2 : 1;
            case ':' -> len = c1 == '=' ? 2 : 1;
            case '-' -> len = c1 == '>' ? (charAt(pos + 2) == '>' ? 3 : 2) : 1;
            case '&' -> len = c1 == '&' ? 2 : 1;
            case '|' -> len = c1 == '|' ? 2 : 1;
            default -> { }
        }
        pos += len;
        return TokenKind.OPERATOR;
    }

    /** {@code '}, or {@code "} unless ANSI_QUOTES makes it an identifier quote. */
    private boolean isStringQuote(char c) {
        return c == '\'' || (c == '"' && !ansiQuotes);
    }

    /** End of a quoted run opened at {@code open}: doubled quotes, and backslash escapes in strings when the mode has them. */
    private int scanQuoted(int open, char quote, String what) {
        return scanQuoted(open, quote, what, open);
    }

    private int scanQuoted(int open, char quote, String what, int literalStart) {
        boolean escapes = backslashEscapes && quote != '`' && !(quote == '"' && ansiQuotes);
        for (int p = open + 1; p < length; p++) {
            char c = sql.charAt(p);
            if (c == '\\' && escapes) {
                p++;
            } else if (c == quote) {
                if (charAt(p + 1) != quote) {
                    return p + 1;
                }
                p++;
            }
        }
        throw error("unterminated " + what, sql, literalStart);
    }

    private int scanHexString(int prefix) {
        int close = scanQuoted(prefix + 1, '\'', "hex literal", prefix);
        int digits = close - prefix - 3;
        for (int p = prefix + 2; p < close - 1; p++) {
            if (!isHexDigit(sql.charAt(p))) {
                throw error("invalid hex digit in hex literal", sql, prefix);
            }
        }
        if (digits % 2 != 0) {
            throw error("odd number of digits in hex literal", sql, prefix);
        }
        return close;
    }

    private int scanBitString(int prefix) {
        int close = scanQuoted(prefix + 1, '\'', "bit literal", prefix);
        for (int p = prefix + 2; p < close - 1; p++) {
            if (sql.charAt(p) != '0' && sql.charAt(p) != '1') {
                throw error("invalid digit in bit literal", sql, prefix);
            }
        }
        return close;
    }

    private int endOfWord(int p) {
        while (p < length && isIdentChar(sql.charAt(p))) {
            p++;
        }
        return p;
    }

    private boolean isCharset(int from, int to) {
        if (to - from < 3 || to - from > 8) {
            return false;
        }
        for (int i = CHARSETS.indexOf(' '); i >= 0 && i < CHARSETS.length() - 1; i = CHARSETS.indexOf(' ', i + 1)) {
            int wordEnd = CHARSETS.indexOf(' ', i + 1);
            if (wordEnd - i - 1 == to - from && CHARSETS.regionMatches(true, i + 1, sql, from, to - from)) {
                return true;
            }
        }
        return false;
    }

    private int endOfBlockComment(int open) {
        int close = sql.indexOf("*/", open + 2);
        if (close < 0) {
            throw error("unterminated comment", sql, open);
        }
        return close + 2;
    }

    /**
     * Skips whitespace and ordinary comments from {@code p}. Lookahead ({@code strict} false) stops
     * at an unterminated comment instead of throwing; {@link #next()} reports it.
     */
    private int skipTrivia(int p, boolean strict) {
        if (p == skippedFrom) {
            return skippedTo;
        }
        int from = p;
        while (p < length) {
            char c = sql.charAt(p);
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == 0x0B) {
                p++;
            } else if (c == '#' || (c == '-' && charAt(p + 1) == '-' && isCommentSpace(charAt(p + 2)))) {
                while (p < length && sql.charAt(p) != '\n') {
                    p++;
                }
            } else if (c == '/' && charAt(p + 1) == '*' && !isOpaqueComment(p)) {
                int close = sql.indexOf("*/", p + 2);
                if (close < 0) {
                    if (strict) {
                        throw error("unterminated comment", sql, p);
                    }
                    return length;
                }
                p = close + 2;
            } else {
                break;
            }
        }
        skippedFrom = from;
        skippedTo = p;
        return p;
    }

    /** Where literal decoding resumes after an introducer or a folded minus. */
    static int skipTrivia(String sql, int from) {
        return new SqlLexer(sql).skipTrivia(from, false);
    }

    private boolean isOpaqueComment(int p) {
        char c = charAt(p + 2);
        return c == '!' || c == '+' || (c == 'M' && charAt(p + 3) == '!');
    }

    /** "-- " starts a comment only before whitespace or a control character, or at the end. */
    private static boolean isCommentSpace(char c) {
        return c <= ' ';
    }

    private char charAt(int p) {
        return p < length ? sql.charAt(p) : '\0';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isHexDigit(char c) {
        return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** MySQL's unquoted identifier characters: ASCII letters, digits, $, _ and U+0080 onwards. */
    static boolean isIdentChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == '$' || c >= 0x80;
    }

    static ShardwiseException error(String what, String sql, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        String near = sql.substring(offset, Math.min(sql.length(), offset + 40));
        return new ShardwiseException(ErrorCode.PARSE_ERROR, String.format("%s at position %d (line %d, column %d) near '%s'",
                what, offset, line, offset - lineStart + 1, near));
    }
}
