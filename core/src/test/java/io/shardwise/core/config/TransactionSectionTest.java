package io.shardwise.core.config;

import static io.shardwise.core.config.ConfigLoaderTest.BASE;
import static io.shardwise.core.config.ConfigLoaderTest.assertOneProblem;
import static io.shardwise.core.config.ConfigLoaderTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The transaction section: local by default, xa as a word or with its log, instance id and recovery interval. */
class TransactionSectionTest {
    private static TransactionConfig transaction(String section) {
        ConfigLoader.Result r = parse(BASE + (section == null ? "" : "transaction: " + section + "\n"));
        assertEquals(List.of(), r.problems());
        return r.config().transaction();
    }

    @Test
    void localIsTheDefault() {
        assertEquals(TransactionConfig.Mode.LOCAL, transaction(null).mode());
        assertEquals(TransactionConfig.Mode.LOCAL, transaction("local").mode());
    }

    @Test
    void xaAsAWordTakesTheDefaultLogAndDerivesTheInstanceIdFromItsPath() {
        TransactionConfig t = transaction("xa");
        assertEquals(TransactionConfig.Mode.XA, t.mode());
        assertEquals(Path.of("shardwise-xa.log"), t.log());
        assertNull(t.instanceId());
        assertTrue(t.instance().matches("p[0-9a-f]{1,8}"), t.instance());
        assertEquals(Duration.ofSeconds(30), t.recoveryInterval());
    }

    @Test
    void aMappingSetsLogInstanceIdAndRecoveryInterval() {
        TransactionConfig t = transaction("{ mode: XA, log: /var/lib/shardwise/xa.log, instanceId: east_1, recoveryInterval: 5s }");
        assertEquals(TransactionConfig.Mode.XA, t.mode());
        assertEquals(Path.of("/var/lib/shardwise/xa.log"), t.log());
        assertEquals("east_1", t.instance());
        assertEquals(Duration.ofSeconds(5), t.recoveryInterval());
    }

    @Test
    void twoLogsGiveTwoDerivedInstanceIds() {
        assertNotEquals(TransactionConfig.xa(Path.of("/a/xa.log"), null).instance(), TransactionConfig.xa(Path.of("/b/xa.log"), null).instance());
        assertEquals(TransactionConfig.xa(Path.of("/a/xa.log"), null).instance(), TransactionConfig.xa(Path.of("/a/./xa.log"), null).instance());
    }

    @Test
    void mistakesNameThePathAndWhatWouldBeValid() {
        assertOneProblem(BASE + "transaction: two-phase\n", "transaction (line 8)", "'two-phase' is not a transaction mode; expected local");
        assertOneProblem(BASE + "transaction: { mode: xa, instanceId: a.b }\n", "transaction.instanceId (line 8)",
                "'a.b' is not an instance id; expected 1 to 24 letters, digits or underscores");
        assertOneProblem(BASE + "transaction: { mode: xa, recoveryInterval: soon }\n", "transaction.recoveryInterval", "'soon' is not a duration");
        assertOneProblem(BASE + "transaction: { mode: xa, logfile: x }\n", "unknown key 'logfile'");
    }
}
