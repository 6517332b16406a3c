package io.shardwise.it.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * sysbench 1.0, a real benchmark client, through the Shardwise server on the sharded sample: every
 * script it ships runs cleanup, prepare and run (a few events each) with client-side prepared
 * statements ({@code --db-ps-mode=disable}) and with server-side ones ({@code auto}, sysbench's
 * default: every statement, BEGIN and COMMIT included, goes through COM_STMT_PREPARE/EXECUTE), and
 * must end with zero ignored errors and zero reconnects; prepare must leave exactly its rows on the
 * shards. One thread, so the result is deterministic (two threads may deadlock, which sysbench
 * retries as "ignored errors" on one MySQL as well). `--auto-inc=off` because the sample
 * configuration gives the sbtest tables no key generator, so rows need their ids (an INSERT
 * without the sharding column is refused). Needs the sysbench binary (`bin/test`
 * installs it); fails naming it if absent.
 */
class SysbenchIT {
    private static final int ROWS = 100;
    private static final List<String> SCRIPTS = List.of("oltp_point_select", "oltp_read_only", "oltp_read_write", "oltp_write_only",
            "oltp_update_index", "oltp_update_non_index", "oltp_delete", "oltp_insert", "select_random_points", "select_random_ranges");
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

    private static Run sysbench(String script, String command, String psMode, String... options) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("sysbench", script, "--mysql-host=127.0.0.1",
                "--mysql-port=" + server.address().getPort(), "--mysql-user=app", "--mysql-password=app", "--mysql-db=shop",
                "--tables=1", "--table-size=" + ROWS, "--auto-inc=off", "--db-ps-mode=" + psMode, "--threads=1", "--time=0",
                "--events=20"));
        args.addAll(List.of(options));
        args.add(command);
        Process p;
        try {
            p = new ProcessBuilder(args).redirectErrorStream(true).start();
        } catch (IOException e) {
            fail("sysbench is not installed (apt-get install sysbench; bin/test does it): " + e.getMessage());
            throw e;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("sysbench " + script + " " + command + " did not finish in 60 s:\n" + out);
        }
        Run run = new Run(p.exitValue(), out);
        assertEquals(0, run.exit(), () -> script + " " + command + " --db-ps-mode=" + psMode + ":\n" + run.output());
        assertFalse(out.contains("FATAL"), () -> script + " " + command + " --db-ps-mode=" + psMode + ":\n" + run.output());
        return run;
    }

    private static long count(Pattern pattern, String output) {
        Matcher m = pattern.matcher(output);
        assertTrue(m.find(), () -> "no " + pattern + " in:\n" + output);
        return Long.parseLong(m.group(1));
    }

    private long rowsOnShards() throws Exception {
        long placed = 0;
        for (String db : List.of(target.databasePrefix() + "_0", target.databasePrefix() + "_1")) {
            try (Connection c = backend.connect(db); ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM sbtest1")) {
                assertTrue(rs.next());
                long n = rs.getLong(1);
                assertTrue(n > 0, "each shard holds some of the rows: " + db);
                placed += n;
            }
        }
        return placed;
    }

    @ParameterizedTest
    @ValueSource(strings = {"disable", "auto"})
    void everyScriptPreparesRunsAndCleansUpWithoutErrors(String psMode) throws Exception {
        for (String script : SCRIPTS) {
            sysbench(script, "cleanup", psMode);
            if (sysbench(script, "prepare", psMode).output().contains("Inserting")) { // oltp_insert starts from an empty table
                assertEquals(ROWS, rowsOnShards(), script + ": prepare's rows are on the shards, each once");
            }
            Run run = sysbench(script, "run", psMode);
            String what = script + " run --db-ps-mode=" + psMode + ":\n" + run.output();
            assertTrue(count(Pattern.compile("queries:\\s+(\\d+)"), run.output()) > 0, what);
            assertEquals(0, count(Pattern.compile("ignored errors:\\s+(\\d+)"), run.output()), what);
            assertEquals(0, count(Pattern.compile("reconnects:\\s+(\\d+)"), run.output()), what);
            sysbench(script, "cleanup", psMode);
        }
        assertEquals(0, engine.activeConnections(), "every backend connection is back in its pool");
    }

    /**
     * oltp_read_only without its BEGIN and COMMIT ({@code --skip-trx=on}): its SUM, ORDER BY and DISTINCT ranges over
     * both shards are autocommit merges, which the server's event loop answers once their shapes are cached (20 events
     * of three each; the first of each shape is planned on the session's thread).
     */
    @Test
    void readOnlyOutsideTransactionsHasItsMergesAnsweredOnTheEventLoop() throws Exception {
        sysbench("oltp_read_only", "cleanup", "disable");
        sysbench("oltp_read_only", "prepare", "disable");
        long merged = server.loopMergedStatements();
        Run run = sysbench("oltp_read_only", "run", "disable", "--skip-trx=on");
        String what = "oltp_read_only run --skip-trx=on:\n" + run.output();
        assertEquals(0, count(Pattern.compile("ignored errors:\\s+(\\d+)"), run.output()), what);
        assertEquals(0, count(Pattern.compile("reconnects:\\s+(\\d+)"), run.output()), what);
        assertTrue(server.loopMergedStatements() - merged >= 30, () -> "merged on the loop: " + (server.loopMergedStatements() - merged));
        sysbench("oltp_read_only", "cleanup", "disable");
    }
}
