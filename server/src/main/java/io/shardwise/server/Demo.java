package io.shardwise.server;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.ControllableServer;
import io.shardwise.testkit.TestBackends;
import java.io.PrintWriter;
import java.util.concurrent.CountDownLatch;

/**
 * {@code --demo}: an embedded MariaDB holding the sample schema twice, sharded over two backend
 * databases exactly as the sample configuration lays it out, and whole in one database (what an
 * unsharded MySQL would hold, for comparison). Stops its backends on SIGTERM or Ctrl-C.
 */
final class Demo {
    static final String DATABASE_PREFIX = "shop";
    static final String UNSHARDED = "shop_unsharded";

    private final PrintWriter out;
    private final PrintWriter err;

    Demo(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    /** Starts everything; then waits for the JVM's shutdown if {@code wait}, else stops at once. */
    int run(boolean wait) {
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
        Thread stopper = new Thread(server::close, "shardwise-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(stopper);
        try {
            SampleTarget target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), DATABASE_PREFIX);
            ShardingRule rule = SampleData.rule(target);
            SampleData.LoadReport report = SampleData.loadSharded(rule);
            SampleData.loadUnsharded(target, UNSHARDED);
            printBanner(server, rule, report);
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
                server.close();
            }
        }
    }

    private void printBanner(ControllableServer server, ShardingRule rule, SampleData.LoadReport report) {
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
        out.println("The MySQL-protocol server that serves the logical schema '" + rule.schema()
                + "' on one port is not part of this build yet; these are its backends.");
        out.println("Press Ctrl-C to stop (the backends and their data are removed).");
        out.flush();
    }
}
