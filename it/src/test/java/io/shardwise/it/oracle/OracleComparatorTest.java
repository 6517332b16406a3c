package io.shardwise.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.it.oracle.OracleComparator.Verdict;
import io.shardwise.it.oracle.Outcome.Row;
import java.util.List;
import org.junit.jupiter.api.Test;

class OracleComparatorTest {
    private final OracleComparator comparator = new OracleComparator();

    private static final OracleCase UNORDERED = new OracleCase("t", "SELECT id, name FROM users", null, false, false);
    private static final OracleCase ORDERED = new OracleCase("t", "SELECT id, name FROM users ORDER BY id", null, false, false);

    private static Outcome.Rows rows(List<String> labels, Row... rows) {
        return new Outcome.Rows(labels, List.of(8, 253), List.of(rows));
    }

    private static Outcome.Rows usual(Row... rows) {
        return rows(List.of("id", "name"), rows);
    }

    @Test
    void identicalRowsInAnyOrderAgreeWithoutOrderBy() {
        Verdict v = comparator.compare(UNORDERED, usual(Row.of("1", "a"), Row.of("2", null)), usual(Row.of("2", null), Row.of("1", "a")));
        assertInstanceOf(Verdict.Identical.class, v);
    }

    @Test
    void aChangedRowIsADifferenceNamingBothRows() {
        Verdict v = comparator.compare(UNORDERED, usual(Row.of("1", "a"), Row.of("2", "b")), usual(Row.of("1", "a"), Row.of("2", "B")));
        String report = assertInstanceOf(Verdict.Different.class, v).report();
        assertTrue(report.contains("SELECT id, name FROM users"), report);
        assertTrue(report.contains("('2', 'b')") && report.contains("('2', 'B')"), report);
    }

    @Test
    void nullAndEmptyStringAndAMissingDuplicateAreDifferences() {
        assertInstanceOf(Verdict.Different.class, comparator.compare(UNORDERED, usual(Row.of("1", null)), usual(Row.of("1", ""))));
        assertInstanceOf(Verdict.Different.class,
                comparator.compare(UNORDERED, usual(Row.of("1", "a")), usual(Row.of("1", "a"), Row.of("1", "a"))));
    }

    @Test
    void aChangedLabelIsADifference() {
        Verdict v = comparator.compare(UNORDERED, rows(List.of("id", "NAME"), Row.of("1", "a")), usual(Row.of("1", "a")));
        assertTrue(assertInstanceOf(Verdict.Different.class, v).report().contains("labels"));
    }

    @Test
    void aChangedTypeIsADifference() {
        Outcome.Rows decimal = new Outcome.Rows(List.of("id", "name"), List.of(246, 253), List.of(Row.of("1", "a")));
        Verdict v = comparator.compare(UNORDERED, decimal, usual(Row.of("1", "a")));
        assertTrue(assertInstanceOf(Verdict.Different.class, v).report().contains("types"));
    }

    @Test
    void orderMattersOnlyUnderATopLevelOrderBy() {
        Outcome a = usual(Row.of("1", "a"), Row.of("2", "b"));
        Outcome b = usual(Row.of("2", "b"), Row.of("1", "a"));
        String report = assertInstanceOf(Verdict.Different.class, comparator.compare(ORDERED, a, b)).report();
        assertTrue(report.contains("another order"), report);
        OracleCase nested = new OracleCase("t", "SELECT * FROM (SELECT id FROM t ORDER BY id) x WHERE s = 'order by'", null, false, false);
        assertFalse(nested.ordered());
        assertTrue(new OracleCase("t", "select a from t order\n by a", null, false, false).ordered());
        assertFalse(new OracleCase("t", "SELECT reorder_by FROM t", null, false, false).ordered());
    }

    @Test
    void aDifferentErrnoIsADifferenceAndTheSameErrnoAgrees() {
        OracleCase c = new OracleCase("t", "SELECT nope FROM t", null, true, false);
        Outcome unknownColumn = new Outcome.Failure(1054, "42S22", "Unknown column 'nope'");
        assertInstanceOf(Verdict.Identical.class, comparator.compare(c, new Outcome.Failure(1054, "42S22", "other text"), unknownColumn));
        String report = assertInstanceOf(Verdict.Different.class,
                comparator.compare(c, new Outcome.Failure(1235, "42000", "unsupported"), unknownColumn)).report();
        assertTrue(report.contains("errno 1235 vs 1054"), report);
        assertInstanceOf(Verdict.Different.class, comparator.compare(c, usual(), unknownColumn));
    }

    @Test
    void messagesCompareWhenTheComparatorKnowsTheDirectDatabaseReadAsTheLogicalSchema() {
        OracleComparator messages = new OracleComparator("oracle_x_whole", "shop");
        OracleCase c = new OracleCase("t", "SELECT * FROM nope", null, true, false);
        Outcome direct = new Outcome.Failure(1146, "42S02", "Table 'oracle_x_whole.nope' doesn't exist");
        assertInstanceOf(Verdict.Identical.class,
                messages.compare(c, new Outcome.Failure(1146, "42S02", "Table 'shop.nope' doesn't exist"), direct));
        String report = assertInstanceOf(Verdict.Different.class,
                messages.compare(c, new Outcome.Failure(1146, "42S02", "Table 'oracle_x_0.nope' doesn't exist"), direct)).report();
        assertTrue(report.contains("Table 'shop.nope' doesn't exist"), report);
        // only whole identifiers are read as the logical schema
        Outcome column = new Outcome.Failure(1054, "42S22", "Unknown column 'oracle_x_whole_2' in 'field list'");
        assertInstanceOf(Verdict.Identical.class, messages.compare(c, column, column));
        assertInstanceOf(Verdict.Different.class,
                messages.compare(c, new Outcome.Failure(1146, "HY000", "Table 'shop.nope' doesn't exist"), direct));
        OracleCase worded = new OracleCase("t", "SELECT * FROM nope", null, true, false, "a known difference in wording");
        assertInstanceOf(Verdict.Identical.class,
                messages.compare(worded, new Outcome.Failure(1146, "42S02", "other words"), direct));
    }

    @Test
    void anErrorCaseThatSucceedsDirectlyAndACrashAreErrors() {
        OracleCase c = new OracleCase("t", "SELECT 1", null, true, false);
        assertInstanceOf(Verdict.Error.class, comparator.compare(c, usual(), usual()));
        assertInstanceOf(Verdict.Error.class,
                comparator.compare(UNORDERED, new Outcome.Crash(new NullPointerException("boom")), usual()));
    }

    @Test
    void updatesCompareAffectedRowsAndLastInsertId() {
        OracleCase c = new OracleCase("t", "UPDATE t SET a = 1", null, false, false);
        assertInstanceOf(Verdict.Identical.class, comparator.compare(c, new Outcome.Update(2, 0), new Outcome.Update(2, 0)));
        assertInstanceOf(Verdict.Different.class, comparator.compare(c, new Outcome.Update(4, 0), new Outcome.Update(2, 0)));
        assertInstanceOf(Verdict.Different.class, comparator.compare(c, new Outcome.Update(2, 7), new Outcome.Update(2, 0)));
    }

    @Test
    void collationEquivalentCasesFoldCaseAccentsAndTrailingSpacesOnly() {
        OracleCase ci = new OracleCase("t", "SELECT DISTINCT id, name FROM users", null, false, true);
        assertInstanceOf(Verdict.Identical.class, comparator.compare(ci, usual(Row.of("1", "Zoë")), usual(Row.of("1", "zoe "))));
        assertInstanceOf(Verdict.Different.class, comparator.compare(ci, usual(Row.of("1", "Zoë")), usual(Row.of("1", "zoey"))));
        assertEquals("emile", OracleComparator.foldText("Émile"));
    }

    @Test
    void doublesAgreeWithinTheFloatToleranceAndOnlyDoubles() {
        OracleCase c = new OracleCase("t", "SELECT id, VARIANCE(x) FROM t GROUP BY id ORDER BY id", null, false, false);
        Outcome.Rows merged = new Outcome.Rows(List.of("id", "v"), List.of(8, 5), List.of(Row.of("1", "1234.5679"), Row.of("2", "0.1")));
        Outcome.Rows binary = new Outcome.Rows(List.of("id", "v"), List.of(8, 5),
                List.of(Row.of("1", "1234.567890123456"), Row.of("2", "0.10000000000000003")));
        assertInstanceOf(Verdict.Identical.class, comparator.compare(c, merged, binary), "a fixed scale against all 17 digits");
        assertInstanceOf(Verdict.Identical.class, comparator.compare(UNORDERED, new Outcome.Rows(List.of("id", "v"), List.of(8, 5),
                List.of(Row.of("2", "0.1"), Row.of("1", "1234.5679"))), binary), "as multisets too");
        assertTrue(OracleComparator.sameDouble("1.0000000000000002", "1"));
        assertFalse(OracleComparator.sameDouble("1234.5678", "1234.5679"), "the same scale: only the relative tolerance");
        assertFalse(OracleComparator.sameDouble("1234.5679", "1234.56796"), "does not round to it");
        assertTrue(OracleComparator.sameDouble("1234.5679", "1234.56794"));
        assertFalse(OracleComparator.sameDouble("12.3", "12.4"));
        assertFalse(OracleComparator.sameDouble("12", "12.4"));
        assertFalse(OracleComparator.sameDouble("1e-5", "-1e-5"));
        byte[] ieee = java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putDouble(1234.567890123456).array();
        assertEquals("1234.567890123456", OracleComparator.doubleText(ieee), "a binary-protocol DOUBLE as Connector/J's getBytes gives it");
        assertEquals("1234.5679", OracleComparator.doubleText("1234.5679".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
        Outcome.Rows decimals = new Outcome.Rows(List.of("id", "v"), List.of(8, 246), List.of(Row.of("1", "1234.5679"), Row.of("2", "0.1")));
        Outcome.Rows longer = new Outcome.Rows(List.of("id", "v"), List.of(8, 246),
                List.of(Row.of("1", "1234.56789"), Row.of("2", "0.1")));
        assertInstanceOf(Verdict.Different.class, comparator.compare(c, decimals, longer), "a DECIMAL compares byte for byte");
    }

    private static Outcome.Rows described(String schema, String orgTable, long length, int flags) {
        return new Outcome.Rows(List.of("id"), List.of(246), List.of(Row.of("1")),
                List.of(Outcome.Meta.packet(schema, "t", orgTable, "id", 63, length, 0, flags)));
    }

    @Test
    void aColumnDescribedOtherwiseIsADifferenceNamingTheProperty() {
        OracleComparator named = new OracleComparator("shop_whole", "shop");
        Verdict v = named.compare(UNORDERED, described("shop", "t", 33, 1), described("shop_whole", "t", 32, 1));
        String report = assertInstanceOf(Verdict.Different.class, v).report();
        assertTrue(report.contains("'id' length: shardwise 33, direct 32"), report);
        assertEquals(java.util.Map.of("length", 1), named.metadataKinds());
    }

    @Test
    void theDirectDatabaseReadsAsTheLogicalSchemaButAPhysicalTableNameIsADifference() {
        OracleComparator named = new OracleComparator("shop_whole", "shop");
        assertInstanceOf(Verdict.Identical.class,
                named.compare(UNORDERED, described("shop", "t", 32, 1), described("shop_whole", "t", 32, 1)));
        Verdict v = named.compare(UNORDERED, described("shop", "t_3", 32, 1), described("shop_whole", "t", 32, 1));
        assertTrue(assertInstanceOf(Verdict.Different.class, v).report().contains("orgTable: shardwise t_3, direct t"));
    }

    @Test
    void flagsAreSpelledOutAndASideWithoutMetadataIsNotCompared() {
        assertEquals("545 NOT_NULL|UNSIGNED|AUTO_INCREMENT", OracleComparator.show("flags", 1 | 32 | 512));
        assertInstanceOf(Verdict.Identical.class, comparator.compare(UNORDERED,
                new Outcome.Rows(List.of("id"), List.of(246), List.of(Row.of("1"))), described("x", "t", 32, 1)));
    }

    private static Outcome.Rows flagged(int flags, int collation, int type) {
        return new Outcome.Rows(List.of("id"), List.of(type), List.of(Row.of("1")),
                List.of(Outcome.Meta.packet("shop", "t", "t", "id", collation, 20, 0, flags)));
    }

    @Test
    void onlyTheNamedPlanDependentDifferencesAreExcusedAndTheyAreCounted() {
        OracleComparator named = new OracleComparator("shop_whole", "shop");
        // key flags a temporary table drops, and BINARY on a number: excused
        assertInstanceOf(Verdict.Identical.class, named.compare(UNORDERED, flagged(1 | 128, 63, 8), flagged(1 | 2 | 16384, 63, 8)));
        // NOT_NULL, UNSIGNED, and BINARY on a string are not
        assertInstanceOf(Verdict.Different.class, named.compare(UNORDERED, flagged(0, 63, 8), flagged(1, 63, 8)));
        assertInstanceOf(Verdict.Different.class, named.compare(UNORDERED, flagged(32, 63, 8), flagged(0, 63, 8)));
        assertInstanceOf(Verdict.Different.class, named.compare(UNORDERED, flagged(128, 45, 253), flagged(0, 45, 253)));
        // AUTO_INCREMENT lost only with the other table flags (a temporary table): the federated copies keep it
        assertInstanceOf(Verdict.Different.class, named.compare(UNORDERED, flagged(1 | 2, 63, 8), flagged(1 | 2 | 512, 63, 8)));
        assertInstanceOf(Verdict.Identical.class, named.compare(UNORDERED, flagged(1, 63, 8), flagged(1 | 2 | 512, 63, 8)));
        // no collation is excused: the handshake's 255 is what the backends report too
        assertInstanceOf(Verdict.Different.class, named.compare(UNORDERED, flagged(0, 45, 253), flagged(0, 255, 253)));
        assertEquals(java.util.Map.of("flags", 4, "collation", 1, "excused flags", 2), named.metadataKinds());
    }
}
