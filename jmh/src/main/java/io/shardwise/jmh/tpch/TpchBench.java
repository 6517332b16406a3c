package io.shardwise.jmh.tpch;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.jmh.report.Environment;
import io.shardwise.jmh.report.Report;
import io.shardwise.jmh.report.Table;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import io.shardwise.testkit.tpch.Tpch;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TPC-H timed (issue 13's {@code -Pbench} part): the 22 queries at a larger scale (default 0.1, ten
 * times the check's), each on one unsharded database through Connector/J and through the Shardwise
 * JDBC driver over the sharded layout of {@code io/shardwise/testkit/tpch/tpch.yaml}, and the ratio.
 * Not JMH: one TPC-H query is a long single operation, so each is run once to check and warm up and
 * then {@code --runs} times on each side, and the median counts. Both sides read every cell with
 * {@code getBytes}; a query whose rows differ is reported DIFFERENT (the exact check is
 * {@code TpchIT}), one Shardwise refuses is reported with its error.
 *
 * <p>Bounded: every execution runs under {@code setQueryTimeout(--timeout)} (default
 * {@value #DEFAULT_TIMEOUT} s); a side that exceeds it is reported TIMEOUT and not run again, so the
 * whole run takes at most 22 × (2 + 2 × runs) timeouts. Rows shipped: the backend server's
 * {@code Rows_sent} status counter around each side's checking execution (every row any backend sent
 * to its client; for Shardwise the rows its federated plan copied between backends plus the answer),
 * where the server keeps that counter (MariaDB) and the run has the server to itself (the embedded
 * one: otherwise other clients' rows count too).
 *
 * <p>Run: {@code ./mvnw -pl jmh -am verify -Pbench -DskipTests} runs it after the JMH suites (skip it with
 * {@code -Dbench.tpch.skip}); alone, after that build:
 * {@code java -Xmx2g -cp jmh/target/benchmarks.jar io.shardwise.jmh.tpch.TpchBench --scale 0.1 --runs 3 --timeout 120
 * --report jmh/target/tpch-bench.md --doc docs/benchmarks/tpch.md}; {@code --doc} replaces the generated
 * {@code tpch} section of that document (with the machine, load, date and this command) and leaves the rest.
 * Loading scale 0.1 (~1.7 million rows, both copies) takes about a minute here.
 */
public final class TpchBench {
    private static final Pattern ARG = Pattern.compile("--(scale|runs|report|timeout|doc)");
    static final int DEFAULT_TIMEOUT = 120;

    private TpchBench() {}

    /**
     * One query's figures; times in milliseconds, -1 where the side did not answer (see {@code status}).
     *
     * @param answer rows in one database's answer
     * @param sent rows the backends sent while Shardwise answered once (-1: not known)
     */
    record Result(int query, double direct, double shardwise, long answer, long sent, String status) {
        String ratio() {
            return direct > 0 && shardwise >= 0 ? String.format(Locale.ROOT, "%.2f", shardwise / direct) : "—";
        }
    }

    /** An execution that exceeded the timeout; the side is not run again. */
    static final class TimedOut extends Exception {
        TimedOut(int seconds) {
            super("TIMEOUT (over " + seconds + " s)", null, false, false);
        }
    }

    public static void main(String[] args) throws Exception {
        double scale = 0.1;
        int runs = 3;
        int timeout = DEFAULT_TIMEOUT;
        Path report = null;
        Path doc = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            Matcher m = ARG.matcher(args[i]);
            if (!m.matches()) {
                throw new IllegalArgumentException("unknown argument " + args[i] + "; known: --scale, --runs, --timeout, --report, --doc");
            }
            switch (m.group(1)) {
                case "scale" -> scale = Double.parseDouble(args[i + 1]);
                case "runs" -> runs = Integer.parseInt(args[i + 1]);
                case "timeout" -> timeout = Integer.parseInt(args[i + 1]);
                case "doc" -> doc = Path.of(args[i + 1]);
                default -> report = Path.of(args[i + 1]);
            }
        }
        double loadBefore = Environment.load();
        MysqlServer server = TestBackends.shared();
        String prefix = TestBackends.uniqueSchemaName("tpchbench");
        String whole = prefix + "_whole";
        String yaml = Tpch.configYaml(server.host(), server.port(), server.user(), server.password(), prefix);
        ShardingRule rule = ShardingRule.load(yaml, "classpath:io/shardwise/testkit/tpch/tpch.yaml", name -> null);
        try {
            long start = System.nanoTime();
            long rows = Tpch.loadAll(placements(rule, server.jdbcUrl(whole) + "&createDatabaseIfNotExist=true",
                    server.user(), server.password()), scale);
            System.out.printf(Locale.ROOT, "tpch-bench: scale %s, %d rows loaded (sharded and unsharded) in %d s%n", scale, rows,
                    (System.nanoTime() - start) / 1_000_000_000);
            Path config = Files.createTempDirectory("shardwise-tpch-bench").resolve("tpch.yaml");
            Files.writeString(config, yaml);
            List<Result> results = new ArrayList<>();
            try (Connection direct = Tpch.connect(server.jdbcUrl(whole), server.user(), server.password());
                 Connection shardwise = DriverManager.getConnection("jdbc:shardwise:" + config);
                 Connection status = server.connect(null)) {
                RowsSent sent = new RowsSent(status, server.kind() != io.shardwise.testkit.BackendKind.EXTERNAL);
                for (int q = 1; q <= Tpch.QUERIES; q++) {
                    Result r = measure(q, direct, shardwise, runs, timeout, sent);
                    results.add(r);
                    System.out.printf(Locale.ROOT, "tpch-bench %s: one database %s, shardwise %s, ratio %s, rows sent %s%s%n",
                            Tpch.queryName(q), ms(r.direct()), ms(r.shardwise()), r.ratio(), r.sent() < 0 ? "—" : r.sent(),
                            r.status().isEmpty() ? "" : " (" + r.status() + ")");
                }
            }
            String command = "java -Xmx2g -cp jmh/target/benchmarks.jar io.shardwise.jmh.tpch.TpchBench --scale " + scale
                    + " --runs " + runs + " --timeout " + timeout + " --report jmh/target/tpch-bench.md --doc docs/benchmarks/tpch.md";
            Map<String, String> versions = new LinkedHashMap<>();
            versions.put("backend", server.kind() + " " + server.version());
            versions.put("Connector/J", com.mysql.cj.Constants.CJ_VERSION);
            String section = Report.section(command, Environment.capture(versions, loadBefore),
                    List.of(table(scale, runs, timeout, results)));
            if (report != null) {
                Files.createDirectories(report.toAbsolutePath().getParent());
                Files.writeString(report, section);
                System.out.println("tpch-bench: wrote " + report);
            }
            if (doc != null) {
                Report.write(doc, "tpch", section);
                System.out.println("tpch-bench: wrote the tpch section of " + doc);
            }
        } finally {
            for (String db : List.of(prefix + "_0", prefix + "_1", whole)) {
                server.dropSchema(db);
            }
        }
        System.exit(0); // the shared embedded server's threads must not keep the JVM alive
    }

    private static String ms(double ms) {
        return ms < 0 ? "—" : String.format(Locale.ROOT, "%.1f ms", ms);
    }

    /**
     * The server's {@code Rows_sent} counter, read before and after one execution; the rows the read
     * itself sends are measured once and taken off. Unknown (-1) where the server has no such counter
     * (MySQL keeps it only per statement) or other clients share it.
     */
    static final class RowsSent {
        private final Connection status;
        private final boolean known;
        private final long overhead;

        RowsSent(Connection status, boolean exclusive) throws SQLException {
            this.status = status;
            long first = exclusive ? read(status) : -1;
            this.known = first >= 0;
            this.overhead = known ? read(status) - first : 0;
        }

        long now() throws SQLException {
            return known ? read(status) : -1;
        }

        long since(long before) throws SQLException {
            return known && before >= 0 ? Math.max(0, read(status) - before - overhead) : -1;
        }

        private static long read(Connection c) throws SQLException {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Rows_sent'")) {
                return rs.next() ? rs.getLong(2) : -1;
            }
        }
    }

    private static Result measure(int q, Connection direct, Connection shardwise, int runs, int timeout, RowsSent sent)
            throws SQLException {
        String sql = Tpch.query(q);
        List<List<String>> expected;
        try {
            expected = rows(direct, sql, timeout);
        } catch (TimedOut e) {
            return new Result(q, -1, -1, -1, -1, "one database: " + e.getMessage() + "; Shardwise not run");
        }
        List<List<String>> actual;
        long before = sent.now();
        try {
            actual = rows(shardwise, sql, timeout);
        } catch (TimedOut e) {
            return new Result(q, median(direct, sql, runs, timeout), -1, expected.size(), -1, e.getMessage());
        } catch (SQLException e) {
            return new Result(q, median(direct, sql, runs, timeout), -1, expected.size(), -1,
                    "ERROR " + e.getErrorCode() + ": " + e.getMessage());
        }
        long shipped = sent.since(before);
        String status = expected.equals(actual) ? "" : "DIFFERENT: " + actual.size() + " rows vs " + expected.size();
        double d = median(direct, sql, runs, timeout);
        double s = median(shardwise, sql, runs, timeout);
        if (s < 0) {
            status = (status.isEmpty() ? "" : status + "; ") + "a timed run: TIMEOUT (over " + timeout + " s)";
        }
        return new Result(q, d, s, expected.size(), shipped, status);
    }

    /** The median of {@code runs} executions (0 runs: -1); -1 when one exceeds the timeout. */
    private static double median(Connection c, String sql, int runs, int timeout) throws SQLException {
        if (runs <= 0) {
            return -1;
        }
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            try {
                rows(c, sql, timeout);
            } catch (TimedOut e) {
                return -1;
            }
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[runs / 2];
    }

    /**
     * Every row as text, under a timeout: an execution that fails at or after it counts as timed out
     * (drivers report the cancel differently: Connector/J's SQLTimeoutException, a backend's 1317).
     */
    static List<List<String>> rows(Connection c, String sql, int timeout) throws SQLException, TimedOut {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(timeout);
            try (ResultSet rs = s.executeQuery(sql)) {
                int width = rs.getMetaData().getColumnCount();
                List<List<String>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<String> row = new ArrayList<>(width);
                    for (int i = 1; i <= width; i++) {
                        byte[] cell = rs.getBytes(i);
                        row.add(cell == null ? null : new String(cell, StandardCharsets.UTF_8));
                    }
                    rows.add(row);
                }
                return rows;
            }
        } catch (SQLException e) {
            if (e instanceof java.sql.SQLTimeoutException || System.nanoTime() - start >= timeout * 1_000_000_000L) {
                throw new TimedOut(timeout);
            }
            throw e;
        }
    }

    /** Where each table's rows go: every one whole into the unsharded database, and as {@code rule} places them. */
    static List<Tpch.Placement> placements(ShardingRule rule, String wholeUrl, String user, String password) {
        List<Tpch.Placement> placements = new ArrayList<>();
        for (String table : Tpch.TABLES) {
            placements.add(new Tpch.Placement(wholeUrl, user, password, table, table, key -> true));
            switch (rule.table(table)) {
                case TableRule.Sharded sharded -> {
                    for (DataNode node : sharded.nodes()) {
                        placements.add(placement(rule, node, table, key -> node.equals(sharded.nodeFor(key))));
                    }
                }
                case TableRule.Broadcast broadcast -> {
                    for (DataNode node : broadcast.nodes()) {
                        placements.add(placement(rule, node, table, key -> true));
                    }
                }
                case TableRule.Single single -> placements.add(placement(rule, single.node(), table, key -> true));
            }
        }
        return placements;
    }

    private static Tpch.Placement placement(ShardingRule rule, DataNode node, String table, LongPredicate keep) {
        BackendConfig backend = rule.config().backends().get(node.backend());
        return new Tpch.Placement(backend.url(), backend.user(), backend.password(), table, node.table(), keep);
    }

    static Table table(double scale, int runs, int timeout, List<Result> results) {
        List<List<String>> rows = new ArrayList<>();
        for (Result r : results) {
            rows.add(List.of(Tpch.queryName(r.query()), r.direct() < 0 ? "—" : String.format(Locale.ROOT, "%.1f", r.direct()),
                    r.shardwise() < 0 ? "—" : String.format(Locale.ROOT, "%.1f", r.shardwise()), r.ratio(),
                    r.answer() < 0 ? "—" : Long.toString(r.answer()), r.sent() < 0 ? "—" : Long.toString(r.sent()), r.status()));
        }
        return new Table("TPC-H at scale " + scale + ": Shardwise (JDBC driver, two backends) and one database",
                "Median of " + runs + " run" + (runs == 1 ? "" : "s") + " after one checking run, in milliseconds; ratio = Shardwise / one"
                        + " database. Timeout " + timeout + " s per execution. _answer rows_: rows of the answer; _rows sent_: rows all"
                        + " backends sent to their clients while Shardwise answered the query once (its federated plan's copies between"
                        + " backends plus the answer; — where not measured). A note names a query Shardwise refused, answered"
                        + " differently or that exceeded the timeout.",
                List.of("query", "one database (ms)", "Shardwise (ms)", "ratio", "answer rows", "rows sent", "note"), rows);
    }
}
