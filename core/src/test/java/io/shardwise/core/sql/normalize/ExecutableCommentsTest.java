package io.shardwise.core.sql.normalize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.shardwise.core.session.ServerIdentity;
import org.junit.jupiter.api.Test;

class ExecutableCommentsTest {
    private static final ExecutableComments.Gate MARIADB_11_4 = new ServerIdentity("11.4.5-MariaDB", "MariaDB Server")::executes;
    private static final ExecutableComments.Gate MYSQL_8_0 = new ServerIdentity("8.0.36", "MySQL Community Server - GPL")::executes;

    private static String mariaDb(String sql) {
        String out = ExecutableComments.expand(sql, LexicalMode.DEFAULT, MARIADB_11_4);
        assertEquals(sql.length(), out.length(), "offsets stay where they were");
        return out.strip().replaceAll(" +", " ");
    }

    @Test
    void aDumpsVersionedStatementBecomesItsContent() {
        assertEquals("SET NAMES utf8mb4", mariaDb("/*!40101 SET NAMES utf8mb4 */"));
        assertEquals("ALTER TABLE `t` DISABLE KEYS", mariaDb("/*!40000 ALTER TABLE `t` DISABLE KEYS */"));
        assertEquals("SELECT SQL_NO_CACHE * FROM t", mariaDb("SELECT /*!40001 SQL_NO_CACHE */ * FROM t"));
        assertEquals("select 24", mariaDb("/*!40101select 24*/"));
        assertEquals("select 6", mariaDb("/*!select 6*/"));
        assertEquals("select 7", mariaDb("/*M!select 7*/"));
    }

    /** Each verdict is what MariaDB 11.4.5 itself answered for the statement (checked with PyMySQL). */
    @Test
    void mariaDbsVersionRuleIncludingSixDigitsAndTheMySql57Range() {
        assertEquals("/* 50700 select 1 */", mariaDb("/*!50700 select 1 */"));
        assertEquals("select 2", mariaDb("/*M!50700 select 2 */"));
        assertEquals("select 3", mariaDb("/*!100000 select 3 */"));
        assertEquals("select 4", mariaDb("/*!110405 select 4 */"));
        assertEquals("/* 110406 select 5 */", mariaDb("/*!110406 select 5 */"));
        assertEquals("select 8", mariaDb("/*M!110405 select 8*/"));
        assertEquals("/* 999999 select 9*/", mariaDb("/*M!999999 select 9*/"));
        assertEquals("/* 1234567 select 12 */", mariaDb("/*!1234567 select 12 */"));
        assertEquals("select 15", mariaDb("/*!00000 select 15 */"));
        assertEquals("select 1 + 1 /* 99999 + 100 */", mariaDb("select 1 /*!40101 + 1 */ /*!99999 + 100 */"));
        assertEquals("select '*/'", mariaDb("/*!40101 select '*/' */"));
        assertEquals("select 1 /* inner */ + 2", mariaDb("/*!40101 select 1 /* inner */ + 2 */"));
        assertEquals("select /* 99999 7, */ 8", mariaDb("select /*!40101 /*!99999 7, */ 8 */"));
        assertEquals("select 25 /* 99999 /* x */ */", mariaDb("select 25 /*!99999 /* x */ */"));
    }

    @Test
    void mySqlRunsEveryVersionUpToItsOwnAndNeverMariaDbsMarker() {
        assertEquals("SET x=1", ExecutableComments.expand("/*!80016 SET x=1*/", LexicalMode.DEFAULT, MYSQL_8_0).strip());
        assertEquals("/* 80037 SET x=1*/", ExecutableComments.expand("/*!80037 SET x=1*/", LexicalMode.DEFAULT, MYSQL_8_0));
        assertEquals("/*  100101 SET x=1*/", ExecutableComments.expand("/*M!100101 SET x=1*/", LexicalMode.DEFAULT, MYSQL_8_0));
    }

    @Test
    void markersInsideStringsIdentifiersAndLineCommentsAreData() {
        String sql = "SELECT '/*!40101 x */', `/*!a*/`, \"it\\'s /*!\" -- /*!40101 y */\n FROM t";
        assertSame(sql, ExecutableComments.expand(sql, LexicalMode.DEFAULT, MARIADB_11_4));
        String noBackslash = "SELECT 'a\\' /*!40101 , 2 */";
        assertEquals("SELECT 'a\\' , 2 ", ExecutableComments.expand(noBackslash, new LexicalMode(true, false), MARIADB_11_4).replaceAll(" +", " "));
    }

    @Test
    void textWithoutExecutableCommentsIsReturnedAsItIs() {
        String sql = "SELECT /*+ MAX_EXECUTION_TIME(1) */ c /* note */ FROM t";
        assertSame(sql, ExecutableComments.expand(sql, LexicalMode.DEFAULT, MARIADB_11_4));
    }
}
