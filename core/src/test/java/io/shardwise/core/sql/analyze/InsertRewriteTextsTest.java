package io.shardwise.core.sql.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The texts behind INSERT ... SELECT ... ON DUPLICATE KEY UPDATE and computed sharding keys ({@link InsertSelectUpdate}, {@link ComputedKeys}). */
class InsertRewriteTextsTest {
    private static List<String> pieces(String clause) {
        return InsertSelectUpdate.pieces(clause).stream()
                .map(p -> p.isParam() ? "?" : (p.qualifier() == null ? "" : p.qualifier() + ".") + p.column()).toList();
    }

    @Test
    void theClausesNamesOnTheRightOutsideValuesAndFunctionsAndItsParameters() {
        assertEquals(List.of("o.status", "?", "name", "users.name"), pieces("ON DUPLICATE KEY UPDATE name = CONCAT(o.status, ?, name),"
                + " email = VALUES(email), users.name = IF(users.name IS NULL, 'x', NULL)"));
        assertEquals(List.of("?", "k"), pieces("on duplicate key update k = VALUES(k) + ?, c = `k` + INTERVAL 1 DAY"));
        assertEquals(List.of(), pieces("ON DUPLICATE KEY UPDATE n = s.t.c, m = CURRENT_TIMESTAMP"), "three-part names and keywords: as written");
    }

    @Test
    void theSelectGetsItemsBeforeItsTopLevelFrom() {
        assertEquals("SELECT a, (SELECT 1 FROM t), o.status FROM orders o WHERE x = 1",
                InsertSelectUpdate.withItems("SELECT a, (SELECT 1 FROM t) FROM orders o WHERE x = 1", List.of("o.status")));
        assertNull(InsertSelectUpdate.withItems("(SELECT a FROM t)", List.of("b")));
    }

    @Test
    void keyExpressionsEvaluableApartFromTheirRow() {
        for (String ok : List.of("1 + 1", "CONCAT('a', ?)", "LAST_INSERT_ID() + 1", "FLOOR(RAND() * 10)", "CAST('7' AS UNSIGNED)",
                "CASE WHEN 1 THEN 2 ELSE 3 END", "UUID_SHORT()", "NULL")) {
            assertNull(ComputedKeys.refusal(ok), ok);
        }
        for (String refused : List.of("a + 1", "`a`", "@x", "@@server_id", "CONNECTION_ID()", "NOW()", "CURRENT_TIMESTAMP", "DEFAULT",
                "VALUES(a)", "(SELECT 1)", "LAST_INSERT_ID(5)", "DATABASE()")) {
            assertTrue(ComputedKeys.refusal(refused) != null, refused);
        }
        assertEquals("41 + 1", ComputedKeys.withLastInsertId("LAST_INSERT_ID() + 1", 41));
        assertEquals(List.of(1, 8), ComputedKeys.values("(1 + 1, f(a, b))").stream().map(s -> s[0]).toList());
    }
}
