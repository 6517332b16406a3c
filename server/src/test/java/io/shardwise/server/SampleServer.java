package io.shardwise.server;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;

/**
 * What the server's end-to-end tests stand on: the sample data sharded (databases prefix_0 and
 * prefix_1) and whole (prefix_whole, the oracle) on the shared test server, an engine over the
 * sharded layout, and a Shardwise server on an ephemeral port. {@link #close} stops both and drops
 * the databases.
 */
final class SampleServer implements AutoCloseable {
    final MysqlServer backend;
    final SampleTarget target;
    final String whole;
    final Engine engine;
    final ShardwiseServer server;

    private SampleServer(MysqlServer backend, SampleTarget target, String whole, Engine engine, ShardwiseServer server) {
        this.backend = backend;
        this.target = target;
        this.whole = whole;
        this.engine = engine;
        this.server = server;
    }

    static SampleServer start(String prefix) {
        MysqlServer backend = TestBackends.shared();
        SampleTarget target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(),
                TestBackends.uniqueSchemaName(prefix));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        String whole = target.databasePrefix() + "_whole";
        SampleData.loadUnsharded(target, whole);
        Engine engine = Engine.start(rule);
        return new SampleServer(backend, target, whole, engine, ShardwiseServer.start(engine, "127.0.0.1", 0));
    }

    @Override
    public void close() {
        server.close();
        engine.close();
        backend.dropSchema(target.databasePrefix() + "_0");
        backend.dropSchema(target.databasePrefix() + "_1");
        backend.dropSchema(whole);
    }
}
