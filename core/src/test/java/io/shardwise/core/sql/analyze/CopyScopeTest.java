package io.shardwise.core.sql.analyze;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** What the federated tier may leave out of a copy: which conjuncts each table takes, which it must not, which columns stay. */
class CopyScopeTest {
    private static final ShardingRule RULE = SampleData.rule(new SampleTarget("127.0.0.1", 3306, "root", "", "shop"));
    private static final Analyzer ANALYZER = new Analyzer(RULE);

    private static CopyScope scope(String sql) {
        return CopyScope.of((Select) ANALYZER.analyze(sql), RULE);
    }

    /** Per table, its conjuncts' texts (with the unqualified names each must resolve, and what it says of the key). */
    private static Map<String, List<String>> pushed(String sql) {
        Map<String, List<String>> out = new TreeMap<>();
        scope(sql).tables().forEach((table, t) -> {
            if (t.conjuncts().isEmpty()) {
                return; // join keys only: see keys()
            }
            List<String> texts = new ArrayList<>();
            for (CopyScope.Conjunct c : t.conjuncts()) {
                texts.add(c.text() + (c.unqualified().isEmpty() ? "" : " " + new java.util.TreeSet<>(c.unqualified()))
                        + (c.key() instanceof KeyCondition.Any ? "" : " key " + c.key()));
            }
            out.put(table + " as " + t.exposed(), texts);
        });
        return out;
    }

    /** Per table, its join keys as {@code column <- source.column}, an unqualified name marked with {@code ?}. */
    private static Map<String, List<String>> keys(String sql) {
        Map<String, List<String>> out = new TreeMap<>();
        scope(sql).tables().forEach((table, t) -> {
            List<String> texts = new ArrayList<>();
            for (CopyScope.Key k : t.keys()) {
                texts.add(k.column() + (k.qualified() ? "" : "?") + " <- " + k.source() + "." + k.sourceColumn() + (k.sourceQualified() ? "" : "?"));
            }
            if (!texts.isEmpty()) {
                out.put(table, texts);
            }
        });
        return out;
    }

    @Test
    void joinKeysComeFromEqualitiesInnerJoinsInAndExistsButNeverFromAPreservedSideNotOrOr() {
        assertEquals(Map.of("orders", List.of("order_id <- order_items.order_id"), "order_items", List.of("order_id <- orders.order_id")),
                keys("SELECT o.order_id FROM orders o JOIN order_items i ON i.order_id = o.order_id WHERE o.amount > 3"));
        // unqualified: every pairing is a candidate; the live columns decide (CopyScans)
        assertEquals(List.of("item_id? <- orders.order_id?", "order_id? <- orders.item_id?"),
                keys("SELECT 1 FROM orders, order_items WHERE item_id = order_id").get("order_items"));
        assertEquals(Map.of("users", List.of("user_id <- orders.user_id")),
                keys("SELECT u.name FROM users u WHERE u.user_id IN (SELECT o.user_id FROM orders o WHERE o.amount > 3)"));
        assertEquals(Map.of("users", List.of("user_id <- orders.user_id"), "orders", List.of("user_id <- users.user_id")),
                keys("SELECT u.name FROM users u WHERE EXISTS (SELECT 1 FROM orders o WHERE o.amount > 3 AND o.user_id = u.user_id)"));
        assertEquals(Map.of("orders", List.of("user_id <- users.user_id")),
                keys("SELECT u.name FROM users u LEFT JOIN orders o ON o.user_id = u.user_id WHERE u.name = 'a'"));
        // a correlated subquery's table: its rows failing the correlation are used nowhere, even under NOT EXISTS;
        // the outer table then takes none from it
        assertEquals(Map.of("orders", List.of("user_id <- users.user_id")),
                keys("SELECT u.name FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.user_id = u.user_id)"));
        assertEquals(List.of("user_id <- users.user_id"),
                keys("SELECT u.name, (SELECT SUM(o.amount) FROM orders o WHERE o.user_id = u.user_id) FROM users u").get("orders"));
        for (String none : List.of(
                "SELECT u.name FROM users u WHERE u.user_id NOT IN (SELECT o.user_id FROM orders o WHERE o.amount > 3)",
                "SELECT u.name FROM users u WHERE u.name = 'a' OR u.user_id IN (SELECT o.user_id FROM orders o)",
                "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.user_id OR o.amount > 3",
                "SELECT u.name FROM users u JOIN orders o ON o.user_id = u.user_id + 1")) {
            assertEquals(null, keys(none).get("users"), none);
        }
    }

    @Test
    void whereAndInnerJoinConjunctsOnOneTableArePushedToItWithTheirKeyCondition() {
        assertEquals(Map.of(
                "orders as o", List.of("o.amount > 5", "o.user_id = 7 key = 7", "(o.status = 'paid' OR o.status = 'new')"),
                "users as u", List.of("u.name LIKE 'a%'")),
                pushed("SELECT o.order_id, u.name FROM orders o JOIN users u ON u.email = o.status AND o.amount > 5"
                        + " WHERE o.user_id = 7 AND (o.status = 'paid' OR o.status = 'new') AND u.name LIKE 'a%' AND o.order_id <> u.user_id"));
    }

    @Test
    void unqualifiedNamesArePushedOnlyToBeCheckedAgainstTheLiveColumnsAndNotBesideADerivedTable() {
        assertEquals(Map.of("orders as orders", List.of("amount > 10 [amount]", "user_id IN (1, 2) [user_id] key in [1, 2]")),
                pushed("SELECT status, COUNT(*) FROM orders JOIN users USING (user_id) WHERE amount > 10 AND user_id IN (1, 2)"
                        + " GROUP BY status").entrySet().stream().filter(e -> e.getKey().startsWith("orders"))
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertEquals(Map.of("orders as o", List.of("o.amount > 10")),
                pushed("SELECT o.order_id FROM orders o JOIN (SELECT DISTINCT status FROM order_items) t ON t.status = o.status"
                        + " WHERE amount > 10 AND o.amount > 10"));
    }

    @Test
    void theNullSupplyingSideOfAnOuterJoinTakesOnlyItsOwnOnsConjunctsThePreservedSideItsWhereConjuncts() {
        assertEquals(Map.of("users as u", List.of("u.user_id < 20 key (-inf, 20)"), "orders as o", List.of("o.amount > 5")),
                pushed("SELECT u.user_id, o.order_id FROM users u LEFT JOIN orders o ON o.status = u.name AND o.amount > 5"
                        + " WHERE o.amount IS NULL AND u.user_id < 20"));
        assertEquals(Map.of("users as u", List.of("u.user_id < 20 key (-inf, 20)")),
                pushed("SELECT u.user_id, o.order_id FROM orders o RIGHT JOIN users u ON o.status = u.name WHERE o.order_id IS NULL"
                        + " AND u.user_id < 20"));
    }

    @Test
    void aTableReadTwiceTakesNothingNeitherInASelfJoinNorBesideASubqueryOnIt() {
        assertEquals(Map.of(), pushed("SELECT a.order_id FROM orders a JOIN orders b ON a.status = b.status AND a.order_id < b.order_id"
                + " WHERE a.amount > 100 AND b.user_id = 3"));
        assertEquals(Map.of("users as u", List.of("u.user_id > 3 key (3, +inf)")), pushed("SELECT u.user_id FROM users u JOIN orders o ON o.status = u.name"
                + " WHERE u.user_id > 3 AND o.amount > (SELECT AVG(amount) FROM orders) AND o.user_id = 3"));
    }

    @Test
    void anOrOfTermsOnSeveralTablesGivesEachTableTheOrOfItsOwnParts() {
        // TPC-H Q19's shape: each disjunct's single-table parts, OR-ed per table
        assertEquals(Map.of(
                "orders as o", List.of("((o.amount > 5) AND (o.status = 'a')) OR ((o.amount < 2))"),
                "users as u", List.of("((u.name = 'x')) OR ((u.name IN ('y', 'z')) AND (u.created_at IS NULL))")),
                pushed("SELECT o.order_id FROM orders o JOIN users u ON u.email = o.status WHERE"
                        + " (u.email = o.status AND o.amount > 5 AND u.name = 'x' AND o.status = 'a')"
                        + " OR (o.amount < 2 AND u.name IN ('y', 'z') AND u.created_at IS NULL)"));
        // an OR inside a disjunct is factored in turn; a disjunct with nothing on a table leaves that table whole
        assertEquals(Map.of("orders as o", List.of("((o.amount > 5) AND (((o.status = 'a')) OR ((o.status = 'b')))) OR ((o.amount < 2))")),
                pushed("SELECT o.order_id FROM orders o JOIN users u ON u.email = o.status WHERE"
                        + " (o.amount > 5 AND (o.status = 'a' AND u.name = 'x' OR o.status = 'b')) OR (o.amount < 2 AND u.name = 'y')"));
        assertEquals(Map.of("users as u", List.of("((u.name = 'x')) OR ((u.name = 'y'))")),
                pushed("SELECT o.order_id FROM orders o JOIN users u ON u.email = o.status WHERE"
                        + " (o.amount > 5 AND u.name = 'x') OR u.name = 'y'"), "a disjunct without an orders part leaves orders whole");
        assertEquals(Map.of(), pushed("SELECT o.order_id FROM orders o JOIN users u ON u.email = o.status WHERE"
                + " NOT ((o.amount > 5 AND u.name = 'x') OR (o.amount < 2 AND u.name = 'y'))"), "under NOT nothing is implied");
        assertEquals(Map.of(), pushed("SELECT o.order_id FROM orders o JOIN users u ON u.email = o.status WHERE"
                + " (o.amount > 5 AND u.name = 'x') || (o.amount < 2 AND u.name = 'y')"), "|| concatenates under PIPES_AS_CONCAT");
        assertEquals(Map.of("users as u", List.of("u.user_id < 20 key (-inf, 20)", "((u.name = 'x')) OR ((u.name = 'y'))")),
                pushed("SELECT u.user_id FROM users u LEFT JOIN orders o ON o.status = u.name WHERE u.user_id < 20"
                        + " AND ((o.amount > 5 AND u.name = 'x') OR (o.amount < 2 AND u.name = 'y'))"),
                "the NULL-filled side takes nothing from the WHERE");
    }

    @Test
    void aTableReadTwiceWithTheSameNameTakesTheOrOfEachReferencesConjunctsAndTheKeysBothHave() {
        // TPC-H Q22's shape: the outer reference and the subquery's each narrow the one copy
        assertEquals(Map.of("orders as orders", List.of("((amount > 10)) OR ((status = 'paid') AND (amount > 0)) [amount, status]")),
                pushed("SELECT order_id FROM orders WHERE amount > 10 AND amount > (SELECT AVG(amount) FROM orders"
                        + " WHERE status = 'paid' AND amount > 0)").entrySet().stream().filter(e -> e.getKey().startsWith("orders"))
                        .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        // TPC-H Q17's shape: neither reference has a conjunct of its own, both the key from the other table
        assertEquals(List.of("order_id <- users.user_id"),
                keys("SELECT SUM(o.amount) FROM orders o JOIN users u ON o.order_id = u.user_id WHERE u.name = 'a'"
                        + " AND o.amount < (SELECT AVG(o.amount) FROM orders o WHERE o.order_id = u.user_id)").get("orders"));
        assertEquals(Map.of(), pushed("SELECT order_id FROM orders WHERE amount > 10 AND amount > (SELECT AVG(amount) FROM orders)"),
                "a reference using every row");
        assertEquals(Map.of(), pushed("SELECT o.order_id FROM orders o WHERE o.amount > 10 AND o.amount > (SELECT AVG(p.amount) FROM orders p"
                + " WHERE p.amount > 0)"), "different names: one scan cannot read both references' qualifiers");
        assertEquals(null, keys("SELECT SUM(o.amount) FROM orders o JOIN users u ON o.order_id = u.user_id WHERE u.name = 'a'"
                + " AND o.amount < (SELECT AVG(o.amount) FROM orders o WHERE o.status = u.name)").get("orders"), "no key common to both");
    }

    @Test
    void aTableReadOnceInsideADerivedTableACteOrASubqueryTakesThatBlocksConjuncts() {
        assertEquals(Map.of("orders as o", List.of("o.amount > 10"), "order_items as order_items", List.of("quantity > 2 [quantity]")),
                pushed("SELECT t.status, COUNT(*) FROM (SELECT o.status FROM orders o JOIN users u ON u.name = o.status"
                        + " WHERE o.amount > 10) t WHERE t.status IN (SELECT sku FROM order_items WHERE quantity > 2) GROUP BY t.status"));
        assertEquals(Map.of("orders as orders", List.of("amount > 900 [amount]")),
                pushed("WITH big AS (SELECT order_id FROM orders WHERE amount > 900) SELECT COUNT(*) FROM big"));
        assertEquals(Map.of(), pushed("SELECT COUNT(*) FROM users u WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.order_id = u.user_id)"),
                "a correlated conjunct reads another table");
    }

    @Test
    void nonDeterministicConjunctsAndSubqueriesAreNeverPushed() {
        assertEquals(Map.of("orders as o", List.of("o.status = UPPER('x')", "o.created_at >= DATE('2025-01-01') - INTERVAL 3 DAY")),
                pushed("SELECT o.order_id FROM orders o JOIN users u ON u.name = o.status WHERE o.amount > RAND()"
                        + " AND o.created_at < NOW() AND o.created_at < CURRENT_TIMESTAMP AND o.user_id > @v AND o.amount < @@max_connections"
                        + " AND o.user_id IN (SELECT user_id FROM order_items) AND EXISTS (SELECT 1 FROM countries WHERE o.status = name)"
                        + " AND o.amount > my_function(o.user_id) AND o.status = UPPER('x') AND o.created_at >= DATE('2025-01-01') - INTERVAL 3 DAY"));
    }

    @Test
    void columnsNamedAnywhereStayAndStarsNaturalAndUsingKeepWholeTables() {
        CopyScope named = scope("SELECT u.name FROM users u WHERE u.user_id IN (SELECT o.user_id FROM orders o WHERE o.amount > 3)"
                + " AND EXISTS (SELECT * FROM order_items i WHERE i.sku = u.email)");
        assertFalse(named.whole("users"));
        assertFalse(named.whole("order_items"), "a * under EXISTS reads no column");
        assertTrue(named.names().containsAll(List.of("name", "user_id", "amount", "sku", "email")));
        assertFalse(named.names().contains("status"));
        CopyScope star = scope("SELECT o.*, u.name FROM orders o JOIN users u ON u.name = o.status");
        assertTrue(star.whole("orders"));
        assertFalse(star.whole("users"));
        assertTrue(scope("SELECT * FROM orders o JOIN users u ON u.name = o.status").whole("users"));
        assertTrue(scope("SELECT o.order_id FROM orders o JOIN users u USING (user_id)").whole("orders"));
        assertTrue(scope("SELECT order_id FROM orders NATURAL JOIN users").whole("users"));
        assertFalse(scope("SELECT * FROM (SELECT o.order_id FROM orders o JOIN users u ON u.name = o.status) t").whole("orders"),
                "a * over a derived table reads what the derived table names");
        assertTrue(scope("SELECT o.order_id FROM orders o USE INDEX (idx_user) JOIN users u ON u.name = o.status").whole("orders"),
                "an index hint names an index a narrowed copy may lack");
    }

    @Test
    void aRivalOfAnotherSchemaKeepsItsSchemaSoNoTableOfTheLogicalSchemaStandsForIt() {
        CopyScope scope = scope("SELECT o.order_id FROM orders o JOIN otherdb.users u ON u.name = o.status WHERE amount > 5");
        assertEquals(List.of("otherdb.users"), scope.tables().get("orders").rivals());
    }
}
