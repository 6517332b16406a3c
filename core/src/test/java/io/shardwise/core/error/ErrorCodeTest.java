package io.shardwise.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ErrorCodeTest {
    private static final Pattern SQL_STATE = Pattern.compile("[0-9A-Z]{5}");

    @Test
    void everyCodeHasAMysqlErrnoAValidSqlStateAndAFormattableMessage() {
        for (ErrorCode code : ErrorCode.values()) {
            assertTrue(code.errno() >= 1000 && code.errno() < 5000, code + " errno " + code.errno());
            assertTrue(SQL_STATE.matcher(code.sqlState()).matches(), code + " sqlstate " + code.sqlState());
            int placeholders = code.format().split("%s", -1).length - 1;
            Object[] args = new Object[placeholders];
            java.util.Arrays.fill(args, "x");
            String message = code.message(args);
            assertFalse(message.contains("%"), code + " leaves a placeholder: " + message);
        }
    }

    @Test
    void eachErrnoIsDefinedOnceExceptShardwisesOwnConditionsUnder1105() {
        java.util.Map<Integer, ErrorCode> first = new java.util.HashMap<>();
        for (ErrorCode code : ErrorCode.values()) {
            ErrorCode earlier = first.putIfAbsent(code.errno(), code);
            if (earlier != null) {
                assertEquals(ErrorCode.BUG.errno(), code.errno(), code + " repeats " + earlier + "'s errno");
                assertEquals(earlier.sqlState(), code.sqlState(), code + " gives " + earlier + "'s errno another SQLSTATE");
            }
        }
    }

    @Test
    void unknownCommandAndBadHandshakeAreMysqlsOwnCodes() {
        assertEquals(1047, ErrorCode.UNKNOWN_COMMAND.errno());
        assertEquals("Unknown command", ErrorCode.UNKNOWN_COMMAND.message());
        assertEquals(1043, ErrorCode.BAD_HANDSHAKE.errno());
        assertEquals("Bad handshake", ErrorCode.BAD_HANDSHAKE.message());
    }

    @Test
    void bugsAreMarkedSoUsersCanTellThemFromTheirOwnMistakes() {
        ShardwiseException e = new ShardwiseException(ErrorCode.BUG, "merge slot 3 missing");
        assertEquals("[BUG] merge slot 3 missing", e.getMessage());
        assertEquals(1105, e.errno());
        assertEquals("HY000", e.sqlState());
    }

    @Test
    void unsupportedUsesMysqlsOwnWording() {
        ShardwiseException e = new ShardwiseException(ErrorCode.UNSUPPORTED, "cross-shard subquery");
        assertEquals(1235, e.errno());
        assertEquals("42000", e.sqlState());
        assertEquals("This version of Shardwise doesn't yet support 'cross-shard subquery'", e.getMessage());
    }

    @Test
    void aBugReachesClientsAsWhereItHappenedWithoutTheJavaExceptionText() {
        ShardwiseException e = ShardwiseException.bug("running a unit on backend ds0", new NullPointerException("name"));
        assertEquals(1105, e.errno());
        assertEquals("HY000", e.sqlState());
        assertEquals("[BUG] internal error running a unit on backend ds0 (details in the Shardwise log)", e.wireMessage());
        assertInstanceOf(NullPointerException.class, e.getCause());
    }
}
