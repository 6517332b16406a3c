package io.shardwise.core.config;

import static io.shardwise.core.config.ConfigLoaderTest.BASE;
import static io.shardwise.core.config.ConfigLoaderTest.assertOneProblem;
import static io.shardwise.core.config.ConfigLoaderTest.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.execute.ExecutorOptions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The timeouts section: no statement limit and a 10 s lock wait by default; both reach the executor. */
class TimeoutsSectionTest {
    private static TimeoutsConfig timeouts(String section) {
        ConfigLoader.Result r = parse(BASE + (section == null ? "" : "timeouts: " + section + "\n"));
        assertEquals(List.of(), r.problems());
        return r.config().timeouts();
    }

    @Test
    void noStatementLimitAndATenSecondLockWaitByDefault() {
        assertEquals(TimeoutsConfig.DEFAULT, timeouts(null));
        assertEquals(new TimeoutsConfig(Duration.ZERO, Duration.ofSeconds(10)), timeouts(null));
        assertEquals(ExecutorOptions.DEFAULT, ExecutorOptions.of(TimeoutsConfig.DEFAULT));
    }

    @Test
    void bothAreConfigurableAndReachTheExecutor() {
        TimeoutsConfig t = timeouts("{ statement: 1500ms, lockWait: 3s }");
        assertEquals(new TimeoutsConfig(Duration.ofMillis(1500), Duration.ofSeconds(3)), t);
        ExecutorOptions o = ExecutorOptions.of(t);
        assertEquals(Duration.ofMillis(1500), o.statementTimeout());
        assertEquals(Duration.ofSeconds(3), o.lockWaitTimeout());
    }

    @Test
    void badValuesAreReportedWithTheirPath() {
        assertOneProblem(BASE + "timeouts: { statement: slow }\n", "timeouts.statement", "'slow' is not a duration");
        assertOneProblem(BASE + "timeouts: { lockWait: 500ms }\n", "timeouts.lockWait", "'500ms' is too short; expected at least 1000ms");
        assertOneProblem(BASE + "timeouts: { lockwait: 5s }\n", "unknown key 'lockwait'. Did you mean 'lockWait'?");
    }
}
