package io.shardwise.core.sql.normalize;

import static io.shardwise.core.sql.normalize.TokenKind.BIT;
import static io.shardwise.core.sql.normalize.TokenKind.COMMA;
import static io.shardwise.core.sql.normalize.TokenKind.DATE;
import static io.shardwise.core.sql.normalize.TokenKind.DECIMAL;
import static io.shardwise.core.sql.normalize.TokenKind.DOT;
import static io.shardwise.core.sql.normalize.TokenKind.DOUBLE;
import static io.shardwise.core.sql.normalize.TokenKind.EXECUTABLE_COMMENT;
import static io.shardwise.core.sql.normalize.TokenKind.HEX;
import static io.shardwise.core.sql.normalize.TokenKind.HINT;
import static io.shardwise.core.sql.normalize.TokenKind.IDENTIFIER;
import static io.shardwise.core.sql.normalize.TokenKind.INTEGER;
import static io.shardwise.core.sql.normalize.TokenKind.KEYWORD;
import static io.shardwise.core.sql.normalize.TokenKind.OPERATOR;
import static io.shardwise.core.sql.normalize.TokenKind.PARAMETER;
import static io.shardwise.core.sql.normalize.TokenKind.QUOTED_IDENTIFIER;
import static io.shardwise.core.sql.normalize.TokenKind.SEMICOLON;
import static io.shardwise.core.sql.normalize.TokenKind.STRING;
import static io.shardwise.core.sql.normalize.TokenKind.SYSTEM_VARIABLE;
import static io.shardwise.core.sql.normalize.TokenKind.TIMESTAMP;
import static io.shardwise.core.sql.normalize.TokenKind.USER_VARIABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SqlLexerTest {
    @Test
    void multiCharacterOperatorsAreSingleTokens() {
        String sql = "a := b <=> c -> d ->> e != f <> g << h >> i && j || k <= l >= m";
        List<String> operators = SqlLexer.tokenize(sql).stream().filter(t -> t.kind() == OPERATOR)
                .map(t -> t.text(sql)).toList();
        assertEquals(List.of(":=", "<=>", "->", "->>", "!=", "<>", "<<", ">>", "&&", "||", "<=", ">="), operators);
    }

    @Test
    void numbersAreClassifiedAndDigitLeadingWordsAreIdentifiers() {
        assertKinds("1 1.5 .5 1. 1e3 1.5E-3 2e+2 123abc 1e 0x1F 0xZZ 0b101 0b2",
                List.of(INTEGER, DECIMAL, DECIMAL, DECIMAL, DOUBLE, DOUBLE, DOUBLE, IDENTIFIER, IDENTIFIER, HEX,
                        IDENTIFIER, BIT, IDENTIFIER));
    }

    @Test
    void aDotAfterANameQualifiesButBeforeDigitsStartsANumber() {
        assertKinds("t.5 t .5 `t`.a", List.of(IDENTIFIER, DOT, INTEGER, IDENTIFIER, DECIMAL, QUOTED_IDENTIFIER, DOT,
                IDENTIFIER));
    }

    @Test
    void ordinaryCommentsAreSkippedButHintsAndExecutableCommentsAreTokens() {
        String sql = "SELECT /* a */ /*+ BKA(t) */ 1 -- x\n # y\n /*!50100 2 */ /*M! 3 */ 4--5";
        assertKinds(sql, List.of(KEYWORD, HINT, INTEGER, EXECUTABLE_COMMENT, EXECUTABLE_COMMENT, INTEGER, OPERATOR,
                OPERATOR, INTEGER));
        assertEquals("/*+ BKA(t) */", SqlLexer.tokenize(sql).get(1).text(sql));
    }

    @Test
    void dashDashIsACommentOnlyBeforeWhitespaceOrTheEnd() {
        assertKinds("1--2", List.of(INTEGER, OPERATOR, OPERATOR, INTEGER));
        assertKinds("1 --\t2", List.of(INTEGER));
        assertKinds("1 --", List.of(INTEGER));
    }

    @Test
    void literalsCombineIntroducersAdjacentStringsAndTypedKeywords() {
        String sql = "_utf8mb4'a' 'b' /* c */ \"d\", N'x', _binary X'00', DATE '2024-01-01', TIMESTAMP\"2024-01-01 00:00\", "
                + "_nosuch 'x', date";
        List<Token> tokens = SqlLexer.tokenize(sql);
        assertEquals(List.of(STRING, COMMA, STRING, COMMA, HEX, COMMA, DATE, COMMA, TIMESTAMP, COMMA, IDENTIFIER, STRING,
                COMMA, KEYWORD), tokens.stream().map(Token::kind).toList());
        assertEquals("_utf8mb4'a' 'b' /* c */ \"d\"", tokens.get(0).text(sql));
        assertEquals("DATE '2024-01-01'", tokens.get(6).text(sql));
    }

    @Test
    void quotedIdentifiersAndVariablesAreSingleTokens() {
        String sql = "`a``b` `se lect` @v @`q w` @'s' @@session.sql_mode @@GLOBAL.x ?";
        List<Token> tokens = SqlLexer.tokenize(sql);
        assertEquals(List.of(QUOTED_IDENTIFIER, QUOTED_IDENTIFIER, USER_VARIABLE, USER_VARIABLE, USER_VARIABLE,
                SYSTEM_VARIABLE, SYSTEM_VARIABLE, PARAMETER), tokens.stream().map(Token::kind).toList());
        assertEquals("@@session.sql_mode", tokens.get(5).text(sql));
    }

    @Test
    void keywordsAreRecognisedInAnyCaseAndNonKeywordsAreIdentifiers() {
        SqlLexer lexer = new SqlLexer("SeLeCt sbtest1");
        assertEquals(KEYWORD, lexer.next());
        assertEquals("select", Keywords.text(lexer.keyword()));
        assertEquals(IDENTIFIER, lexer.next());
        assertEquals(-1, lexer.keyword());
        assertTrue(Keywords.size() > 600, "keyword table has " + Keywords.size());
    }

    @Test
    void semicolonsSeparateStatements() {
        assertKinds("a;b", List.of(IDENTIFIER, SEMICOLON, IDENTIFIER));
    }

    @Test
    void splitStatementsRespectsStringsCommentsAndBackticks() {
        // the ';' of "# only a comment;" is inside the comment; that segment and the empty ones have no token
        String sql = "SELECT 'a;b'; SELECT `c;d` /* e;f */ -- g;h\n FROM t;\n# only a comment;\n;; SELECT \"i;\\\"j\"  ";
        assertEquals(List.of("SELECT 'a;b'", "SELECT `c;d` /* e;f */ -- g;h\n FROM t", "SELECT \"i;\\\"j\""),
                SqlLexer.splitStatements(sql));
    }

    @Test
    void splitStatementsRejectsUnterminatedText() {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SqlLexer.splitStatements("SELECT 1; SELECT 'x"));
        assertEquals(ErrorCode.PARSE_ERROR, e.code());
    }

    @Test
    void unterminatedQuotedVariableNamesItsQuote() {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> SqlLexer.tokenize("SELECT @'abc"));
        assertTrue(e.getMessage().startsWith("You have an error in your SQL syntax; unterminated variable name at position 8"),
                e.getMessage());
    }

    private static void assertKinds(String sql, List<TokenKind> kinds) {
        assertEquals(kinds, SqlLexer.tokenize(sql).stream().map(Token::kind).toList(), sql);
    }
}
