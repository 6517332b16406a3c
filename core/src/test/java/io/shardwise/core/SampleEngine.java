package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The engine tests' fixture, as {@code @RegisterExtension static final SampleEngine SAMPLE =
 * SampleEngine.sharded("prefix")}: the sample data sharded over two databases of the shared test
 * server (prefix_0, prefix_1), optionally whole in a third ({@link #withWhole}: what one MySQL would
 * answer), and an engine over them — started before the class's tests (and its own {@code @BeforeAll}
 * methods), checked after each test (every backend connection back in its pool), dropped after the last.
 */
final class SampleEngine implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private final String prefix;
    private final boolean withWhole;
    private MysqlServer server;
    private SampleTarget target;
    private String whole;
    private Engine engine;

    private SampleEngine(String prefix, boolean withWhole) {
        this.prefix = prefix;
        this.withWhole = withWhole;
    }

    /** The sharded databases and an engine. */
    static SampleEngine sharded(String prefix) {
        return new SampleEngine(prefix, false);
    }

    /** As {@link #sharded}, plus the unsharded copy {@link #whole()}. */
    static SampleEngine withWhole(String prefix) {
        return new SampleEngine(prefix, true);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = TestBackends.shared();
        target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), TestBackends.uniqueSchemaName(prefix));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        if (withWhole) {
            whole = target.databasePrefix() + "_whole";
            SampleData.loadUnsharded(target, whole);
        }
        engine = Engine.start(rule);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
    }

    @Override
    public void afterAll(ExtensionContext context) {
        engine.close();
        server.dropSchema(target.databasePrefix() + "_0");
        server.dropSchema(target.databasePrefix() + "_1");
        if (whole != null) {
            server.dropSchema(whole);
        }
    }

    MysqlServer server() {
        return server;
    }

    SampleTarget target() {
        return target;
    }

    /** The unsharded copy's database name (only {@link #withWhole}). */
    String whole() {
        return whole;
    }

    Engine engine() {
        return engine;
    }
}
