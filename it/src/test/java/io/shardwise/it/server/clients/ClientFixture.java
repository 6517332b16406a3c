package io.shardwise.it.server.clients;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What the client tests compare: the sample data sharded (prefix_0, prefix_1) behind a Shardwise
 * server, and the same data whole (prefix_whole) on the backend itself, which is what one MySQL would
 * answer. A client runs once against {@link #viaServer()} and once against {@link #direct()}.
 */
final class ClientFixture implements AutoCloseable {
    /** Where a client connects. */
    record Endpoint(String host, int port, String user, String password, String database) {}

    private final MysqlServer backend;
    private final SampleTarget target;
    private final String whole;
    private final Engine engine;
    private final ShardwiseServer server;
    /** A second server over the same engine with the packet relay off: every statement on the JDBC executor. */
    private ShardwiseServer executorServer;

    private ClientFixture(MysqlServer backend, SampleTarget target, String whole, Engine engine, ShardwiseServer server) {
        this.backend = backend;
        this.target = target;
        this.whole = whole;
        this.engine = engine;
        this.server = server;
    }

    static ClientFixture start(String prefix) {
        return start(prefix, java.util.function.UnaryOperator.identity());
    }

    /** @param configEdit applied to the sample configuration's YAML text (a test adds a user) */
    static ClientFixture start(String prefix, java.util.function.UnaryOperator<String> configEdit) {
        MysqlServer backend = TestBackends.shared();
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(),
                TestBackends.uniqueSchemaName(prefix));
        ShardingRule rule = SampleData.rule(target, configEdit);
        SampleData.loadSharded(rule);
        String whole = target.databasePrefix() + "_whole";
        SampleData.loadUnsharded(target, whole);
        Engine engine = Engine.start(rule);
        return new ClientFixture(backend, target, whole, engine, ShardwiseServer.start(engine, "127.0.0.1", 0));
    }

    Endpoint viaServer() {
        return new Endpoint("127.0.0.1", server.address().getPort(), "app", "app", "shop");
    }

    /** The same schema through a server whose packet relay is off (config {@code server.relay: false}). */
    Endpoint viaExecutor() {
        if (executorServer == null) {
            executorServer = ShardwiseServer.start(engine, engine.rule().config().server().withRelay(false), 0);
        }
        return new Endpoint("127.0.0.1", executorServer.address().getPort(), "app", "app", "shop");
    }

    /** The backend server both the sharded databases and the unsharded copy live on. */
    MysqlServer backend() {
        return backend;
    }

    /** The sharded databases' prefix ({@code prefix_0}, {@code prefix_1}). */
    String databasePrefix() {
        return target.databasePrefix();
    }

    /** Statements the relay-on server answered by relaying backend packets. */
    long relayedStatements() {
        return server.relayedStatements();
    }

    /** The relay-on server as another configured user. */
    Endpoint viaServer(String user, String password) {
        return new Endpoint("127.0.0.1", server.address().getPort(), user, password, "shop");
    }

    /** The relay-off server as another configured user. */
    Endpoint viaExecutor(String user, String password) {
        Endpoint e = viaExecutor();
        return new Endpoint(e.host(), e.port(), user, password, "shop");
    }

    Endpoint direct() {
        return new Endpoint(backend.host(), backend.port(), backend.user(), backend.password(), whole);
    }

    /** The default backend's own database (ds0), where stored programs created through Shardwise live. */
    Endpoint defaultBackend() {
        return new Endpoint(backend.host(), backend.port(), backend.user(), backend.password(), target.databasePrefix() + "_0");
    }

    /** A direct client's output with the unsharded database's name read as the logical one. */
    String logical(String directOutput) {
        return directOutput.replace(whole, "shop");
    }

    /** Backend connections still borrowed by the engine (0 once every client statement has ended). */
    int activeConnections() {
        return engine.activeConnections();
    }

    /** After a client's test: every backend connection goes back to its pool (the engine may still be closing cursors). */
    void awaitEveryBackendConnectionReturned() throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (activeConnections() != 0) {
            if (System.nanoTime() > deadline) {
                org.junit.jupiter.api.Assertions.fail("a backend connection was not returned to its pool");
            }
            Thread.sleep(20);
        }
    }

    @Override
    public void close() {
        server.close();
        if (executorServer != null) {
            executorServer.close();
        }
        engine.close();
        backend.dropSchema(target.databasePrefix() + "_0");
        backend.dropSchema(target.databasePrefix() + "_1");
        backend.dropSchema(whole);
    }

    /**
     * A test class's fixture as JUnit runs it: started before the class's tests and handed to the
     * class, every backend connection back in its pool after each test, closed after all of them.
     */
    static final class Lifecycle implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
        private final Supplier<ClientFixture> start;
        private final Consumer<ClientFixture> publish;
        private ClientFixture fixture;

        Lifecycle(Supplier<ClientFixture> start, Consumer<ClientFixture> publish) {
            this.start = start;
            this.publish = publish;
        }

        @Override
        public void beforeAll(ExtensionContext context) {
            fixture = start.get();
            publish.accept(fixture);
        }

        @Override
        public void afterEach(ExtensionContext context) throws InterruptedException {
            fixture.awaitEveryBackendConnectionReturned();
        }

        @Override
        public void afterAll(ExtensionContext context) {
            if (fixture != null) {
                fixture.close();
            }
        }
    }
}
