package io.shardwise.core.config;

import static io.shardwise.core.config.ConfigLoaderTest.BASE;
import static io.shardwise.core.config.ConfigLoaderTest.assertOneProblem;
import static io.shardwise.core.config.ConfigLoaderTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The federation section: the third tier's memory budget, 256M unless set. */
class FederationSectionTest {
    private static FederationConfig federation(String section) {
        ConfigLoader.Result r = parse(BASE + (section == null ? "" : "federation: " + section + "\n"));
        assertEquals(List.of(), r.problems());
        return r.config().federation();
    }

    @Test
    void theBudgetIs256MUnlessSetAndTakesMySqlSizeUnits() {
        assertEquals(256L << 20, federation(null).memoryBudget());
        assertEquals(64L << 20, federation("{ memoryBudget: 64M }").memoryBudget());
        assertEquals(2L << 30, federation("{ memoryBudget: 2G }").memoryBudget());
        assertEquals(4096, federation("{ memoryBudget: 4096 }").memoryBudget());
    }

    @Test
    void theJoinKeyBoundIs10000UnlessSetAndZeroTurnsTheReductionOff() {
        assertEquals(10_000, federation(null).joinKeys());
        assertEquals(0, federation("{ joinKeys: 0 }").joinKeys());
        assertEquals(50_000, federation("{ memoryBudget: 64M, joinKeys: 50000 }").joinKeys());
        assertEquals(64L << 20, federation("{ memoryBudget: 64M, joinKeys: 50000 }").memoryBudget());
        assertOneProblem(BASE + "federation: { joinKeys: -1 }\n", "federation.joinKeys", "expected an integer from 0 to 1000000");
    }

    @Test
    void mistakesNameThePathTheValueAndWhatWouldBeValid() {
        assertOneProblem(BASE + "federation: { memoryBudget: lots }\n", "federation.memoryBudget", "'lots' is not a size");
        assertOneProblem(BASE + "federation: { memoryBudget: 100 }\n", "federation.memoryBudget", "expected bytes from 1024 to 64G");
        assertOneProblem(BASE + "federation: { budget: 1M }\n", "unknown key 'budget'");
        assertOneProblem(BASE + "federation: 1M\n", "federation", "expected a mapping with memoryBudget");
    }
}
