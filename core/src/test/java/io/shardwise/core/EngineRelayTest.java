package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.sql.normalize.Normalizer;
import org.junit.jupiter.api.Test;

/**
 * Which prepared statements' executions the relay may bind on the backend: only those whose
 * markers all lie in the WHERE clause, since elsewhere a bound value's type shows in the result.
 */
class EngineRelayTest {
    private static boolean relayable(String sql) {
        return EngineRelay.markersOnlyInWhere(Normalizer.normalize(sql));
    }

    @Test
    void markersInTheWhereClauseOnlyMayBeBoundOnTheBackend() {
        assertEquals(true, relayable("SELECT c FROM sbtest1 WHERE id = ?"));
        assertEquals(true, relayable("select * from orders where user_id = ? and status = '?' and (amount > ? or amount is null)"));
        assertEquals(true, relayable("SELECT a FROM t WHERE id IN (SELECT id FROM u WHERE k = ? ORDER BY k LIMIT 1) AND b = ?"));
        assertEquals(true, relayable("SELECT a FROM t WHERE id = 7 ORDER BY a LIMIT 3"));
        assertEquals(false, relayable("SELECT order_id, ? AS tag FROM orders WHERE user_id = ?"));
        assertEquals(false, relayable("SELECT amount * ? FROM orders WHERE user_id = ?"));
        assertEquals(false, relayable("SELECT a FROM t WHERE id = ? ORDER BY a LIMIT ?"));
        assertEquals(false, relayable("SELECT a FROM t WHERE id = ? GROUP BY a HAVING COUNT(*) > ?"));
        assertEquals(false, relayable("SELECT a FROM t WHERE id = ? UNION SELECT ? FROM u"));
        assertEquals(false, relayable("SELECT (SELECT ? FROM u) FROM t WHERE id = ?"));
        assertEquals(false, relayable("SELECT a FROM t JOIN u ON u.k = ? WHERE t.id = ?"));
    }
}
