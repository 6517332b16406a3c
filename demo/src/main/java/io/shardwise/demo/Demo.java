package io.shardwise.demo;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.ConfigSummary;
import io.shardwise.server.DemoMode;
import io.shardwise.server.Main;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.server.tls.ServerTls;
import io.shardwise.testkit.ControllableServer;
import io.shardwise.testkit.TestBackends;
import java.io.PrintWriter;
import java.net.BindException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code --demo}: an embedded MariaDB holding the sample schema twice, sharded over two backend
 * databases exactly as the sample configuration lays it out, and whole in one database (what an
 * unsharded MySQL would hold, for comparison), and the Shardwise server serving the logical schema
 * on port 3307 (or {@code --port}; an ephemeral port when 3307 is taken). Stops the server, the
 * engine and the backends, in that order, on SIGTERM or Ctrl-C.
 *
 * <p>Lives in its own module so that the server's distribution carries none of the test kit,
 * Testcontainers or the embedded MariaDB binaries; {@code shardwise --demo} finds it through
 * {@link java.util.ServiceLoader} when this module is on the class path (what {@code ./shardwise --demo} runs).
 */
public final class Demo implements DemoMode {
    static final String DATABASE_PREFIX = "shop";
    static final String UNSHARDED = "shop_unsharded";

    static final int DEFAULT_PORT = 3307;

    /** {@inheritDoc} A null {@code port} means 3307, or any free port if 3307 is taken. */
    @Override
    public int run(PrintWriter out, PrintWriter err, Integer port, boolean wait) {
        out.println("Starting the demo backends (embedded MariaDB; the first start unpacks it, a few seconds)...");
        out.flush();
        ControllableServer server;
        try {
            server = TestBackends.dedicated();
        } catch (RuntimeException e) {
            err.println("Could not start the demo backends: " + e.getMessage());
            err.flush();
            return Main.FAILED;
        }
        List<AutoCloseable> running = new ArrayList<>(List.of(server)); // closed in reverse order
        Thread stopper = new Thread(() -> closeAll(running), "shardwise-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            SampleTarget target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), DATABASE_PREFIX);
            ShardingRule rule = SampleData.rule(target);
            SampleData.LoadReport report = SampleData.loadSharded(rule);
            SampleData.loadUnsharded(target, UNSHARDED);
            Engine engine = Engine.start(rule);
            running.add(engine);
            ShardwiseServer shardwise = listen(engine, rule, port);
            running.add(shardwise);
            printBanner(out, server, rule, report, shardwise.address().getPort(), shardwise.tls());
            if (wait) {
                new CountDownLatch(1).await(); // until SIGTERM / Ctrl-C runs the shutdown hook
            }
            return Main.OK;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Main.OK;
        } catch (RuntimeException e) {
            err.println("The demo failed while loading the sample data: " + e.getMessage());
            err.flush();
            return Main.FAILED;
        } finally {
            if (!wait) {
                Runtime.getRuntime().removeShutdownHook(stopper);
                closeAll(running);
            }
        }
    }

    private static ShardwiseServer listen(Engine engine, ShardingRule rule, Integer port) {
        String bind = rule.config().server().bind();
        if (port != null) {
            return ShardwiseServer.start(engine, bind, port);
        }
        try {
            return ShardwiseServer.start(engine, bind, DEFAULT_PORT);
        } catch (RuntimeException taken) {
            if (!(taken.getCause() instanceof BindException)) {
                throw taken;
            }
            return ShardwiseServer.start(engine, bind, 0);
        }
    }

    private static void closeAll(List<AutoCloseable> running) {
        for (int i = running.size() - 1; i >= 0; i--) {
            try {
                running.get(i).close();
            } catch (Exception e) {
                System.err.println("while stopping the demo: " + e);
            }
        }
        running.clear();
    }

    private static void printBanner(PrintWriter out, ControllableServer server, ShardingRule rule, SampleData.LoadReport report,
                                    int shardwisePort, ServerTls tls) {
        long rows = report.rowsPerLogicalTable().values().stream().mapToLong(Long::longValue).sum();
        String mysql = "mysql -h" + server.host() + " -P" + server.port() + " -u" + server.user()
                + (server.password().isEmpty() ? "" : " -p");
        out.println();
        out.println("Shardwise demo backends are ready: " + server.describe());
        out.println("  Sample configuration: " + ConfigSummary.of(rule) + "; " + rows + " rows loaded.");
        out.println("  Sharded layout:  databases " + DATABASE_PREFIX + "_0 (ds0) and " + DATABASE_PREFIX + "_1 (ds1), "
                + report.rowsPerPhysicalTable().size() + " physical tables");
        out.println("  Unsharded copy:  database " + UNSHARDED + " (what one MySQL would hold)");
        out.println("  Look at a shard: " + mysql + " " + DATABASE_PREFIX + "_1 -e 'SELECT COUNT(*) FROM orders_0'");
        out.println("  Compare:         " + mysql + " " + UNSHARDED + " -e 'SELECT COUNT(*) FROM orders'");
        out.println();
        out.println("Shardwise serves the logical schema '" + rule.schema() + "' on 127.0.0.1:" + shardwisePort + ". Connect with:");
        out.println("  mysql -h127.0.0.1 -P" + shardwisePort + " -uapp -papp " + rule.schema());
        out.println("  " + tls.describe());
        out.println("Press Ctrl-C to stop (the server stops, and the backends and their data are removed).");
        out.flush();
    }
}
