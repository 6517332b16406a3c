package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.sql.normalize.LexicalMode;
import org.junit.jupiter.api.Test;

class ExplainStatementTest {
    private static ExplainStatement parse(String sql) {
        return ExplainStatement.parse(sql, LexicalMode.DEFAULT);
    }

    @Test
    void readsTheOptionsTheFormatAndTheStatement() {
        assertEquals(new ExplainStatement("", ExplainStatement.Format.TRADITIONAL, "SELECT * FROM orders"),
                parse("EXPLAIN SELECT * FROM orders"));
        assertEquals(new ExplainStatement("FORMAT=JSON ", ExplainStatement.Format.JSON, "select 1"), parse("explain FORMAT=JSON select 1;"));
        assertEquals(new ExplainStatement("format = traditional ", ExplainStatement.Format.TRADITIONAL, "UPDATE t SET a = 1"),
                parse("DESC format = traditional UPDATE t SET a = 1 -- why"));
        assertEquals(new ExplainStatement("EXTENDED ", ExplainStatement.Format.TRADITIONAL, "WITH x AS (SELECT 1) SELECT * FROM x"),
                parse("DESCRIBE EXTENDED WITH x AS (SELECT 1) SELECT * FROM x"));
        assertEquals(ExplainStatement.Format.OTHER, parse("EXPLAIN FORMAT=TREE SELECT 1").format());
        assertEquals("(SELECT 1) UNION (SELECT 2)", parse("EXPLAIN (SELECT 1) UNION (SELECT 2)").statement());
        assertEquals("REPLACE INTO t VALUES (1)", parse("EXPLAIN PARTITIONS REPLACE INTO t VALUES (1)").statement());
    }

    @Test
    void explainOfATableIsNoStatement() {
        assertNull(parse("EXPLAIN orders"));
        assertNull(parse("DESC orders status"));
        assertNull(parse("EXPLAIN"));
    }

    @Test
    void whatRunsTheStatementOrReadsAnotherConnectionIsRefusedWith1235() {
        for (String sql : new String[] {"EXPLAIN ANALYZE SELECT 1", "ANALYZE SELECT 1", "ANALYZE FORMAT=JSON DELETE FROM t",
                "EXPLAIN FOR CONNECTION 12", "EXPLAIN ANALYZE FORMAT=TREE SELECT 1"}) {
            ShardwiseException e = assertThrows(ShardwiseException.class, () -> parse(sql), sql);
            assertEquals(1235, e.errno(), sql);
            assertTrue(e.getMessage().contains(sql.startsWith("ANALYZE") ? "'ANALYZE of a statement"
                    : sql.contains("FOR CONNECTION") ? "EXPLAIN FOR CONNECTION" : "EXPLAIN ANALYZE"), e.getMessage());
        }
    }
}
