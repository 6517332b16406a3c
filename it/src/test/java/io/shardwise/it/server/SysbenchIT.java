package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sysbench 1.0, a real benchmark client, through the Shardwise server on the sharded sample: cleanup,
 * prepare and run of oltp_point_select, oltp_read_only and oltp_read_write, with client-side prepared
 * statements ({@code --db-ps-mode=disable}), must end without a fatal error, and prepare must
 * leave exactly its rows on the shards. `--auto-inc=off` because the sample configuration gives the
 * sbtest tables no key generator, so rows need their ids (an INSERT without the sharding column is
 * refused). Needs the sysbench binary (`.ci/install-test-deps` installs it); fails naming it if absent.
 */
class SysbenchIT {
    private static final int ROWS = 500;
    private static MysqlServer backend;
    private static SampleTarget target;
    private static Engine engine;
    private static ShardwiseServer server;

    @BeforeAll
    static void start() {
        backend = TestBackends.shared();
        target = new SampleTarget(backend.host(), backend.port(), backend.user(), backend.password(), TestBackends.uniqueSchemaName("sysbench"));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        engine = Engine.start(rule);
        server = ShardwiseServer.start(engine, "127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (engine != null) {
            engine.close();
        }
        backend.dropSchema(target.databasePrefix() + "_0");
        backend.dropSchema(target.databasePrefix() + "_1");
    }

    private record Run(int exit, String output) {}

    private static Run sysbench(String script, String command, String psMode) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("sysbench", script, "--mysql-host=127.0.0.1",
                "--mysql-port=" + server.address().getPort(), "--mysql-user=app", "--mysql-password=app", "--mysql-db=shop",
                "--tables=1", "--table-size=" + ROWS, "--auto-inc=off", "--db-ps-mode=" + psMode, "--threads=2", "--time=3",
                command));
        Process p;
        try {
            p = new ProcessBuilder(args).redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("sysbench is not installed (apt-get install sysbench; .ci/install-test-deps does it): " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("sysbench " + script + " " + command + " did not finish in 90 s:\n" + out);
        }
        return new Run(p.exitValue(), out);
    }

    private static long count(Pattern pattern, String output) {
        Matcher m = pattern.matcher(output);
        assertTrue(m.find(), () -> "no " + pattern + " in:\n" + output);
        return Long.parseLong(m.group(1));
    }

    /**
     * Client-side prepares only for now: with {@code --db-ps-mode=auto} sysbench's C driver stops with
     * 2014 "Commands out of sync" on its range selects, because the server's prepare reply announces no
     * columns (they come with each execute) and the driver then leaves a multi-row result unread. Real
     * column metadata at prepare time fixes it (docs/server.md, "Not yet").
     */
    @ParameterizedTest
    @ValueSource(strings = {"disable"})
    void prepareRunAndCleanupGoThroughWithoutErrors(String psMode) throws Exception {
        Run cleanup = sysbench("oltp_read_write", "cleanup", psMode);
        assertEquals(0, cleanup.exit(), cleanup.output());
        Run prepare = sysbench("oltp_read_write", "prepare", psMode);
        assertEquals(0, prepare.exit(), prepare.output());
        long placed = 0;
        for (String db : List.of(target.databasePrefix() + "_0", target.databasePrefix() + "_1")) {
            try (Connection c = backend.connect(db); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sbtest1")) {
                assertTrue(rs.next());
                long n = rs.getLong(1);
                assertTrue(n > 0, "each shard holds some of the rows: " + db);
                placed += n;
            }
        }
        assertEquals(ROWS, placed, "prepare's rows are on the shards, each once");
        for (String script : List.of("oltp_point_select", "oltp_read_only", "oltp_read_write")) {
            Run run = sysbench(script, "run", psMode);
            assertEquals(0, run.exit(), run.output());
            assertTrue(count(Pattern.compile("queries:\\s+(\\d+)"), run.output()) > 0, run.output());
            // "ignored errors" are the deadlocks and lock waits sysbench retries by design, as on one MySQL;
            // any other error is fatal and ends sysbench with a non-zero exit
            assertTrue(!run.output().contains("FATAL"), run.output());
            long ignored = count(Pattern.compile("ignored errors:\\s+(\\d+)"), run.output()); // the report ran to its end
            System.out.println("[SysbenchIT] " + script + ": " + ignored + " retried deadlocks/lock waits");
        }
        Run last = sysbench("oltp_read_write", "cleanup", psMode);
        assertEquals(0, last.exit(), last.output());
    }
}
