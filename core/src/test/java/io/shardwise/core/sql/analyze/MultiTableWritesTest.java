package io.shardwise.core.sql.analyze;

import static io.shardwise.core.sql.analyze.AnalyzeFixture.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Multi-table UPDATE and DELETE read as the SELECT over their FROM ({@link MultiTableWrites}). */
class MultiTableWritesTest {
    private static MultiTable multi(String sql) {
        Statement s = sql(sql).statement();
        return switch (s) {
            case Update u -> u.multi();
            case Delete d -> d.multi();
            default -> throw new AssertionError(s);
        };
    }

    private static String targets(MultiTable m) {
        return m.targets().stream().map(TableRef::toString).reduce((a, b) -> a + ", " + b).orElse("") + (m.targetsKnown() ? "" : " ?");
    }

    @Test
    void anUpdateJoinIsReadWithItsTablesSlotsKeyJoinsAndTarget() {
        sql("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.amount = i.price WHERE o.user_id = 7")
                .is(Update.class)
                .template("update {orders} o join {order_items} i on o.user_id = i.user_id set o.amount = i.price where o.user_id = ?0")
                .key("o", "= ?0");
        MultiTable m = multi("UPDATE orders o JOIN order_items i ON o.user_id = i.user_id SET o.amount = i.price WHERE o.user_id = 7");
        assertEquals("orders o", targets(m));
        assertEquals(1, m.keyJoins().size());
        assertEquals(2, m.top().size());
    }

    @Test
    void theCommaFormAndUnqualifiedColumns() {
        sql("UPDATE orders, order_items SET orders.status = 'x', quantity = 2 WHERE orders.user_id = order_items.user_id")
                .is(Update.class)
                .template("update {orders}, {order_items} set {orders}.status = ?0, quantity = ?1 where {orders}.user_id = {order_items}.user_id");
        assertEquals("orders, order_items ?", targets(multi("UPDATE orders, order_items SET orders.status = 'x', quantity = 2")));
    }

    @Test
    void deleteFormsNameTheirTargetsWhichAreRenamedWithTheirReferences() {
        sql("DELETE orders, i FROM orders JOIN order_items i USING (user_id) WHERE i.quantity > 3")
                .is(Delete.class)
                .template("delete {orders}, i from {orders} join {order_items} i using (user_id) where i.quantity > ?0");
        assertEquals("orders, order_items i", targets(multi("DELETE orders, i FROM orders JOIN order_items i USING (user_id)")));
        sql("DELETE FROM o.* USING orders o LEFT JOIN users u ON u.user_id = o.user_id WHERE u.user_id IS NULL")
                .is(Delete.class)
                .template("delete from o.* using {orders} o left join {users} u on u.user_id = o.user_id where u.user_id is null");
        assertEquals("orders o", targets(multi("DELETE FROM o.* USING orders o LEFT JOIN users u ON u.user_id = o.user_id")));
    }

    @Test
    void oneTableFormsKeepTheirOwnPath() {
        assertNull(assertInstanceOf(Delete.class, sql("DELETE o FROM orders o WHERE o.user_id = 1").statement()).multi());
        assertNull(assertInstanceOf(Update.class, sql("UPDATE orders SET amount = 1 WHERE user_id = 1").statement()).multi());
    }

    @Test
    void subqueriesInSetAndWhereAreNested() {
        Update u = assertInstanceOf(Update.class, sql("UPDATE users u JOIN orders o USING (user_id) SET u.name = (SELECT MAX(sku)"
                + " FROM order_items) WHERE o.amount IN (SELECT price FROM order_items)").statement());
        assertTrue(u.nested());
        assertEquals(4, u.tables().size());
        assertEquals("users u", u.tables().get(0).toString(), "the one target first");
    }
}
