package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class TransactionWordsTest {
    @Test
    void thePlainFormsOfATransactionsOwnStatementsAreRead() {
        assertEquals(TransactionWords.Kind.BEGIN, TransactionWords.of("BEGIN"));
        assertEquals(TransactionWords.Kind.BEGIN, TransactionWords.of("  begin\n WORK "));
        assertEquals(TransactionWords.Kind.BEGIN, TransactionWords.of("START TRANSACTION"));
        assertEquals(TransactionWords.Kind.BEGIN, TransactionWords.of("start transaction read only, with consistent snapshot"));
        assertEquals(TransactionWords.Kind.COMMIT, TransactionWords.of("commit"));
        assertEquals(TransactionWords.Kind.COMMIT, TransactionWords.of("COMMIT WORK"));
        assertEquals(TransactionWords.Kind.ROLLBACK, TransactionWords.of("Rollback"));
        assertEquals(TransactionWords.Kind.ROLLBACK, TransactionWords.of("ROLLBACK WORK"));
    }

    @Test
    void setAutocommitToALiteralIsRead() {
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_OFF, TransactionWords.of("SET autocommit=0"));
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_OFF, TransactionWords.of(" set  @@session.AUTOCOMMIT = off "));
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_OFF, TransactionWords.of("SET SESSION autocommit := FALSE"));
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_ON, TransactionWords.of("SET autocommit = 1"));
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_ON, TransactionWords.of("SET @@autocommit=ON"));
        assertEquals(TransactionWords.Kind.AUTOCOMMIT_ON, TransactionWords.of("SET local autocommit = true"));
        for (String sql : new String[] {"SET autocommit = 2", "SET autocommit = 'ON'", "SET GLOBAL autocommit = 0", "SET autocommit = 0;",
                "SET autocommit = 0, sql_mode = ''", "SET autocommit = @x", "SET autocommits = 0", "SET NAMES utf8mb4", "SETautocommit=0",
                "SET @autocommit = 0", "SET autocommit = 0 -- x"}) {
            assertNull(TransactionWords.of(sql), sql);
        }
    }

    @Test
    void everyOtherFormIsLeftToTheSession() {
        for (String sql : new String[] {"COMMIT;", "COMMIT AND CHAIN", "COMMIT RELEASE", "ROLLBACK TO sp", "ROLLBACK TO SAVEPOINT sp",
                "BEGIN NOT ATOMIC SELECT 1; END", "/* x */ BEGIN", "BEGIN -- x", "BEGIN # x", "STARTTRANSACTION", "START SLAVE",
                "SELECT 1", "SAVEPOINT sp", "COMMIT; SELECT 1", "BEGINWORK", "beg", "committed"}) {
            assertNull(TransactionWords.of(sql), sql);
        }
    }

    @Test
    void thePlainFormsOfSavepointStatementsAreReadWithTheirNames() {
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.SAVEPOINT, "sp"), TransactionWords.savepoint("SAVEPOINT sp"));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.SAVEPOINT, "a b`c"), TransactionWords.savepoint(" savepoint `a b``c` "));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.SAVEPOINT, "sp_1$"), TransactionWords.savepoint("SAVEPOINT sp_1$"));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.ROLLBACK_TO_SAVEPOINT, "Sp"),
                TransactionWords.savepoint("ROLLBACK TO Sp"));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.ROLLBACK_TO_SAVEPOINT, "sp"),
                TransactionWords.savepoint("rollback\n work to  savepoint `sp`"));
        // MySQL reads SAVEPOINT here as the savepoint's name (a keyword it does not reserve), as the session does
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.ROLLBACK_TO_SAVEPOINT, "savepoint"),
                TransactionWords.savepoint("ROLLBACK TO savepoint"));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.RELEASE_SAVEPOINT, "s2"),
                TransactionWords.savepoint("RELEASE SAVEPOINT s2"));
        assertEquals(new TransactionWords.Savepoint(TransactionWords.Kind.SAVEPOINT, "1a"), TransactionWords.savepoint("SAVEPOINT 1a"));
    }

    @Test
    void otherSavepointSpellingsAreLeftToTheSession() {
        for (String sql : new String[] {"SAVEPOINT", "SAVEPOINT sp;", "SAVEPOINT sp -- x", "/* x */ SAVEPOINT sp", "SAVEPOINT \"sp\"",
                "SAVEPOINT 12", "SAVEPOINT a b", "SAVEPOINT `a", "RELEASE sp", "RELEASE SAVEPOINT", "ROLLBACK sp", "ROLLBACK",
                "ROLLBACK TO", "SAVEPOINT caf\u00e9", "SELECT 1", "savepoints sp", "SAVEPOINT " + "a".repeat(200)}) {
            assertNull(TransactionWords.savepoint(sql), sql);
        }
    }
}
