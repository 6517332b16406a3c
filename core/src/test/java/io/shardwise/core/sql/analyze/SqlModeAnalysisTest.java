package io.shardwise.core.sql.analyze;

import static io.shardwise.core.sql.analyze.AnalyzeFixture.sql;

import io.shardwise.core.error.ErrorCode;
import org.junit.jupiter.api.Test;

/** What the analyzer reads under the sql_mode flags that change a statement's meaning, and what it refuses. */
class SqlModeAnalysisTest {
    private static final String PIPES = "PIPES_AS_CONCAT";
    /** MySQL 8's expansion of ANSI. */
    private static final String ANSI = "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ONLY_FULL_GROUP_BY,ANSI";

    @Test
    void pipesAreAnOrInTheDefaultModeAndAConcatenationUnderPipesAsConcat() {
        String either = "SELECT * FROM orders WHERE user_id = 1 || user_id = 2";
        sql(either).select().key("orders", "or[= ?0, = ?1]"); // the default mode: an OR of two keys
        sql(either, PIPES).select().noKey("orders");
        sql(either, ANSI).select().noKey("orders");
        sql(either, "ORACLE_IS_NOT_SET,POSTGRESQL").select().noKey("orders");
        // user_id = CONCAT(1, 0), i.e. 10: never the node of 1
        String ten = "SELECT * FROM orders WHERE user_id = 1 || 0";
        sql(ten, PIPES).select().noKey("orders");
        sql("UPDATE orders SET status = 'x' WHERE user_id = 1 || 0", PIPES).noKey("orders");
        sql("DELETE FROM orders WHERE user_id = 3 || 1", PIPES).noKey("orders");
        // the key condition beside a concatenation still routes
        sql("SELECT status || '-' || amount FROM orders WHERE user_id = 5 AND status || 'x' = 'paidx'", PIPES)
                .select().key("orders", "= ?1");
    }

    @Test
    void pipesAfterAMultiplicativeOperandAreRefusedForCalcitesOtherPrecedence() {
        sql("SELECT amount * 2 || 'x' FROM orders", PIPES).fails(ErrorCode.UNSUPPORTED, "sql_mode PIPES_AS_CONCAT");
        sql("SELECT o.amount / (1) || 'x' FROM orders o", PIPES).fails(ErrorCode.UNSUPPORTED, "PIPES_AS_CONCAT");
        sql("SELECT amount DIV 2 || 'x' FROM orders", PIPES).fails(ErrorCode.UNSUPPORTED, "PIPES_AS_CONCAT");
        sql("SELECT (amount * 2) || 'x', amount * (2 || '1') FROM orders WHERE user_id = 1", PIPES).select().key("orders", "= ?4");
        sql("SELECT amount * 2 || 'x' FROM orders WHERE user_id = 1").select(); // an OR in the default mode
    }

    @Test
    void aPrefixNotWhoseOperandMeetsATighterOperatorIsRefusedUnderHighNotPrecedence() {
        String mode = "HIGH_NOT_PRECEDENCE";
        sql("SELECT * FROM orders WHERE NOT user_id BETWEEN 1 AND 5", mode).fails(ErrorCode.UNSUPPORTED, "sql_mode HIGH_NOT_PRECEDENCE");
        sql("SELECT * FROM orders WHERE status = 'a' AND NOT user_id = 5", mode).fails(ErrorCode.UNSUPPORTED, "HIGH_NOT_PRECEDENCE");
        sql("SELECT * FROM orders WHERE NOT o.user_id IN (1, 2)", mode).fails(ErrorCode.UNSUPPORTED, "HIGH_NOT_PRECEDENCE");
        sql("SELECT COUNT(*) FROM orders HAVING NOT COUNT(*) > 3", mode).fails(ErrorCode.UNSUPPORTED, "HIGH_NOT_PRECEDENCE");
        sql("SELECT * FROM orders WHERE NOT NOT user_id = 1", mode).fails(ErrorCode.UNSUPPORTED, "HIGH_NOT_PRECEDENCE");
        // the same in both readings
        sql("SELECT * FROM orders WHERE user_id = 1 AND NOT (status = 'a')", mode).select().key("orders", "= ?0");
        sql("SELECT * FROM orders WHERE user_id = 1 AND status NOT IN ('a') AND amount IS NOT NULL AND NOT flag", mode)
                .select().key("orders", "= ?0");
        sql("SELECT * FROM orders o WHERE user_id = 1 AND NOT EXISTS (SELECT 1 FROM countries) AND NOT (amount) OR FALSE", mode)
                .select();
        sql("SELECT * FROM orders WHERE NOT user_id BETWEEN 1 AND 5").select(); // the default mode reads it as MySQL does
    }

    @Test
    void mariaDbsOracleModeAndEmptyStringIsNullAreRefusedButSessionCommandsRun() {
        String oracle = "PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,ORACLE,NO_KEY_OPTIONS,NO_TABLE_OPTIONS,NO_FIELD_OPTIONS,"
                + "NO_AUTO_CREATE_USER,SIMULTANEOUS_ASSIGNMENT";
        sql("SELECT * FROM orders WHERE user_id = 1", oracle).fails(ErrorCode.UNSUPPORTED, "sql_mode ORACLE");
        sql("INSERT INTO countries (code, name) VALUES ('x', 'y')", oracle).fails(ErrorCode.UNSUPPORTED, "sql_mode ORACLE");
        sql("SELECT * FROM orders WHERE status = ''", "EMPTY_STRING_IS_NULL").fails(ErrorCode.UNSUPPORTED, "EMPTY_STRING_IS_NULL");
        sql("SET sql_mode = DEFAULT", oracle).is(SessionCommand.class);
        sql("SELECT COUNT (*) FROM orders", "IGNORE_SPACE").select().items("count(*) <- COUNT(*)");
    }
}
