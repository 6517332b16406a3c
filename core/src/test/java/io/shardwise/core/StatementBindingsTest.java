package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.route.Bindings;
import io.shardwise.core.sql.normalize.Normalizer;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementBindingsTest {
    /** The renderer asks inline() where it used to build text() to compare it with null: both must agree. */
    @Test
    void aValueIsInlineExactlyWhenItHasLiteralText() {
        StatementBindings b = new StatementBindings(
                Normalizer.normalize("SELECT * FROM t WHERE a = ? AND b = 'x' AND c IN (?, -5) LIMIT 3"), List.of(1L, "y"));
        assertEquals(5, b.size());
        for (int i = 0; i < b.size(); i++) {
            assertEquals(b.text(i) != null, b.inline(i), "ordinal " + i);
        }
        assertFalse(b.inline(0));
        assertTrue(b.inline(1));
        assertEquals("-5", b.text(3));
        assertTrue(b.hasParameters());
        Bindings literalsOnly = new StatementBindings(Normalizer.normalize("SELECT c FROM sbtest1 WHERE id=42"), List.of());
        assertTrue(literalsOnly.inline(0));
        assertFalse(literalsOnly.hasParameters());
    }
}
