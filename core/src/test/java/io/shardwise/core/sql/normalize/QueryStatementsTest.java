package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryStatementsTest {
    /** Every statement as text ("<comments>" for a comments-only one) with "+" when more follow, then "ERR n" if it stopped on an error. */
    private static List<String> split(String query, boolean multi) {
        QueryStatements statements = new QueryStatements(query, multi);
        List<String> out = new ArrayList<>();
        try {
            while (statements.hasNext()) {
                QueryStatements.Next next = statements.next();
                out.add((next.onlyComments() ? "<comments>" : next.sql()) + (next.more() ? " +" : ""));
            }
        } catch (ShardwiseException e) {
            out.add("ERR " + e.errno());
        }
        return out;
    }

    @Test
    void splitsAtSemicolonsOutsideStringsIdentifiersAndComments() {
        assertEquals(List.of("SELECT ';', `a;b`, \"c;d\" /* ; */ +", "SELECT 2 # ; +", "SELECT 3"),
                split("SELECT ';', `a;b`, \"c;d\" /* ; */ ; SELECT 2 # ;\n; SELECT 3", true));
        assertEquals(List.of("SELECT /*! 1; */ 2"), split("SELECT /*! 1; */ 2", true));
    }

    @Test
    void trailingSemicolonsAndWhitespaceAreNotStatements() {
        assertEquals(List.of("SELECT 1"), split("  SELECT 1 ; ;;\n ", true));
        assertEquals(List.of("SELECT 1"), split("SELECT 1;", false));
    }

    @Test
    void anEmptyStatementBetweenSemicolonsIsASyntaxErrorAfterTheStatementsBeforeIt() {
        assertEquals(List.of("SELECT 1 +", "ERR 1064"), split("SELECT 1;; SELECT 2", true));
        assertEquals(List.of("ERR 1064"), split("; SELECT 2", true));
    }

    @Test
    void commentsOnlyIsAnEmptyStatementButNothingAtAllIsAnEmptyQuery() {
        assertEquals(List.of("SELECT 1 +", "<comments>"), split("SELECT 1; -- done", true));
        assertEquals(List.of("<comments>"), split("/* ping */", false));
        assertEquals(List.of("ERR 1065"), split("  ", true));
        assertEquals(List.of("ERR 1065"), split(";", false));
    }

    @Test
    void withMultiStatementsOffOnlyCommentsMayFollowTheSemicolon() {
        assertEquals(List.of("SELECT 1"), split("SELECT 1; /* c */", false));
        assertEquals(List.of("ERR 1064"), split("SELECT 1; SELECT 2", false));
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> new QueryStatements("SELECT 1;\nSELECT 2", false).next());
        assertEquals("You have an error in your SQL syntax; check the manual that corresponds to your MySQL server version for the"
                + " right syntax to use near 'SELECT 2' at line 2", e.getMessage());
    }

    @Test
    void aMalformedStatementFailsWhenReachedNotBefore() {
        assertEquals(List.of("SELECT 1 +", "ERR 1064"), split("SELECT 1; SELECT 'open", true));
    }

    @Test
    void aSingleStatementWithoutSemicolonIsTakenWhole() {
        QueryStatements statements = new QueryStatements("SELECT 'x' FROM t WHERE a = 1", false);
        assertEquals(new QueryStatements.Next("SELECT 'x' FROM t WHERE a = 1", false), statements.next());
        assertFalse(statements.hasNext());
    }

    @Test
    void eachStatementIsSplitInTheModeInForceWhenItIsReached() {
        // 'x\' ends the string only without backslash escapes; the SET before it turns them off
        io.shardwise.core.sql.normalize.LexicalMode[] mode = {io.shardwise.core.sql.normalize.LexicalMode.DEFAULT};
        QueryStatements statements = new QueryStatements("SET sql_mode = 'NO_BACKSLASH_ESCAPES'; SELECT 'x\\'; SELECT 2", true,
                () -> mode[0]);
        assertEquals("SET sql_mode = 'NO_BACKSLASH_ESCAPES'", statements.next().sql());
        mode[0] = io.shardwise.core.sql.normalize.LexicalMode.of("NO_BACKSLASH_ESCAPES");
        assertEquals("SELECT 'x\\'", statements.next().sql());
        assertEquals("SELECT 2", statements.next().sql());
    }
}
