package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.sql.normalize.LexicalMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A session's inlining of unit values ({@link InlinedUnits}): a unit text is lexed for its markers once per lexical
 * mode, every execution splices its own values, and a change of sql_mode that moves the markers is never served the
 * other mode's spans. Each case compares with {@link InlineParameters#inline}, which lexes every time.
 */
class InlinedUnitsTest {
    private static final LexicalMode NO_BACKSLASH_ESCAPES = LexicalMode.of("NO_BACKSLASH_ESCAPES");

    private static ExecutionUnit unit(String sql, Object... params) {
        return new ExecutionUnit("ds0", sql, Arrays.asList(params), Map.of("orders_0", "orders"));
    }

    @Test
    void aTextIsLexedOnceAndEachExecutionGetsItsOwnValues() {
        InlinedUnits inliner = new InlinedUnits();
        String sql = "select order_id from orders_0 where user_id between ? and ? and note <> '?' /* ? */";
        for (long user = 1; user <= 5; user++) {
            List<ExecutionUnit> units = List.of(unit(sql, user, user + 10), unit(sql, user, "o'k"));
            List<ExecutionUnit> inlined = inliner.of(units, LexicalMode.DEFAULT);
            assertEquals(List.of(InlineParameters.inline(units.get(0), LexicalMode.DEFAULT),
                    InlineParameters.inline(units.get(1), LexicalMode.DEFAULT)), inlined);
            assertEquals("select order_id from orders_0 where user_id between " + user + " and " + (user + 10)
                    + " and note <> '?' /* ? */", inlined.get(0).sql());
        }
        assertEquals(1, inliner.lexes());
    }

    @Test
    void aModeChangeBetweenExecutionsLexesTheTextAgain() {
        InlinedUnits inliner = new InlinedUnits();
        // without NO_BACKSLASH_ESCAPES \' escapes the quote, so the ? is inside the string; with it the string ends there
        String sql = "select order_id from orders_0 where note = 'x\\' and user_id = ? -- '";
        ExecutionUnit u = unit(sql, 5L);
        assertEquals("select order_id from orders_0 where note = 'x\\' and user_id = 5 -- '",
                inliner.of(List.of(u), NO_BACKSLASH_ESCAPES).get(0).sql());
        ShardwiseException e = assertThrows(ShardwiseException.class, () -> inliner.of(List.of(u), LexicalMode.DEFAULT));
        assertEquals(assertThrows(ShardwiseException.class, () -> InlineParameters.inline(u, LexicalMode.DEFAULT)).getMessage(),
                e.getMessage());
        assertEquals(InlineParameters.inline(unit(sql, 6L), NO_BACKSLASH_ESCAPES), inliner.of(List.of(unit(sql, 6L)), NO_BACKSLASH_ESCAPES).get(0));
        assertEquals(3, inliner.lexes());
    }

    @Test
    void ansiQuotesChangeWhereTheMarkersAre() {
        InlinedUnits inliner = new InlinedUnits();
        LexicalMode ansi = LexicalMode.of("ANSI_QUOTES");
        // without ANSI_QUOTES "x\" = ? or 1 -- " is one string and the last ? the marker; with it "x\" is a name, the first ? the marker
        String sql = "select order_id from orders_0 where \"x\\\" = ? or 1 -- \" = ?";
        ExecutionUnit u = unit(sql, 7L);
        for (int round = 0; round < 2; round++) {
            assertEquals(InlineParameters.inline(u, ansi), inliner.of(List.of(u), ansi).get(0));
            assertEquals(InlineParameters.inline(u, LexicalMode.DEFAULT), inliner.of(List.of(u), LexicalMode.DEFAULT).get(0));
        }
        assertEquals("select order_id from orders_0 where \"x\\\" = 7 or 1 -- \" = ?", inliner.of(List.of(u), ansi).get(0).sql());
        assertEquals("select order_id from orders_0 where \"x\\\" = ? or 1 -- \" = 7", inliner.of(List.of(u), LexicalMode.DEFAULT).get(0).sql());
    }

    @Test
    void unitsWithoutValuesAndManyTextsStayExact() {
        InlinedUnits inliner = new InlinedUnits();
        List<ExecutionUnit> none = List.of(unit("select 1"));
        assertEquals(none, inliner.of(none, LexicalMode.DEFAULT));
        for (int i = 0; i < InlinedUnits.MAX_TEXTS * 2 + 3; i++) {
            ExecutionUnit u = unit("select order_id from orders_0 where user_id = ? /* " + i + " */", (long) i);
            assertEquals(InlineParameters.inline(u, LexicalMode.DEFAULT), inliner.of(List.of(u), LexicalMode.DEFAULT).get(0));
        }
    }
}
