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

    /** The statements of {@code query} with multi-statements on, each followed by {@code |}. */
    private static List<String> statements(String... parts) {
        return split(String.join(" ", parts), true);
    }

    @Test
    void aProcedureBodyIsOneStatementWithItsSemicolons() {
        String create = "CREATE PROCEDURE p(IN a INT, OUT b INT) BEGIN SELECT a; SELECT a + 1; SET b = a * 2; END";
        assertEquals(List.of(create + " +", "CALL p(1, @b) +", "SELECT @b"), statements(create + ";", "CALL p(1, @b);", "SELECT @b"));
        assertEquals(List.of(create), split(create + ";", false)); // no multi-statements needed, as in MySQL
    }

    @Test
    void nestedBlocksLabelsAndLoopsCloseWhereTheirEndsAre() {
        String create = """
                CREATE DEFINER=`root`@`localhost` PROCEDURE fill(n INT)
                MODIFIES SQL DATA
                outer_block: BEGIN
                  DECLARE i INT DEFAULT 0;
                  DECLARE CONTINUE HANDLER FOR SQLSTATE '23000' BEGIN SET @dup = 1; END;
                  DECLARE EXIT HANDLER FOR NOT FOUND, 1062 SET @x = 2;
                  counting: WHILE i < n DO
                    INSERT INTO t VALUES (i);
                    IF i % 2 = 0 THEN SET i = i + 1; ELSEIF i > 5 THEN LEAVE counting; ELSE BEGIN SET i = i + 1; END; END IF;
                    REPEAT SET i = i + 1; UNTIL i > 3 END REPEAT;
                    l2: LOOP LEAVE l2; END LOOP l2;
                    CASE i WHEN 1 THEN SELECT 1; ELSE SELECT 2; END CASE;
                    SET i = i + 1;
                  END WHILE counting;
                END outer_block""";
        assertEquals(List.of(create + " +", "SELECT 1"), statements(create + ";", "SELECT 1"));
    }

    @Test
    void functionsNamedLikeBlockWordsOpenNoBlock() {
        // IF(), REPEAT() and a CASE expression inside the body; a simple (non-block) body ends at its ;
        String f = "CREATE FUNCTION f(x INT) RETURNS VARCHAR(20) CHARACTER SET utf8mb4 DETERMINISTIC"
                + " BEGIN DECLARE s VARCHAR(20); SET s = IF(x > 0, REPEAT('a', x), 'none');"
                + " IF (x > 1) THEN SET s = CASE WHEN x > 2 THEN IF(x > 3, 'big', 'mid') ELSE 'small' END; END IF; RETURN s; END";
        String g = "CREATE FUNCTION g(x INT) RETURNS INT RETURN IF(x > 0, x, 0)";
        assertEquals(List.of(f + " +", g + " +", "SELECT f(1), g(2)"), statements(f + ";", g + ";", "SELECT f(1), g(2)"));
    }

    @Test
    void aTriggerBodyAndAnEventBodyAreWhole() {
        String trigger = "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW FOLLOWS other BEGIN"
                + " IF NEW.a IS NULL THEN SET NEW.a = 0; END IF; SET NEW.b = NEW.a + 1; END";
        String simple = "CREATE TRIGGER trg2 AFTER DELETE ON t FOR EACH ROW DELETE FROM u WHERE u.id = OLD.id";
        String event = "CREATE EVENT IF NOT EXISTS e ON SCHEDULE EVERY 1 HOUR STARTS CURRENT_TIMESTAMP + INTERVAL 1 DAY"
                + " DO BEGIN DELETE FROM t WHERE a < 0; INSERT INTO log VALUES ('done; END'); END";
        String alter = "ALTER EVENT e DO BEGIN SELECT 1; END";
        assertEquals(List.of(trigger + " +", simple + " +", event + " +", alter + " +", "SELECT 1"),
                statements(trigger + ";", simple + ";", event + ";", alter + ";", "SELECT 1"));
    }

    @Test
    void semicolonsAndEndsInStringsAndCommentsCountForNothing() {
        String create = "CREATE PROCEDURE q() BEGIN SELECT 'x; END; y', `e;nd`, \"END IF;\"; -- END;\n"
                + " /* END; */ SELECT 2 # END ;\n; END";
        assertEquals(List.of(create + " +", "SELECT 3"), statements(create + ";", "SELECT 3"));
    }

    @Test
    void beginAloneOrBeginWorkIsATransactionButBeginNotAtomicIsABlock() {
        assertEquals(List.of("BEGIN +", "SELECT 1 +", "COMMIT"), statements("BEGIN;", "SELECT 1;", "COMMIT"));
        assertEquals(List.of("BEGIN WORK +", "SELECT 1"), statements("BEGIN WORK;", "SELECT 1"));
        String block = "BEGIN NOT ATOMIC DECLARE x INT DEFAULT 1; SELECT x; END";
        assertEquals(List.of(block + " +", "SELECT 2"), statements(block + ";", "SELECT 2"));
    }

    @Test
    void compoundStatementsOutsideStoredProgramsAreWholeAsMariaDbRunsThem() {
        String ifStatement = "IF @a > 0 THEN SELECT 1; ELSE SELECT 2; END IF";
        String labeled = "lbl: LOOP SELECT 1; LEAVE lbl; END LOOP lbl";
        assertEquals(List.of(ifStatement + " +", labeled + " +", "SELECT 3"), statements(ifStatement + ";", labeled + ";", "SELECT 3"));
    }

    @Test
    void otherCreateStatementsSplitAtTheirSemicolon() {
        assertEquals(List.of("CREATE TABLE event (begin INT, `end` INT) +", "CREATE VIEW v AS SELECT CASE WHEN 1 THEN 2 END AS c +",
                        "SELECT 1"),
                statements("CREATE TABLE event (begin INT, `end` INT);", "CREATE VIEW v AS SELECT CASE WHEN 1 THEN 2 END AS c;",
                        "SELECT 1"));
        assertEquals(List.of("CREATE FUNCTION udf RETURNS STRING SONAME 'udf.so' +", "SELECT 1"),
                statements("CREATE FUNCTION udf RETURNS STRING SONAME 'udf.so';", "SELECT 1"));
    }

    @Test
    void anUnfinishedBodyRunsToTheEndOfTheText() {
        // MySQL's parser reads on to the end and reports the syntax error there: nothing after it runs
        assertEquals(List.of("CREATE PROCEDURE p() BEGIN SELECT 1; SELECT 2"), statements("CREATE PROCEDURE p() BEGIN SELECT 1;", "SELECT 2"));
    }

    @Test
    void aDumpsExecutableCommentHoldsItsWholeBody() {
        String dump = "/*!50003 CREATE*/ /*!50020 DEFINER=`root`@`localhost`*/ /*!50003 PROCEDURE `p`() BEGIN SELECT 1; SELECT 2; END */";
        assertEquals(List.of(dump + " +", "SELECT 1"), statements(dump + ";", "SELECT 1"));
    }
}
