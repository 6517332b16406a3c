package io.shardwise.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class BackendSelectorTest {

    private static final BooleanSupplier DOCKER_MUST_NOT_BE_ASKED = () -> fail("Docker was probed");

    @Test
    void environmentVariableWinsWithoutProbingDocker() {
        BackendSelector.Choice choice = BackendSelector.forShared(
                env("mysql://root@10.0.0.5:3306,mysql://root@10.0.0.6:3306"), DOCKER_MUST_NOT_BE_ASKED);

        BackendSelector.UseExternal external = assertInstanceOf(BackendSelector.UseExternal.class, choice);
        assertEquals(List.of("10.0.0.5", "10.0.0.6"), external.servers().stream().map(ServerAddress::host).toList());
    }

    @Test
    void dockerIsUsedWhenTheVariableIsUnsetAndAnEngineAnswers() {
        assertInstanceOf(BackendSelector.UseTestcontainers.class, BackendSelector.forShared(env(null), () -> true));
    }

    @Test
    void mariaDb4jIsTheFallbackWithoutVariableOrDocker() {
        assertInstanceOf(BackendSelector.UseMariaDb4j.class, BackendSelector.forShared(env(null), () -> false));
    }

    @Test
    void blankVariableCountsAsUnset() {
        assertInstanceOf(BackendSelector.UseMariaDb4j.class, BackendSelector.forShared(env("  "), () -> false));
    }

    @Test
    void malformedVariableFailsRatherThanFallingBack() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BackendSelector.forShared(env("localhost:3306"), DOCKER_MUST_NOT_BE_ASKED));
        assertTrue(e.getMessage().contains("SHARDWISE_TEST_MYSQL"), e.getMessage());
    }

    @Test
    void dedicatedServersIgnoreTheExternalServers() {
        assertInstanceOf(BackendSelector.UseTestcontainers.class, BackendSelector.forDedicated(() -> true));
        assertInstanceOf(BackendSelector.UseMariaDb4j.class, BackendSelector.forDedicated(() -> false));
    }

    private static Function<String, String> env(String value) {
        Map<String, String> map = value == null ? Map.of() : Map.of(ServerAddress.ENV, value);
        return map::get;
    }
}
