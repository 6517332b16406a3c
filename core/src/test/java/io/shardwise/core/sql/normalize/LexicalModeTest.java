package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.sql.cache.PlanCache;
import java.util.List;
import org.junit.jupiter.api.Test;

class LexicalModeTest {
    private static final LexicalMode NO_BACKSLASH = LexicalMode.of("STRICT_TRANS_TABLES,NO_BACKSLASH_ESCAPES");
    private static final LexicalMode ANSI = LexicalMode.of("REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ANSI");

    @Test
    void sqlModeValuesGiveTheirLexicalFlags() {
        assertEquals(LexicalMode.DEFAULT, LexicalMode.of("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION"));
        assertEquals(LexicalMode.DEFAULT, LexicalMode.of(null));
        assertEquals(new LexicalMode(true, false), NO_BACKSLASH);
        assertEquals(new LexicalMode(false, true, LexicalMode.PIPES_AS_CONCAT | LexicalMode.IGNORE_SPACE), ANSI);
        assertEquals(new LexicalMode(true, true), LexicalMode.of("ansi_quotes, no_backslash_escapes"));
    }

    /** The flags that keep tokens but change their meaning: each its own plan-cache key; the rest share the default's. */
    @Test
    void sqlModeValuesGiveTheirSemanticFlags() {
        assertSame(LexicalMode.DEFAULT, LexicalMode.of("ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_UNSIGNED_SUBTRACTION,REAL_AS_FLOAT"));
        assertEquals(new LexicalMode(false, false, LexicalMode.PIPES_AS_CONCAT), LexicalMode.of("pipes_as_concat"));
        assertEquals(new LexicalMode(false, false, LexicalMode.HIGH_NOT_PRECEDENCE), LexicalMode.of("HIGH_NOT_PRECEDENCE"));
        assertEquals(new LexicalMode(false, false, LexicalMode.IGNORE_SPACE), LexicalMode.of("IGNORE_SPACE"));
        assertEquals(new LexicalMode(false, false, LexicalMode.EMPTY_STRING_IS_NULL), LexicalMode.of("EMPTY_STRING_IS_NULL"));
        LexicalMode oracle = LexicalMode.of("ORACLE");
        assertTrue(oracle.ansiQuotes() && oracle.has(LexicalMode.ORACLE) && oracle.has(LexicalMode.PIPES_AS_CONCAT));
        for (String combination : new String[] {"ANSI", "DB2", "MAXDB", "MSSQL", "POSTGRESQL"}) {
            LexicalMode m = LexicalMode.of(combination);
            assertTrue(m.ansiQuotes() && m.has(LexicalMode.PIPES_AS_CONCAT) && m.has(LexicalMode.IGNORE_SPACE), combination);
            assertFalse(m.has(LexicalMode.ORACLE), combination);
        }
        // one digest, two modes: two plan-cache keys (Normalizer seeds the hash with every flag)
        assertNotEquals(Normalizer.normalize("SELECT a || b FROM t").digestHash(),
                Normalizer.normalize("SELECT a || b FROM t", LexicalMode.of("PIPES_AS_CONCAT")).digestHash());
        assertNotEquals(Normalizer.normalize("SELECT a FROM t", LexicalMode.of("PIPES_AS_CONCAT")).digestHash(),
                Normalizer.normalize("SELECT a FROM t", LexicalMode.of("HIGH_NOT_PRECEDENCE")).digestHash());
    }

    @Test
    void withoutBackslashEscapesAStringEndsAtItsFirstUnpairedQuote() {
        // the injection a client escaping for NO_BACKSLASH_ESCAPES relies on: ' OR 1=1 -- \ stays data
        String sql = "SELECT * FROM t WHERE a = 'é'' OR 1=1 -- \\' AND b = 2";
        List<Token> tokens = SqlLexer.tokenize(sql, NO_BACKSLASH);
        Token string = tokens.get(7);
        assertEquals(TokenKind.STRING, string.kind());
        assertEquals("'é'' OR 1=1 -- \\'", string.text(sql));
        assertEquals("and", tokens.get(8).text(sql).toLowerCase());
        NormalizedSql n = Normalizer.normalize(sql, NO_BACKSLASH);
        assertEquals("select * from t where a = ? and b = ?", n.digest());
        assertEquals("é' OR 1=1 -- \\", n.literals().get(0).value());
    }

    @Test
    void withBackslashEscapesTheSameTextReadsOtherwise() {
        String sql = "SELECT 'a\\\\b\\n', 1";
        NormalizedSql escaping = Normalizer.normalize(sql);
        assertEquals(List.of("a\\b\n", 1L), escaping.literals().stream().map(Literal::value).toList());
        NormalizedSql plain = Normalizer.normalize(sql, NO_BACKSLASH);
        assertEquals(List.of("a\\\\b\\n", 1L), plain.literals().stream().map(Literal::value).toList());
    }

    @Test
    void ansiQuotesMakeDoubleQuotedRunsIdentifiersSpelledWithBackticksInTheDigest() {
        String sql = "SELECT \"c\", \"odd\"\"na`me\" FROM \"orders\" WHERE \"status\" = 'x'";
        List<Token> tokens = SqlLexer.tokenize(sql, ANSI);
        assertEquals(TokenKind.QUOTED_IDENTIFIER, tokens.get(1).kind());
        NormalizedSql n = Normalizer.normalize(sql, ANSI);
        assertEquals("select `c`, `odd\"na``me` from `orders` where `status` = ?", n.digest());
        assertTrue(n.digestEquals(n.digest()));
        assertEquals(n.digest().length(), n.digestLength());
        int[] offsets = n.digestTokenOffsets();
        assertEquals(n.digest().length(), offsets[offsets.length - 1]);
        assertEquals(List.of("x"), n.literals().stream().map(Literal::value).toList());
        // by default the same text is all strings
        assertEquals("select ?, ? from ? where ? = ?", Normalizer.normalize(sql).digest());
    }

    @Test
    void thePlanCacheNeverGivesOneModesPlanToAnother() {
        PlanCache<String> cache = new PlanCache<>(1000, p -> 1, Runnable::run);
        String sql = "SELECT c FROM t WHERE id = 'x'";
        assertEquals("default", cache.get(Normalizer.normalize(sql), s -> "default"));
        assertEquals("no backslash", cache.get(Normalizer.normalize(sql, NO_BACKSLASH), s -> "no backslash"));
        assertEquals("default", cache.get(Normalizer.normalize(sql), s -> "other"));
        assertNotEquals(Normalizer.normalize(sql).digestHash(), Normalizer.normalize(sql, NO_BACKSLASH).digestHash());
    }

    @Test
    void quotingFollowsTheMode() {
        assertEquals("'it''s a \\\\ b'", LexicalMode.DEFAULT.quote("it's a \\ b"));
        assertEquals("'it''s a \\ b'", NO_BACKSLASH.quote("it's a \\ b"));
        String sql = "SELECT " + NO_BACKSLASH.quote("é' OR 1=1 -- \\");
        assertEquals("é' OR 1=1 -- \\", Normalizer.normalize(sql, NO_BACKSLASH).literals().get(0).value());
        assertFalse(Normalizer.normalize(sql, NO_BACKSLASH).digest().contains("1"));
    }
}
