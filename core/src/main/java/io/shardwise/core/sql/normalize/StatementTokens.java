package io.shardwise.core.sql.normalize;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The normalizer's tokens of one statement as the statements a session answers itself read them
 * (SET, SHOW, diagnostics, variable selects, information_schema): with the values they need, so
 * from the user's original text, not the digest. One lexing rule for all of them, so a quoting or
 * escaping mode the lexer learns reaches every one.
 */
public final class StatementTokens {
    private StatementTokens() {}

    /**
     * The statement's tokens without semicolons, optimizer hints and executable comments; empty
     * when the text cannot be lexed (the engine reports that with its own error).
     */
    public static List<Token> of(String sql) {
        return of(sql, LexicalMode.DEFAULT);
    }

    /** As {@link #of(String)}, read in the session's quoting and escaping mode (sql_mode). */
    public static List<Token> of(String sql, LexicalMode mode) {
        List<Token> out = new ArrayList<>();
        try {
            for (Token t : SqlLexer.tokenize(sql, mode)) {
                switch (t.kind()) {
                    case SEMICOLON, EOF, HINT, EXECUTABLE_COMMENT -> { }
                    default -> out.add(t);
                }
            }
        } catch (RuntimeException unlexable) {
            return List.of();
        }
        return out;
    }

    /** A token's text in lower case (for keyword tests). */
    public static String word(String sql, Token t) {
        return t.text(sql).toLowerCase(Locale.ROOT);
    }

    /** A token that can name a table, column or database (an unreserved keyword included). */
    public static boolean isName(Token t) {
        return t.kind() == TokenKind.IDENTIFIER || t.kind() == TokenKind.QUOTED_IDENTIFIER || t.kind() == TokenKind.KEYWORD;
    }

    /** A quoted string or identifier's content, doubled quotes undone; anything else stripped as it is. */
    public static String unquote(String s) {
        String v = s.strip();
        if (v.length() >= 2 && (v.charAt(0) == '\'' || v.charAt(0) == '"' || v.charAt(0) == '`') && v.charAt(v.length() - 1) == v.charAt(0)) {
            String q = String.valueOf(v.charAt(0));
            return v.substring(1, v.length() - 1).replace(q + q, q);
        }
        return v;
    }
}
