package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class NormalizerTest {
    static final String HSCALE = "SELECT id, category FROM small WHERE small.category='books' /* Added */ /* some */"
            + " /* comments */ /* to */ /* produce */ /* a */ /* higher */ /* tokenizer */ /* load */";

    static Stream<Arguments> statements() {
        return Stream.of(
                // sysbench oltp_read_write / oltp_point_select
                row("SELECT c FROM sbtest1 WHERE id=42", "select c from sbtest1 where id = ?", 42L),
                row("SELECT c FROM sbtest1 WHERE id BETWEEN 10 AND 109",
                        "select c from sbtest1 where id between ? and ?", 10L, 109L),
                row("SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 10 AND 109",
                        "select sum(k) from sbtest1 where id between ? and ?", 10L, 109L),
                row("SELECT c FROM sbtest1 WHERE id BETWEEN 10 AND 109 ORDER BY c",
                        "select c from sbtest1 where id between ? and ? order by c", 10L, 109L),
                row("SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 10 AND 109 ORDER BY c",
                        "select distinct c from sbtest1 where id between ? and ? order by c", 10L, 109L),
                row("UPDATE sbtest1 SET k=k+1 WHERE id=7", "update sbtest1 set k = k + ? where id = ?", 1L, 7L),
                row("UPDATE sbtest1 SET c='11-22' WHERE id=7", "update sbtest1 set c = ? where id = ?", "11-22", 7L),
                row("DELETE FROM sbtest1 WHERE id=7", "delete from sbtest1 where id = ?", 7L),
                row("INSERT INTO sbtest1 (id, k, c, pad) VALUES (7, 8, 'c-c', 'p-p')",
                        "insert into sbtest1(id, k, c, pad) values (?, ?, ?, ?)", 7L, 8L, "c-c", "p-p"),
                row(NormalizerTest.HSCALE, "select id, category from small where small.category = ?", "books"),
                // session and admin statements
                row("SET NAMES utf8mb4", "set names utf8mb4"),
                row("SET NAMES 'utf8mb4' COLLATE 'utf8mb4_bin'", "set names ? collate ?", "utf8mb4", "utf8mb4_bin"),
                row("SET autocommit=1", "set autocommit = ?", 1L),
                row("SET @@SESSION.sql_mode = 'STRICT'", "set @@session.sql_mode = ?", "STRICT"),
                row("SELECT @@version_comment LIMIT 1", "select @@version_comment limit ?", 1L),
                row("SHOW VARIABLES LIKE 'char%'", "show variables like ?", "char%"),
                row("SHOW FULL TABLES", "show full tables"),
                row("START TRANSACTION", "start transaction"),
                row("commit;", "commit"),
                // comments of every kind
                row("SELECT 1 -- line\n, 2 # hash\n/* block */", "select ?, ?", 1L, 2L),
                row("SELECT 1--2", "select ? - ?", 1L, -2L),
                row("SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t", "select /*+ MAX_EXECUTION_TIME(1000) */ a from t"),
                row("/*!40101 SET NAMES utf8 */", "/*!40101 SET NAMES utf8 */"),
                // escapes and quoting
                row("SELECT 'it''s', \"say \"\"hi\"\"\", 'a\\'b\\\"c\\\\d'", "select ?, ?, ?", "it's", "say \"hi\"", "a'b\"c\\d"),
                row("SELECT 'n\\nr\\rt\\tz\\0Z\\Zb\\bq\\q'", "select ?", "n\nr\rt\tz\0Z\u001Ab\bqq"),
                row("SELECT * FROM t WHERE a LIKE 'x\\%y\\_z'", "select * from t where a like ?", "x\\%y\\_z"),
                row("SELECT 'a' 'b' \"c\"", "select ?", "abc"),
                row("SELECT `select`, `a``b`, `it's \"q\"` FROM `Order`",
                        "select `select`, `a``b`, `it's \"q\"` from `Order`"),
                // unicode
                row("SELECT 名前 FROM 表 WHERE 名前 = 'héllo 😀'", "select 名前 from 表 where 名前 = ?", "héllo 😀"),
                // hex, bit, typed and charset literals
                row("SELECT 0x1F, X'1f2E', 0xF, x''", "select ?, ?, ?, ?", hex("1f"), hex("1f2e"), hex("0f"), hex("")),
                row("SELECT 0b101, b'1', B'100000001', b''", "select ?, ?, ?, ?", hex("05"), hex("01"), hex("0101"), hex("")),
                row("SELECT DATE '2024-01-31', TIME '10:20:30', TIMESTAMP '2024-01-31 10:20:30.5', DATE '2024-1-5'",
                        "select ?, ?, ?, ?", LocalDate.of(2024, 1, 31), LocalTime.of(10, 20, 30),
                        LocalDateTime.of(2024, 1, 31, 10, 20, 30, 500_000_000), "2024-1-5"),
                row("SELECT _utf8mb4'x', _binary'ab', _latin1 X'41', N'n', _utf8mb4 'p' 'q'",
                        "select ?, ?, ?, ?, ?", "x", hex("6162"), "A", "n", "pq"),
                // numbers and unary minus
                row("SELECT 1.5, .5, 1., 1e3, 1.5E-3", "select ?, ?, ?, ?, ?", new BigDecimal("1.5"),
                        new BigDecimal(".5"), new BigDecimal("1"), 1000.0, 0.0015),
                row("SELECT * FROM t WHERE id = -5 AND b = - 7 AND c IN (-1, -2.5) AND d = a - 5 AND e = (a) -5",
                        "select * from t where id = ? and b = ? and c in (?, ?) and d = a - ? and e = (a) - ?",
                        -5L, -7L, -1L, new BigDecimal("-2.5"), 5L, 5L),
                row("SELECT -9223372036854775808, 9223372036854775808, -1e2, NULL - 1",
                        "select ?, ?, ?, null - ?", Long.MIN_VALUE, new BigInteger("9223372036854775808"), -100.0, 1L),
                row("SELECT * FROM t LIMIT -1", "select * from t limit ?", -1L),
                // markers mixed with literals
                row("SELECT * FROM t WHERE a = ? AND b = 'x' AND c IN (?, 3)",
                        "select * from t where a = ? and b = ? and c in (?, ?)", "?0", "x", "?1", 3L),
                // INTERVAL keeps its quantity
                row("SELECT * FROM t WHERE d > NOW() - INTERVAL 5 DAY AND e < DATE_ADD(d, INTERVAL -1 HOUR) AND f = 2",
                        "select * from t where d > now() - interval 5 day and e < date_add(d, interval -1 hour) and f = ?", 2L),
                // names keep their case even when they are non-reserved keywords
                row("SELECT Status.Name, COUNT(*) FROM Status JOIN Users AS User ON Status.uid = User.id, Data",
                        "select Status.Name, count(*) from Status join Users as User on Status.uid = User.id, Data"),
                row("select t.KEY from db.Order t", "select t.KEY from db.Order t"));
    }

    @ParameterizedTest
    @MethodSource("statements")
    void statementNormalizesToItsDigestAndLiteralValues(String sql, String digest, List<Object> values) {
        NormalizedSql n = Normalizer.normalize(sql);
        assertEquals(digest, n.digest());
        assertEquals(values, values(n));
        assertEquals(NormalizedSql.hashOf(digest), n.digestHash());
        assertEquals(digest.length(), n.digestLength());
    }

    @ParameterizedTest
    @MethodSource("statements")
    void literalSpansCoverExactlyTheLiterals(String sql, String digest, List<Object> values) {
        NormalizedSql n = Normalizer.normalize(sql);
        StringBuilder spliced = new StringBuilder();
        StringBuilder marked = new StringBuilder();
        int at = 0;
        for (Literal literal : n.literals()) {
            assertTrue(literal.start() >= at, () -> "overlapping span " + literal);
            spliced.append(sql, at, literal.start()).append(literal.text());
            marked.append(sql, at, literal.start()).append('?');
            at = literal.end();
        }
        spliced.append(sql.substring(at));
        marked.append(sql.substring(at));
        assertEquals(sql, spliced.toString());
        // replacing each span by a marker changes literals into parameters and nothing else
        assertEquals(digest, Normalizer.normalize(marked.toString()).digest());
    }

    @ParameterizedTest
    @MethodSource("statements")
    void digestTokensPointBackAtTheOriginalText(String sql, String digest, List<Object> values) {
        NormalizedSql n = Normalizer.normalize(sql);
        for (int i = 0; i < n.tokenCount(); i++) {
            assertEquals(i, n.tokenAt(n.tokenStart(i)));
            assertEquals(i, n.tokenAt(n.tokenEnd(i) - 1));
            assertTrue(n.tokenEnd(i) > n.tokenStart(i));
        }
    }

    @Test
    void aStatementNormalizedEarlierOnTheSameThreadIsUntouchedByTheNextOnes() throws Exception {
        // a platform thread (an event loop's) keeps one normalizer: what it made before must not share its scratch
        NormalizedSql[] first = new NormalizedSql[1];
        Thread t = Thread.ofPlatform().start(() -> {
            first[0] = Normalizer.normalize("SELECT c FROM sbtest1 WHERE id = 42 AND k IN ('a', 'b', 'c', 'd', 'e')");
            Normalizer.normalize("UPDATE t SET a = 1, b = 'x', c = 2.5 WHERE id = 7 ORDER BY z LIMIT 3");
            Normalizer.normalize("INSERT INTO t VALUES (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,"
                    + " 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52,"
                    + " 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70)");
            Normalizer.normalize("SELECT 1");
        });
        t.join();
        NormalizedSql again = Normalizer.normalize("SELECT c FROM sbtest1 WHERE id = 42 AND k IN ('a', 'b', 'c', 'd', 'e')");
        assertEquals(again.digest(), first[0].digest());
        assertEquals(again.digestHash(), first[0].digestHash());
        assertEquals(again.tokenCount(), first[0].tokenCount());
        assertEquals(6, first[0].literals().size());
        for (int i = 0; i < again.literals().size(); i++) {
            assertEquals(again.literals().get(i).value(), first[0].literals().get(i).value());
        }
        for (int i = 0; i < again.tokenCount(); i++) {
            assertEquals(again.tokenStart(i), first[0].tokenStart(i));
            assertEquals(again.tokenEnd(i), first[0].tokenEnd(i));
        }
    }

    @Test
    void parameterMarkersAreNumberedAndLiteralsAreNot() {
        NormalizedSql n = Normalizer.normalize("SELECT ? , 5, ?");
        assertEquals(List.of(0, -1, 1), n.literals().stream().map(Literal::paramIndex).toList());
        assertEquals(2, n.parameterCount());
        assertEquals(List.of(LiteralKind.PARAMETER, LiteralKind.INTEGER, LiteralKind.PARAMETER),
                n.literals().stream().map(Literal::kind).toList());
    }

    @Test
    void foldedMinusAndIntroducersBelongToTheLiteralSpan() {
        String sql = "SELECT - 5, _utf8mb4 'x' /* c */ 'y', DATE '2024-01-01'";
        List<String> texts = Normalizer.normalize(sql).literals().stream().map(Literal::text).toList();
        assertEquals(List.of("- 5", "_utf8mb4 'x' /* c */ 'y'", "DATE '2024-01-01'"), texts);
    }

    static Stream<List<String>> equivalent() {
        return Stream.of(
                List.of("SELECT c FROM sbtest1 WHERE id=42", "select c from sbtest1 where id = 7",
                        "  SeLeCt\tc\nFROM sbtest1 /* x */ WHERE id =\n-1 -- end", "SELECT c FROM sbtest1 WHERE id='42';",
                        "SELECT c FROM sbtest1 WHERE id=42 # trailing", "SELECT c FROM sbtest1 WHERE id = DATE '2020-01-01'"),
                List.of(NormalizerTest.HSCALE, "SELECT id,category FROM small WHERE small . category = \"games\"",
                        "select id , category from small where small.category=_utf8mb4'x' 'y'"),
                List.of("SELECT COUNT(*) FROM t WHERE a IN (1, 2)", "select count( * ) from t where a in(0x1,'b')",
                        "Select Count(*) From t Where a In (?, 2.5e1)"),
                List.of("SELECT a FROM t LIMIT 5, 10", "SELECT a FROM t LIMIT ?, ?"));
    }

    @ParameterizedTest
    @MethodSource("equivalent")
    void statementsDifferingOnlyInCommentsSpacingKeywordCaseOrLiteralsShareADigest(List<String> group) {
        NormalizedSql first = Normalizer.normalize(group.get(0));
        assertAll(group.stream().map(sql -> () -> {
            NormalizedSql n = Normalizer.normalize(sql);
            assertEquals(first.digest(), n.digest(), sql);
            assertEquals(first.digestHash(), n.digestHash(), sql);
            assertTrue(first.digestEquals(n.digest()), sql);
        }));
    }

    @Test
    void statementsDifferingInNamesOperatorsHintsOrListLengthsHaveDistinctDigests() {
        List<String> distinct = List.of(
                "SELECT c FROM sbtest1 WHERE id = 1", "SELECT c FROM sbtest2 WHERE id = 1",
                "SELECT c FROM Sbtest1 WHERE id = 1", "SELECT d FROM sbtest1 WHERE id = 1",
                "SELECT c FROM sbtest1 WHERE id < 1", "SELECT c FROM sbtest1 WHERE id <=> 1",
                "SELECT c FROM sbtest1 WHERE id IN (1)", "SELECT c FROM sbtest1 WHERE id IN (1, 2)",
                "SELECT c FROM sbtest1 WHERE id = 1 - 1", "SELECT c FROM sbtest1 WHERE id = 1 + 1",
                "SELECT /*+ NO_ICP(t) */ c FROM sbtest1 WHERE id = 1", "SELECT c FROM sbtest1 WHERE id = @x",
                "SELECT c FROM `sbtest1` WHERE id = 1", "SELECT c FROM sbtest1 WHERE id = NULL",
                "SELECT c FROM sbtest1 WHERE id = 1 FOR UPDATE", "SELECT c FROM sbtest1 WHERE id = 1; SELECT 2",
                "SELECT * FROM Status", "SELECT * FROM status", "SELECT now() - INTERVAL 1 DAY",
                "SELECT now() - INTERVAL 2 DAY");
        List<String> digests = new ArrayList<>();
        for (String sql : distinct) {
            String digest = Normalizer.normalize(sql).digest();
            assertFalse(digests.contains(digest), () -> sql + " has the digest of another statement: " + digest);
            digests.add(digest);
        }
    }

    @Test
    void digestEqualsComparesWithoutRenderingAndRejectsNearMisses() {
        NormalizedSql n = Normalizer.normalize("SELECT c FROM Sbtest1 WHERE id=42");
        assertTrue(n.digestEquals("select c from Sbtest1 where id = ?"));
        assertFalse(n.digestEquals("select c from sbtest1 where id = ?"));
        assertFalse(n.digestEquals("select c from Sbtest1 where id = 1"));
        assertFalse(n.digestEquals("select c from Sbtest1 where id  ?"));
        assertNotEquals(Normalizer.normalize("SELECT 1").digestHash(), Normalizer.normalize("SELECT a").digestHash());
    }

    @ParameterizedTest
    @ValueSource(strings = {"SELECT 'abc", "SELECT \"abc", "SELECT `abc", "SELECT /* open", "SELECT /*+ open",
            "SELECT X'1F", "SELECT X'1G'", "SELECT X'123'", "SELECT b'102'", "SELECT 'a\\'"})
    void malformedInputIsAParseErrorNamingThePosition(String sql) {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> Normalizer.normalize(sql));
        assertEquals(ErrorCode.PARSE_ERROR, e.code());
        assertEquals(1064, e.errno());
        assertEquals("42000", e.sqlState());
        assertTrue(e.getMessage().contains("at position 7 (line 1, column 8)"), e.getMessage());
    }

    @Test
    void parseErrorPositionCountsLines() {
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> Normalizer.normalize("SELECT 1,\n  'open"));
        assertTrue(e.getMessage().contains("unterminated string literal at position 12 (line 2, column 3) near ''open'"),
                e.getMessage());
    }

    @Test
    void emptyAndCommentOnlyStatementsHaveAnEmptyDigest() {
        assertEquals("", Normalizer.normalize("").digest());
        assertEquals("", Normalizer.normalize("  /* nothing */ -- here\n").digest());
        assertEquals(0, Normalizer.normalize("  ;  ").tokenCount());
    }

    static Arguments row(String sql, String digest, Object... values) {
        List<Object> expected = new ArrayList<>();
        for (Object v : values) {
            expected.add(v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : v);
        }
        return Arguments.of(sql, digest, expected);
    }

    static List<Object> values(NormalizedSql n) {
        List<Object> out = new ArrayList<>();
        for (Literal l : n.literals()) {
            Object v = l.value();
            out.add(l.isParameter() ? "?" + l.paramIndex() : v instanceof byte[] b ? "0x" + HexFormat.of().formatHex(b) : v);
        }
        return out;
    }

    static byte[] hex(String digits) {
        return HexFormat.of().parseHex(digits);
    }
}
