package io.shardwise.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

class SuggestionsTest {
    @Test
    void suggestsTheClosestCandidateForTyposAndCase() {
        assertEquals("algorithm", Suggestions.closest("algoritm", List.of("nodes", "key", "algorithm")));
        assertEquals("bindTo", Suggestions.closest("bindto", List.of("bindTo", "backend")));
        assertEquals("defaultBackend", Suggestions.closest("default_backend", List.of("defaultBackend", "backends")));
        assertEquals("max", Suggestions.closest("max_size", List.of("max", "maxLifetime", "minIdle")), "a key with a suffix added");
    }

    @Test
    void suggestsNothingWhenNoCandidateIsPlausible() {
        assertNull(Suggestions.closest("zzzzzz", List.of("nodes", "key")));
        assertEquals("", Suggestions.didYouMean("zzzzzz", List.of("nodes")));
    }

    @Test
    void distanceIsLevenshtein() {
        assertEquals(3, Suggestions.distance("kitten", "sitting"));
        assertEquals(0, Suggestions.distance("", ""));
        assertEquals(4, Suggestions.distance("", "abcd"));
    }
}
