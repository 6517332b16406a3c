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
    private static final KeyShifts.Weigher NO_WEIGHTS = (column, values) -> {
        throw new AssertionError("a numeric key needs no weights: " + values);
    };
    /** A string primary key (code) and its new value, under the collation id 46 (utf8mb4_bin) or 45 (general_ci). */
    private static List<Column> stringKey(int collation) {
        return List.of(new Column("", "t", "t", "code", "code", collation, 64, 253, 2 | Column.FLAG_NOT_NULL, 0),
                new Column("", "t", "t", "name", "name", collation, 256, 253, 0, 0),
                new Column("", "", "", "new", "", collation, 64, 253, 0, 0));
    }

    /** A binary collation's weights: the values' own bytes, case and trailing spaces kept. */
    private static final KeyShifts.Weigher BIN = (column, values) -> values.stream().map(KeyShiftsTest::bytes).toList();
    /** A general_ci-like collation's weights: case, accents and trailing spaces ignored (as a backend's WEIGHT_STRING would). */
    private static final KeyShifts.Weigher CI_AI = (column, values) -> values.stream()
            .map(v -> bytes(java.text.Normalizer.normalize(v.stripTrailing(), java.text.Normalizer.Form.NFD)
                    .replaceAll("\\p{M}", "").toUpperCase(java.util.Locale.ROOT))).toList();

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
        return assertThrows(ShardwiseException.class, () -> KeyShifts.check(rows, OLD, NEW, OLD, COLUMNS, ordered, NO_WEIGHTS));
    }

    @Test
    void aRowTakingAKeyAChosenRowStillHoldsIsMysqlsDuplicateInPrimaryKeyOrder() {
        ShardwiseException e = duplicate(rows("31->32", "30->31"), false); // sorted: 30 first, while 31 holds its key
        assertEquals(ErrorCode.DUPLICATE_ENTRY, e.code());
        assertEquals("Duplicate entry '31' for key 'PRIMARY'", e.getMessage());
    }

    @Test
    void inTheStatementsOrderAKeyGivenUpFirstIsFree() {
        assertDoesNotThrow(() -> KeyShifts.check(rows("31->5031", "30->31"), OLD, NEW, OLD, COLUMNS, true, NO_WEIGHTS));
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
        assertDoesNotThrow(() -> KeyShifts.check(rows("2->2", "3->3.00"), OLD, NEW, OLD, COLUMNS, false, NO_WEIGHTS));
        assertDoesNotThrow(() -> KeyShifts.check(rows("2->3"), OLD, OLD, OLD, COLUMNS, false, NO_WEIGHTS), "no key assigned: nothing checked");
    }

    @Test
    void aTargetRowMetByJoinRowsWithDifferentNewKeysIsRefused() {
        assertEquals(2, KeyShifts.distinct(rows("1->5", "1->5", "2->6"), OLD, NEW, OLD, COLUMNS, "UPDATE").size());
        ShardwiseException e = assertThrows(ShardwiseException.class,
                () -> KeyShifts.distinct(rows("1->5", "1->6"), OLD, NEW, OLD, COLUMNS, "UPDATE"));
        assertEquals(ErrorCode.UNSUPPORTED, e.code());
    }

    @Test
    void stringKeysCompareByTheirColumnsCollationAsItsBackendWeighsThem() {
        // under a binary collation 'B' is not 'b': row a takes b while B still holds its key, no duplicate
        assertDoesNotThrow(() -> KeyShifts.check(rows("a->b", "B->c"), OLD, NEW, OLD, stringKey(46), true, BIN));
        // under general_ci it is: MySQL's 1062, printed as the new value
        assertEquals("Duplicate entry 'b' for key 'PRIMARY'", assertThrows(ShardwiseException.class,
                () -> KeyShifts.check(rows("a->b", "B->c"), OLD, NEW, OLD, stringKey(45), true, CI_AI)).getMessage());
        // accents and trailing spaces: 'é' and 'e ' are 'e' under general_ci, not under a binary collation
        assertThrows(ShardwiseException.class, () -> KeyShifts.check(rows("f->é", "e->x"), OLD, NEW, OLD, stringKey(45), true, CI_AI));
        assertThrows(ShardwiseException.class, () -> KeyShifts.check(rows("f->e ", "e->x"), OLD, NEW, OLD, stringKey(45), true, CI_AI));
        assertDoesNotThrow(() -> KeyShifts.check(rows("f->é", "e->x"), OLD, NEW, OLD, stringKey(46), true, BIN));
        // a new value equal to the row's own key under the collation takes nothing ('a' -> 'A' under general_ci)
        assertDoesNotThrow(() -> KeyShifts.check(rows("a->A", "b->B"), OLD, NEW, OLD, stringKey(45), false, CI_AI));
        // without ORDER BY the primary key's order is the collation's: 'B' before 'a' in bytes, after it under general_ci
        assertDoesNotThrow(() -> KeyShifts.check(rows("B->c", "a->B2"), OLD, NEW, OLD, stringKey(45), false, CI_AI));
        assertThrows(ShardwiseException.class, () -> KeyShifts.check(rows("B->c", "a->b"), OLD, NEW, OLD, stringKey(45), false, CI_AI));
        assertDoesNotThrow(() -> KeyShifts.check(rows("a->b", "B->c"), OLD, NEW, OLD, stringKey(46), false, BIN));
    }

    @Test
    void joinRowsMeetingOneTargetRowCompareItsKeysByTheirBytes() {
        // two rows 'a' and 'A' of a binary-collated key are two rows, each moved
        assertEquals(2, KeyShifts.distinct(rows("a->x", "A->y", "a->x"), OLD, NEW, OLD, stringKey(46), "UPDATE").size());
        // new keys 'x' and 'X' for one row would store different values: refused whatever the collation
        assertThrows(ShardwiseException.class, () -> KeyShifts.distinct(rows("a->x", "a->X"), OLD, NEW, OLD, stringKey(45), "UPDATE"));
    }
}
