package io.shardwise.core.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.execute.Column;
import io.shardwise.core.route.RowExpr;
import io.shardwise.core.route.RowExpr.ArithmeticOp;
import io.shardwise.core.route.RowExpr.CompareOp;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExprEvaluatorTest {
    /** #0 BIGINT 10, #1 DECIMAL(,2) NULL, #2 VARCHAR 'apple' with weight #3, #4 VARCHAR 'Apple' with weight #5, #6 DOUBLE 0.5, #7 TIME. */
    private static final List<Column> COLS = List.of(Columns.bigint("n"), Columns.decimal("d", 2), Columns.varchar("a"),
            Columns.weight("wa"), Columns.varchar("b"), Columns.weight("wb"), Columns.dbl("f"), Columns.time("t"));
    private static final byte[][] ROW = cells("10", null, "apple", "APPLE", "Apple", "APPLE", "0.5", "-01:00:00");
    private static final List<io.shardwise.core.execute.Condition> WARNINGS = new java.util.concurrent.CopyOnWriteArrayList<>();
    private static final ExprEvaluator EVAL = new ExprEvaluator(COLS, WARNINGS::add);

    private static byte[][] cells(String... values) {
        byte[][] out = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }

    private static Object eval(RowExpr e) {
        return EVAL.eval(e, Row.of(ROW));
    }

    private static RowExpr col(int i) {
        return new RowExpr.ColumnRef(i, -1);
    }

    private static RowExpr k(Object v) {
        return new RowExpr.Constant(v);
    }

    private static RowExpr cmp(CompareOp op, RowExpr l, RowExpr r) {
        return new RowExpr.Compare(op, l, r);
    }

    @Test
    void comparisonsWithNullAreUnknownExceptNullSafeEquality() {
        assertNull(eval(cmp(CompareOp.EQ, col(1), k(null))));
        assertNull(eval(cmp(CompareOp.GT, col(1), k(1L))));
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.NULL_SAFE_EQ, col(1), k(null))));
        assertEquals(BigDecimal.ZERO, eval(cmp(CompareOp.NULL_SAFE_EQ, col(0), k(null))));
    }

    @Test
    void andOrFollowThreeValuedLogic() {
        RowExpr unknown = cmp(CompareOp.EQ, col(1), k(1L));
        RowExpr yes = cmp(CompareOp.EQ, col(0), k(10L));
        RowExpr no = cmp(CompareOp.EQ, col(0), k(11L));
        assertEquals(BigDecimal.ZERO, eval(new RowExpr.And(List.of(unknown, no))));
        assertNull(eval(new RowExpr.And(List.of(unknown, yes))));
        assertEquals(BigDecimal.ONE, eval(new RowExpr.Or(List.of(unknown, yes))));
        assertNull(eval(new RowExpr.Or(List.of(unknown, no))));
        assertNull(eval(new RowExpr.Not(unknown)));
        assertEquals(BigDecimal.ONE, eval(new RowExpr.Not(no)));
        assertEquals(BigDecimal.ONE, eval(new RowExpr.IsNull(col(1), false)));
        assertEquals(BigDecimal.ZERO, eval(new RowExpr.IsNull(col(1), true)));
        assertFalse(EVAL.accepts(new RowExpr.Or(List.of(unknown, no)), Row.of(ROW)), "unknown does not pass HAVING");
    }

    @Test
    void exactDivisionKeepsMysqlsIntermediateDigitsAndComparesAtTheDeclaredScale() {
        // do_div: scale 0 and 0 + 4 rounds up to one 9-digit word, truncated
        assertEquals(new BigDecimal("3.333333333"), eval(div(col(0), k(3L))));
        // MariaDB: 10/3 = 3.3333 holds (the comparison rounds the quotient to its 4 declared decimals), 10/3 > 3.33333 does not
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, div(col(0), k(3L)), k(new BigDecimal("3.3333")))));
        assertEquals(BigDecimal.ZERO, eval(cmp(CompareOp.GT, div(col(0), k(3L)), k(new BigDecimal("3.33333")))));
        // scale 2: the word rounding already adds 7 digits, so no increment is left: still 9 digits
        assertEquals(new BigDecimal("0.666666666"), eval(div(k(new BigDecimal("2.00")), k(3L))));
        // the product of an unrounded quotient: (10/3)*3 is 9.999999999, which rounds to 10.0000 at its 4 declared decimals
        RowExpr product = new RowExpr.Arithmetic(ArithmeticOp.MULTIPLY, div(col(0), k(3L)), k(3L));
        assertEquals(new BigDecimal("9.999999999"), eval(product));
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, product, k(10L))));
        assertNull(eval(new RowExpr.Arithmetic(ArithmeticOp.ADD, col(0), col(1))));
    }

    @Test
    void divisionByZeroIsNullWithWarning1365ButNullDividedByZeroWarnsNot() {
        WARNINGS.clear();
        assertNull(eval(div(col(0), k(0L))));
        assertNull(eval(div(col(6), k(0L))));
        assertNull(eval(div(col(1), k(0L))));
        assertEquals(List.of(new io.shardwise.core.execute.Condition(io.shardwise.core.execute.Condition.Level.WARNING, 1365,
                "Division by 0"), new io.shardwise.core.execute.Condition(io.shardwise.core.execute.Condition.Level.WARNING, 1365,
                "Division by 0")), WARNINGS);
    }

    @Test
    void computedColumnsAreWrittenAsTheirColumnTypeWritesThem() {
        byte[][] row = cells("10", null, "apple", "APPLE", "Apple", "APPLE", "0.5", "-01:00:00", "x");
        List<Column> cols = new java.util.ArrayList<>(COLS);
        cols.add(Columns.decimal("q", 4));
        ExprEvaluator e = new ExprEvaluator(cols, WARNINGS::add);
        e.compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8, div(col(0), k(3L))), row);
        assertEquals("3.3333", new String(row[8], StandardCharsets.US_ASCII));
        cols.set(8, Columns.bigint("c"));
        e = new ExprEvaluator(cols, WARNINGS::add);
        e.compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8, new RowExpr.Negate(col(0))), row);
        assertEquals("-10", new String(row[8], StandardCharsets.US_ASCII));
        cols.set(8, Columns.dbl("f2"));
        e = new ExprEvaluator(cols, WARNINGS::add);
        e.compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8, new RowExpr.Arithmetic(ArithmeticOp.MULTIPLY, col(6), k(3L))), row);
        assertEquals("1.5", new String(row[8], StandardCharsets.US_ASCII));
        e.compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8, new RowExpr.Arithmetic(ArithmeticOp.ADD, col(1), k(3L))), row);
        assertNull(row[8]);
    }

    @Test
    void anIntegerBeyondBigintFailsWith1690() {
        byte[][] row = cells("10", null, "apple", "APPLE", "Apple", "APPLE", "0.5", "-01:00:00", "x");
        List<Column> cols = new java.util.ArrayList<>(COLS);
        cols.add(Columns.bigint("COUNT(*) * 9223372036854775807"));
        ExprEvaluator e = new ExprEvaluator(cols, WARNINGS::add);
        io.shardwise.core.error.ShardwiseException thrown = org.junit.jupiter.api.Assertions.assertThrows(
                io.shardwise.core.error.ShardwiseException.class, () -> e.compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8,
                        new RowExpr.Arithmetic(ArithmeticOp.MULTIPLY, col(0), k(Long.MAX_VALUE))), row));
        assertEquals(1690, thrown.errno());
    }

    @Test
    void coalesceTakesTheFirstValueAndIfTheBranchItsConditionChooses() {
        assertEquals(new BigDecimal("10"), eval(new RowExpr.Coalesce(List.of(col(1), col(0), k(3L)))));
        assertNull(eval(new RowExpr.Coalesce(List.of(col(1), k(null)))));
        RowExpr unknown = cmp(CompareOp.EQ, col(1), k(1L));
        assertEquals(new BigDecimal("2"), eval(new RowExpr.If(unknown, k(1L), k(2L))), "an unknown condition takes the else branch");
        assertEquals(new BigDecimal("1"), eval(new RowExpr.If(col(0), k(1L), k(2L))));
        // a string result is the chosen operand's own text
        byte[][] row = cells("10", null, "apple", "APPLE", "Apple", "APPLE", "0.5", "-01:00:00", "x");
        List<Column> cols = new java.util.ArrayList<>(COLS);
        cols.add(Columns.varchar("s"));
        new ExprEvaluator(cols, WARNINGS::add).compute(new io.shardwise.core.route.MergeSpec.ComputedColumn(8,
                new RowExpr.Coalesce(List.of(col(1), col(4)))), row);
        assertEquals("Apple", new String(row[8], StandardCharsets.UTF_8));
    }

    private static RowExpr div(RowExpr l, RowExpr r) {
        return new RowExpr.Arithmetic(ArithmeticOp.DIVIDE, l, r);
    }

    @Test
    void arithmeticWithADoubleIsDouble() {
        assertEquals(10.5, eval(new RowExpr.Arithmetic(ArithmeticOp.ADD, col(0), col(6))));
        assertEquals(new BigDecimal("30"), eval(new RowExpr.Arithmetic(ArithmeticOp.MULTIPLY, col(0), k(3L))));
    }

    @Test
    void stringsCompareByWeightWhenBothSidesHaveOneElseByBytes() {
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, new RowExpr.ColumnRef(2, 3), new RowExpr.ColumnRef(4, 5))));
        assertEquals(BigDecimal.ZERO, eval(cmp(CompareOp.EQ, col(2), col(4))));
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, col(2), k("apple"))));
    }

    @Test
    void stringAgainstNumberComparesAsDoubles() {
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, col(2), k(0L))), "'apple' is 0 in numeric context");
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.EQ, k("10.0"), col(0))));
    }

    @Test
    void timeColumnsCompareToLiteralsInTimeOrder() {
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.LT, col(7), k("-00:30:00"))));
        assertEquals(BigDecimal.ONE, eval(cmp(CompareOp.GT, col(7), k("-10:00:00"))));
    }

    @Test
    void aNumberIsTrueWhenNotZero() {
        assertTrue(EVAL.accepts(col(0), Row.of(ROW)));
        assertFalse(EVAL.accepts(col(1), Row.of(ROW)));
        assertFalse(EVAL.accepts(k(0L), Row.of(ROW)));
    }
}
