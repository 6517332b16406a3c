package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.execute.Column;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MySQL's row-by-row primary key check replayed over a key move's chosen rows ({@link KeyShifts}). */
class KeyShiftsTest {
    private static final List<Column> COLUMNS = List.of(
            new Column("", "t", "t", "id", "id", Column.BINARY_COLLATION, 20, 8, 2 | Column.FLAG_NOT_NULL, 0),
            new Column("", "t", "t", "name", "name", 45, 256, 253, 0, 0),
            new Column("", "", "", "(id + 1)", "", Column.BINARY_COLLATION, 21, 8, 0, 0));
    private static final List<Integer> OLD = List.of(0);
    private static final List<Integer> NEW = List.of(2);

    /** Rows {@code old -> new}, as the choosing SELECT returns them. */
    private static List<byte[][]> rows(String... shifts) {
        List<byte[][]> rows = new ArrayList<>();
        for (String s : shifts) {
            String[] p = s.split("->");
            rows.add(new byte[][] {bytes(p[0]), bytes("n"), bytes(p[1])});
        }
        return rows;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ShardwiseException duplicate(List<byte[][]> rows, boolean ordered) {
        return assertThrows(ShardwiseException.class, () -> KeyShifts.check(rows, OLD, NEW, OLD, COLUMNS, ordered));
    }

    @Test
    void aRowTakingAKeyAChosenRowStillHoldsIsMysqlsDuplicateInPrimaryKeyOrder() {
        ShardwiseException e = duplicate(rows("31->32", "30->31"), false); // sorted: 30 first, while 31 holds its key
        assertEquals(ErrorCode.DUPLICATE_ENTRY, e.code());
        assertEquals("Duplicate entry '31' for key 'PRIMARY'", e.getMessage());
    }

    @Test
    void inTheStatementsOrderAKeyGivenUpFirstIsFree() {
        assertDoesNotThrow(() -> KeyShifts.check(rows("31->5031", "30->31"), OLD, NEW, OLD, COLUMNS, true));
        assertEquals("Duplicate entry '31' for key 'PRIMARY'", duplicate(rows("30->31", "31->5031"), true).getMessage());
    }

    @Test
    void aSwapOrTwoRowsTakingOneKeyAreDuplicatesInAnyOrder() {
        duplicate(rows("50->51", "51->50"), true);
        duplicate(rows("51->50", "50->51"), true);
        duplicate(rows("7->100", "8->100"), false);
    }

    @Test
    void numbersCompareByValueAndAnUnchangedKeyTakesNothing() {
        duplicate(rows("2->3.0", "3->9"), false);
        assertDoesNotThrow(() -> KeyShifts.check(rows("2->2", "3->3.00"), OLD, NEW, OLD, COLUMNS, false));
        assertDoesNotThrow(() -> KeyShifts.check(rows("2->3"), OLD, OLD, OLD, COLUMNS, false), "no key assigned: nothing checked");
    }

    @Test
    void aTargetRowMetByJoinRowsWithDifferentNewKeysIsRefused() {
        assertEquals(2, KeyShifts.distinct(rows("1->5", "1->5", "2->6"), OLD, NEW, OLD, COLUMNS, "UPDATE").size());
        ShardwiseException e = assertThrows(ShardwiseException.class,
                () -> KeyShifts.distinct(rows("1->5", "1->6"), OLD, NEW, OLD, COLUMNS, "UPDATE"));
        assertEquals(ErrorCode.UNSUPPORTED, e.code());
    }
}
