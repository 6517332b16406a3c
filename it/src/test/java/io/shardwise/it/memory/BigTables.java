package io.shardwise.it.memory;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What the memory ITs over one table {@code big} share: two schemas on the shared backend (ds0's and ds1's), the rule
 * placing {@code big} on {@code ds${0..1}.big_${0..1}} by {@code id} with {@code type: mod} (node n, in that order,
 * holds the ids ≡ n mod 4), an engine over it, and the guard that a run proves something only in the {@code memory}
 * failsafe execution's small heap. {@link #close} closes the engine and drops the schemas.
 */
final class BigTables implements AutoCloseable {
    /** Above -Xmx96m plus slack for how the JVM rounds it; a default 1 GiB test JVM is well over. */
    static final long MAX_HEAP_FOR_THIS_TEST = 128L * 1024 * 1024;

    private static final String YAML = """
            schema: %s
            backends:
              ds0: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}", pool: { max: 8, minIdle: 0 } }
              ds1: { url: "%s", user: "%s", password: "${env:BACKEND_PASSWORD}", pool: { max: 8, minIdle: 0 } }
            defaultBackend: ds0
            tables:
              big: { nodes: "ds${0..1}.big_${0..1}", key: id, algorithm: { type: mod } }
            """;

    final List<String> schemas = new ArrayList<>();
    MysqlServer backend;
    Engine engine;

    /** Creates ds0's and ds1's schemas on the shared backend, named from {@code prefix} + 0 and 1. */
    void createSchemas(String prefix) {
        backend = TestBackends.shared();
        for (int ds = 0; ds < 2; ds++) {
            String schema = TestBackends.uniqueSchemaName(prefix + ds);
            backend.createSchema(schema);
            schemas.add(schema);
        }
    }

    /** The schema of node {@code node} of {@code ds${0..1}.big_${0..1}}: the mod algorithm's node order. */
    String schemaOf(int node) {
        return schemas.get(node / 2);
    }

    static String tableOf(int node) {
        return "big_" + (node % 2);
    }

    /** Starts the engine: logical schema {@code schema}, the rule's YAML followed by {@code moreYaml} (a server section, or ""). */
    Engine start(String schema, String moreYaml, String source) {
        String yaml = YAML.formatted(schema, backend.jdbcUrl(schemas.get(0)), backend.user(), backend.jdbcUrl(schemas.get(1)),
                backend.user()) + moreYaml;
        engine = Engine.start(ShardingRule.load(yaml, source, Map.of("BACKEND_PASSWORD", backend.password())::get));
        return engine;
    }

    /** Fails fast in a JVM allowed a larger heap than the {@code memory} execution's: there the run would prove nothing. */
    static void assertSmallHeap() {
        long max = Runtime.getRuntime().maxMemory();
        assertTrue(max <= MAX_HEAP_FOR_THIS_TEST, "this JVM may use " + mb(max)
                + " MB of heap, so the run would prove nothing: run the failsafe execution 'memory' (-Xmx96m), see the class Javadoc");
    }

    static long mb(long bytes) {
        return bytes / (1024 * 1024);
    }

    @Override
    public void close() {
        if (engine != null) {
            engine.close();
        }
        for (String schema : schemas) {
            backend.dropSchema(schema);
        }
    }
}
