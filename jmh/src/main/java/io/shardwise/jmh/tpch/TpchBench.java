package io.shardwise.jmh.tpch;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
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
import java.util.Locale;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TPC-H timed (issue 13's {@code -Pbench} part): the 22 queries at a larger scale (default 0.1, ten
 * times the check's), each on one unsharded database through Connector/J and through the Shardwise
 * JDBC driver over the sharded layout of {@code io/shardwise/testkit/tpch/tpch.yaml}, and the ratio.
 * Not JMH: one TPC-H query is a long single operation, so each is run once to warm up and then
 * {@code --runs} times on each side, and the median counts. Both sides read every cell with
 * {@code getBytes}; a query whose rows differ is reported DIFFERENT (the exact check is
 * {@code TpchIT}), one Shardwise refuses is reported with its error.
 *
 * <p>Run: {@code ./mvnw -pl jmh -am verify -Pbench -DskipTests} runs it after the JMH suites (skip it with
 * {@code -Dbench.tpch.skip}); alone, after that build:
 * {@code java -cp jmh/target/benchmarks.jar io.shardwise.jmh.tpch.TpchBench --scale 0.1 --runs 3 --report target/tpch.md}.
 * Loading scale 0.1 (~1.7 million rows, both copies) takes about a minute here.
 */
public final class TpchBench {
    private static final Pattern ARG = Pattern.compile("--(scale|runs|report)");

    private TpchBench() {}

    /** One query's figures; times in milliseconds, -1 where the side did not answer. */
    record Result(int query, double direct, double shardwise, String status) {
        String ratio() {
            return direct > 0 && shardwise >= 0 ? String.format(Locale.ROOT, "%.2f", shardwise / direct) : "—";
        }
    }

    public static void main(String[] args) throws Exception {
        double scale = 0.1;
        int runs = 3;
        Path report = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            Matcher m = ARG.matcher(args[i]);
            if (!m.matches()) {
                throw new IllegalArgumentException("unknown argument " + args[i] + "; known: --scale, --runs, --report");
            }
            switch (m.group(1)) {
                case "scale" -> scale = Double.parseDouble(args[i + 1]);
                case "runs" -> runs = Integer.parseInt(args[i + 1]);
                default -> report = Path.of(args[i + 1]);
            }
        }
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
                 Connection shardwise = DriverManager.getConnection("jdbc:shardwise:" + config)) {
                for (int q = 1; q <= Tpch.QUERIES; q++) {
                    Result r = measure(q, direct, shardwise, runs);
                    results.add(r);
                    System.out.printf(Locale.ROOT, "tpch-bench %s: one database %.1f ms, shardwise %s, ratio %s%s%n",
                            Tpch.queryName(q), r.direct(), r.shardwise() < 0 ? "—" : String.format(Locale.ROOT, "%.1f ms", r.shardwise()),
                            r.ratio(), r.status().isEmpty() ? "" : " (" + r.status() + ")");
                }
            }
            if (report != null) {
                Files.createDirectories(report.toAbsolutePath().getParent());
                Files.writeString(report, table(scale, runs, results));
                System.out.println("tpch-bench: wrote " + report);
            }
        } finally {
            for (String db : List.of(prefix + "_0", prefix + "_1", whole)) {
                server.dropSchema(db);
            }
        }
        System.exit(0); // the shared embedded server's threads must not keep the JVM alive
    }

    private static Result measure(int q, Connection direct, Connection shardwise, int runs) throws SQLException {
        String sql = Tpch.query(q);
        List<List<String>> expected = rows(direct, sql);
        List<List<String>> actual;
        try {
            actual = rows(shardwise, sql);
        } catch (SQLException e) {
            double d = median(direct, sql, runs);
            return new Result(q, d, -1, "ERROR " + e.getErrorCode() + ": " + e.getMessage());
        }
        String status = expected.equals(actual) ? "" : "DIFFERENT: " + actual.size() + " rows vs " + expected.size();
        return new Result(q, median(direct, sql, runs), median(shardwise, sql, runs), status);
    }

    private static double median(Connection c, String sql, int runs) throws SQLException {
        double[] ms = new double[runs];
        for (int i = 0; i < runs; i++) {
            long start = System.nanoTime();
            rows(c, sql);
            ms[i] = (System.nanoTime() - start) / 1e6;
        }
        Arrays.sort(ms);
        return ms[runs / 2];
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
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

    private static String table(double scale, int runs, List<Result> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("TPC-H at scale ").append(scale).append(", median of ").append(runs)
                .append(" runs after one warm-up; one database through Connector/J, Shardwise through its JDBC driver over two backends.\n\n");
        sb.append("| query | one database (ms) | Shardwise (ms) | ratio | note |\n| --- | ---: | ---: | ---: | --- |\n");
        for (Result r : results) {
            sb.append(String.format(Locale.ROOT, "| %s | %.1f | %s | %s | %s |%n", Tpch.queryName(r.query()), r.direct(),
                    r.shardwise() < 0 ? "—" : String.format(Locale.ROOT, "%.1f", r.shardwise()), r.ratio(),
                    r.status().replace("|", "\\|")));
        }
        return sb.toString();
    }
}
