package io.shardwise.jmh.modes;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Statements no shard answers alone (issue 13), on the sample schema, through the targets of
 * {@link ModesBenchmark}: one database, the Shardwise driver and server, and ShardingSphere-JDBC 5.5
 * with its SQL federation switched on. {@code sbtest1} and {@code sbtest2} are each sharded over two
 * databases by their own {@code id} and bound to nothing, so
 * <ul>
 *   <li>{@code join}: {@code sbtest1.k = sbtest2.id} pairs rows that live on different databases;
 *   <li>{@code inSubquery}: {@code id IN (SELECT k FROM sbtest2 ...)} needs the other table's rows too.
 * </ul>
 * Before any timing, each target's answer is compared with one database's ({@link #verdict}): a
 * target that refuses the statement or answers it differently is not timed, and the report says
 * which and why ({@link FederationRun}). Setup fails for such a target, so a run of this class alone
 * ({@code java -jar benchmarks.jar FederationBenchmark}) never prints a time for a wrong answer.
 * One thread, time per statement read to the end.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class FederationBenchmark {
    static final String SHARDINGSPHERE_FEDERATION = "shardingsphere-jdbc-federation";
    static final List<String> TARGETS = List.of("direct", "shardwise-jdbc", "shardwise-server", SHARDINGSPHERE_FEDERATION);
    static final int POOL = 4;
    /** Fixed statements, so one answer checks every later execution; ORDER BY makes the answer one list. */
    static final Map<String, String> QUERIES = Map.of(
            "join", "SELECT a.id, a.k, b.id, b.k, b.pad FROM sbtest1 a JOIN sbtest2 b ON b.id = a.k"
                    + " WHERE a.id <= 200 ORDER BY a.id",
            "inSubquery", "SELECT id, k, pad FROM sbtest1 WHERE id IN (SELECT k FROM sbtest2 WHERE id <= 200) ORDER BY id");

    @Param({"direct", "shardwise-jdbc", "shardwise-server", SHARDINGSPHERE_FEDERATION})
    public String target;

    @Param({"join", "inSubquery"})
    public String query;

    private Targets.Opened opened;
    private String sql;

    @Setup(Level.Trial)
    public void start() throws Exception {
        sql = QUERIES.get(query);
        if (sql == null) {
            throw new IllegalArgumentException("unknown query " + query + "; known: " + QUERIES.keySet());
        }
        opened = Targets.open(target, POOL);
        if (!target.equals("direct")) {
            Targets.Opened direct = Targets.open("direct", POOL);
            try {
                Verdict v = verdict(direct, opened, sql);
                if (!v.ok()) {
                    throw new IllegalStateException(target + " " + v.text() + " for " + query + ": not timed");
                }
            } finally {
                Targets.release(direct);
            }
        }
        // the peer's SPI lookups need its class loader as the context loader on the benchmark thread
        if (opened.contextLoader() != null) {
            Thread.currentThread().setContextClassLoader(opened.contextLoader());
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        if (opened != null) {
            Targets.release(opened);
        }
    }

    /** Runs the statement and reads every cell; returns the row count. */
    @Benchmark
    public int run() throws SQLException {
        return rows(opened.pool(), sql).size();
    }

    /**
     * What a target's answer is worth: {@code ok}, or why not (refused with the error, or a different
     * answer with the first difference). The target's answer must equal one database's row for row
     * and cell for cell (as text); the statements sort on a unique column, so the order is one.
     */
    record Verdict(boolean ok, String text) {
        static final Verdict OK = new Verdict(true, "ok");
    }

    static Verdict verdict(Targets.Opened direct, Targets.Opened target, String sql) throws SQLException {
        List<List<String>> expected = rows(direct.pool(), sql);
        List<List<String>> actual;
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        if (target.contextLoader() != null) {
            thread.setContextClassLoader(target.contextLoader());
        }
        try {
            actual = rows(target.pool(), sql);
        } catch (SQLException | RuntimeException e) {
            return new Verdict(false, "refused: " + reason(e));
        } finally {
            thread.setContextClassLoader(previous);
        }
        return compare(expected, actual);
    }

    static Verdict compare(List<List<String>> expected, List<List<String>> actual) {
        if (expected.equals(actual)) {
            return Verdict.OK;
        }
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return new Verdict(false, "wrong answer: " + actual.size() + " rows for " + expected.size() + "; row " + (i + 1)
                        + " is " + actual.get(i) + ", one database's " + expected.get(i));
            }
        }
        return new Verdict(false, "wrong answer: " + actual.size() + " rows for " + expected.size());
    }

    private static String reason(Throwable e) {
        // ShardingSphere puts the reason on the lines after the first ("More details: ..."): keep them
        String line = (e.getMessage() == null ? e.getClass().getName() : e.getMessage()).replaceAll("\\s*\n\\s*", " ");
        String code = e instanceof SQLException s && s.getErrorCode() != 0 ? " (" + s.getErrorCode() + ")" : "";
        return (line.length() > 400 ? line.substring(0, 400) + "…" : line) + code;
    }

    static List<List<String>> rows(HikariDataSource pool, String sql) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int width = rs.getMetaData().getColumnCount();
            List<List<String>> rows = new ArrayList<>();
            while (rs.next()) {
                List<String> row = new ArrayList<>(width);
                for (int i = 1; i <= width; i++) {
                    row.add(rs.getString(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }
}
