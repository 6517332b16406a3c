package io.shardwise.core.execute;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecisionLogTest {
    @TempDir
    Path dir;

    @Test
    void decisionsSurviveAReopen() throws IOException {
        Path file = dir.resolve("sub/xa.log");
        try (DecisionLog log = DecisionLog.open(file)) {
            log.commit("sw.a.1.1");
            log.commit("sw.a.1.2");
        }
        try (DecisionLog log = DecisionLog.open(file)) {
            assertEquals(Set.of("sw.a.1.1", "sw.a.1.2"), log.decisions());
            assertTrue(log.isCommitted("sw.a.1.2"));
            assertFalse(log.isCommitted("sw.a.1.3"));
        }
    }

    @Test
    void aLineTornByACrashWasNeverForcedAndIsDropped() throws IOException {
        Path file = dir.resolve("xa.log");
        Files.writeString(file, "C sw.a.1.1\nC sw.a.1", StandardCharsets.US_ASCII);
        try (DecisionLog log = DecisionLog.open(file)) {
            assertEquals(Set.of("sw.a.1.1"), log.decisions());
            log.commit("sw.a.1.2");
        }
        assertEquals(List.of("C sw.a.1.1", "C sw.a.1.2"), Files.readAllLines(file));
    }

    @Test
    void retainRewritesTheLogAndLaterDecisionsGoToTheNewFile() throws IOException {
        Path file = dir.resolve("xa.log");
        try (DecisionLog log = DecisionLog.open(file)) {
            log.commit("sw.a.1.1");
            log.commit("sw.a.1.2");
            log.retain("sw.a.1.2"::equals);
            log.commit("sw.a.1.3");
            assertEquals(Set.of("sw.a.1.2", "sw.a.1.3"), log.decisions());
            assertThrows(IOException.class, () -> DecisionLog.open(file).close(), "the new file is locked too");
        }
        assertEquals(List.of("C sw.a.1.2", "C sw.a.1.3"), Files.readAllLines(file));
        assertFalse(Files.exists(dir.resolve("xa.log.new")));
    }

    @Test
    void aSecondOpenOfALogInUseFails() throws IOException {
        Path file = dir.resolve("xa.log");
        try (DecisionLog log = DecisionLog.open(file)) {
            IOException e = assertThrows(IOException.class, () -> DecisionLog.open(file).close());
            assertTrue(e.getMessage().contains("in use by another Shardwise instance"), e.getMessage());
        }
        DecisionLog.open(file).close(); // free again once closed
    }
}
