package io.shardwise.testkit.tpch;

import com.mysql.cj.jdbc.JdbcStatement;
import io.trino.tpch.CustomerGenerator;
import io.trino.tpch.Distributions;
import io.trino.tpch.LineItemGenerator;
import io.trino.tpch.NationGenerator;
import io.trino.tpch.OrderGenerator;
import io.trino.tpch.PartGenerator;
import io.trino.tpch.PartSupplierGenerator;
import io.trino.tpch.RegionGenerator;
import io.trino.tpch.SupplierGenerator;
import io.trino.tpch.TextPool;
import io.trino.tpch.TpchEntity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * TPC-H for tests and benchmarks: the eight tables' MySQL DDL, their rows generated in process by
 * {@code io.trino.tpch} (the dbgen algorithm in Java, deterministic for a scale factor; comments from a
 * smaller text pool, see {@link SmallTextPool}), a fast loader
 * ({@code LOAD DATA LOCAL INFILE} fed from the generator, no file on disk), and the 22 queries in
 * MySQL syntax with the specification's validation parameters
 * ({@code io/shardwise/testkit/tpch/qNN.sql}).
 *
 * <p>The queries are io.trino.tpch's text made MySQL's: no {@code decimal '…'} literals, Q13's derived
 * column list as aliases, Q15's view as a CTE, {@code substring(… FROM … FOR …)}. Q11's fraction stays
 * 0.0001 at every scale (the specification scales it by 1/SF; the answer is deterministic either way).
 *
 * <p>Every table's first column is its leading key ({@code o_orderkey}, {@code l_orderkey},
 * {@code ps_partkey}, …): {@link #load} places rows by it, so a caller shards a table by that column.
 *
 * <p>Hazard: the generator needs {@code io.trino.tpch:tpch} on the class path; this module declares it
 * optional, so a module using this class declares it too. {@link #load} drops the physical table first.
 */
public final class Tpch {
    /** Load order; the query files name them so. */
    public static final List<String> TABLES = List.of("region", "nation", "part", "supplier", "partsupp", "customer",
            "orders", "lineitem");
    public static final int QUERIES = 22;
    private static final Pattern ENV_REFERENCE = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)(?::-([^}]*))?}");

    private static final Map<String, String> COLUMNS = Map.of(
            "region", """
                    r_regionkey INT NOT NULL, r_name CHAR(25) NOT NULL, r_comment VARCHAR(152) NOT NULL,
                    PRIMARY KEY (r_regionkey)""",
            "nation", """
                    n_nationkey INT NOT NULL, n_name CHAR(25) NOT NULL, n_regionkey INT NOT NULL, n_comment VARCHAR(152) NOT NULL,
                    PRIMARY KEY (n_nationkey)""",
            "part", """
                    p_partkey INT NOT NULL, p_name VARCHAR(55) NOT NULL, p_mfgr CHAR(25) NOT NULL, p_brand CHAR(10) NOT NULL,
                    p_type VARCHAR(25) NOT NULL, p_size INT NOT NULL, p_container CHAR(10) NOT NULL,
                    p_retailprice DECIMAL(15,2) NOT NULL, p_comment VARCHAR(23) NOT NULL,
                    PRIMARY KEY (p_partkey)""",
            "supplier", """
                    s_suppkey INT NOT NULL, s_name CHAR(25) NOT NULL, s_address VARCHAR(40) NOT NULL, s_nationkey INT NOT NULL,
                    s_phone CHAR(15) NOT NULL, s_acctbal DECIMAL(15,2) NOT NULL, s_comment VARCHAR(101) NOT NULL,
                    PRIMARY KEY (s_suppkey), KEY (s_nationkey)""",
            "partsupp", """
                    ps_partkey INT NOT NULL, ps_suppkey INT NOT NULL, ps_availqty INT NOT NULL,
                    ps_supplycost DECIMAL(15,2) NOT NULL, ps_comment VARCHAR(199) NOT NULL,
                    PRIMARY KEY (ps_partkey, ps_suppkey), KEY (ps_suppkey)""",
            "customer", """
                    c_custkey INT NOT NULL, c_name VARCHAR(25) NOT NULL, c_address VARCHAR(40) NOT NULL, c_nationkey INT NOT NULL,
                    c_phone CHAR(15) NOT NULL, c_acctbal DECIMAL(15,2) NOT NULL, c_mktsegment CHAR(10) NOT NULL,
                    c_comment VARCHAR(117) NOT NULL,
                    PRIMARY KEY (c_custkey), KEY (c_nationkey)""",
            "orders", """
                    o_orderkey INT NOT NULL, o_custkey INT NOT NULL, o_orderstatus CHAR(1) NOT NULL,
                    o_totalprice DECIMAL(15,2) NOT NULL, o_orderdate DATE NOT NULL, o_orderpriority CHAR(15) NOT NULL,
                    o_clerk CHAR(15) NOT NULL, o_shippriority INT NOT NULL, o_comment VARCHAR(79) NOT NULL,
                    PRIMARY KEY (o_orderkey), KEY (o_custkey), KEY (o_orderdate)""",
            "lineitem", """
                    l_orderkey INT NOT NULL, l_partkey INT NOT NULL, l_suppkey INT NOT NULL, l_linenumber INT NOT NULL,
                    l_quantity DECIMAL(15,2) NOT NULL, l_extendedprice DECIMAL(15,2) NOT NULL,
                    l_discount DECIMAL(15,2) NOT NULL, l_tax DECIMAL(15,2) NOT NULL, l_returnflag CHAR(1) NOT NULL,
                    l_linestatus CHAR(1) NOT NULL, l_shipdate DATE NOT NULL, l_commitdate DATE NOT NULL,
                    l_receiptdate DATE NOT NULL, l_shipinstruct CHAR(25) NOT NULL, l_shipmode CHAR(10) NOT NULL,
                    l_comment VARCHAR(44) NOT NULL,
                    PRIMARY KEY (l_orderkey, l_linenumber), KEY (l_partkey, l_suppkey), KEY (l_suppkey), KEY (l_shipdate)""");

    private Tpch() {}

    /** {@code CREATE TABLE physical (…)} with {@code table}'s columns and keys (InnoDB, utf8mb4). */
    public static String createTableSql(String table, String physical) {
        String columns = COLUMNS.get(table);
        if (columns == null) {
            throw new IllegalArgumentException("'" + table + "' is not a TPC-H table; tables: " + TABLES);
        }
        return "CREATE TABLE `" + physical + "` (" + columns + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4";
    }

    /** Query {@code n} (1..22) as MySQL text, without a trailing semicolon. */
    public static String query(int n) {
        if (n < 1 || n > QUERIES) {
            throw new IllegalArgumentException("TPC-H has queries 1.." + QUERIES + ", not " + n);
        }
        return resource(String.format("/io/shardwise/testkit/tpch/q%02d.sql", n)).strip();
    }

    private static String resource(String resource) {
        try (InputStream in = Tpch.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The Shardwise configuration of the TPC-H layout ({@code io/shardwise/testkit/tpch/tpch.yaml}) for
     * a server, its account and the prefix of the two backend databases ({@code <prefix>_0},
     * {@code <prefix>_1}): orders and lineitem sharded by order key and bound, part and partsupp by
     * part key and bound, customer sharded alone, supplier single on the second backend, nation and
     * region broadcast. The server face's account is {@code app}/{@code app}.
     */
    public static String configYaml(String host, int port, String user, String password, String prefix) {
        Map<String, String> env = Map.of("TPCH_HOST", host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host,
                "TPCH_PORT", Integer.toString(port), "TPCH_DB", prefix, "TPCH_USER", user, "TPCH_PASSWORD", password);
        Matcher m = ENV_REFERENCE.matcher(resource("/io/shardwise/testkit/tpch/tpch.yaml"));
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(env.getOrDefault(m.group(1), m.group(2) == null ? "" : m.group(2))));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@code Q1} … {@code Q22}. */
    public static String queryName(int n) {
        return "Q" + n;
    }

    /**
     * A Connector/J connection that may send {@code LOAD DATA LOCAL} (the loader's only need beyond a
     * plain one); {@code url} may carry {@code createDatabaseIfNotExist}.
     */
    public static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user);
        p.setProperty("password", password);
        p.setProperty("allowLoadLocalInfile", "true");
        p.setProperty("sslMode", "DISABLED");
        p.setProperty("allowPublicKeyRetrieval", "true");
        return DriverManager.getConnection(url, p);
    }

    /**
     * Drops and creates {@code physical} as {@code table} on {@code c} and fills it with the rows of
     * {@code table} at {@code scale} whose leading key {@code keep} accepts, streamed from the
     * generator straight into {@code LOAD DATA LOCAL INFILE}.
     *
     * @return the rows loaded
     */
    public static long load(Connection c, String table, String physical, double scale, LongPredicate keep)
            throws SQLException {
        Lines lines = new Lines(generator(table, scale).iterator(), keep);
        long loaded = load(c, table, physical, lines);
        if (loaded != lines.count) {
            throw new IllegalStateException("LOAD DATA into " + physical + " loaded " + loaded + " of " + lines.count + " rows");
        }
        return loaded;
    }

    /** Creates {@code physical} afresh and fills it from {@code rows}, LOAD DATA input as {@link Lines} writes it. */
    private static long load(Connection c, String table, String physical, InputStream rows) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS `" + physical + "`");
            s.execute(createTableSql(table, physical));
            s.unwrap(JdbcStatement.class).setLocalInfileInputStream(rows);
            // the file name is ignored: Connector/J reads the stream set above
            long loaded = s.executeLargeUpdate("LOAD DATA LOCAL INFILE 'tpch-" + table + "' INTO TABLE `" + physical
                    + "` CHARACTER SET utf8mb4 FIELDS TERMINATED BY '|' LINES TERMINATED BY '\\n'");
            // statistics now, not whenever InnoDB's background thread gets to them: the oracle's and
            // each shard's plans then do not depend on that timing
            s.execute("ANALYZE TABLE `" + physical + "`");
            return loaded;
        }
    }

    /**
     * One physical table to fill: where (a Connector/J URL; {@code createDatabaseIfNotExist} lets it
     * make the database), which TPC-H table under which name, and which of its rows by leading key.
     */
    public record Placement(String url, String user, String password, String table, String physical, LongPredicate keep) {}

    /**
     * Fills every placement and answers the rows loaded. Each table is generated once, its lines
     * split into one buffer per placement; while the next table is generated, two threads load the
     * buffers of the previous ones (one connection per load). Memory: the table being loaded, about
     * twice its text size (lineitem at scale 0.01 is 7 MB).
     */
    public static long loadAll(List<Placement> placements, double scale) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Long>> loads = new ArrayList<>();
            // the largest tables first, so their loads start while the small ones are generated
            for (String table : TABLES.reversed()) {
                List<Placement> mine = placements.stream().filter(p -> p.table().equals(table)).toList();
                if (mine.isEmpty()) {
                    continue;
                }
                byte[][] split = split(table, scale, mine);
                for (int i = 0; i < mine.size(); i++) {
                    Placement p = mine.get(i);
                    byte[] rows = split[i];
                    loads.add(pool.submit(() -> {
                        try (Connection c = connect(p.url(), p.user(), p.password())) {
                            return load(c, table, p.physical(), new ByteArrayInputStream(rows));
                        }
                    }));
                }
            }
            long rows = 0;
            for (Future<Long> f : loads) {
                rows += f.get();
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    /** {@code table}'s rows at {@code scale} as LOAD DATA input, one buffer per placement holding the rows it keeps. */
    private static byte[][] split(String table, double scale, List<Placement> placements) {
        ByteArrayOutputStream[] out = new ByteArrayOutputStream[placements.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new ByteArrayOutputStream(1 << 16);
        }
        Lines lines = new Lines(generator(table, scale).iterator(), key -> true);
        while (lines.fill()) {
            for (int i = 0; i < out.length; i++) {
                if (placements.get(i).keep().test(lines.key)) {
                    out[i].write(lines.line, 0, lines.line.length);
                }
            }
            lines.at = lines.line.length;
        }
        byte[][] split = new byte[out.length][];
        for (int i = 0; i < out.length; i++) {
            split[i] = out[i].toByteArray();
        }
        return split;
    }

    /** {@code table}'s rows as the loader writes them, one line each without its end (for tests). */
    static Iterable<String> lines(String table, double scale) {
        return () -> {
            Lines lines = new Lines(generator(table, scale).iterator(), key -> true);
            return new Iterator<String>() {
                @Override
                public boolean hasNext() {
                    return lines.fill();
                }

                @Override
                public String next() {
                    if (!lines.fill()) {
                        throw new java.util.NoSuchElementException();
                    }
                    lines.at = lines.line.length;
                    return new String(lines.line, 0, lines.line.length - 1, StandardCharsets.UTF_8);
                }
            };
        };
    }

    /** {@code table}'s generator at {@code scale}, its comments drawn from {@link SmallTextPool}. */
    private static Iterable<? extends TpchEntity> generator(String table, double scale) {
        Distributions d = Distributions.getDefaultDistributions();
        TextPool text = SmallTextPool.POOL;
        return switch (table) {
            case "region" -> new RegionGenerator(d, text);
            case "nation" -> new NationGenerator(d, text);
            case "part" -> new PartGenerator(scale, 1, 1, d, text);
            case "supplier" -> new SupplierGenerator(scale, 1, 1, d, text);
            case "partsupp" -> new PartSupplierGenerator(scale, 1, 1, text);
            case "customer" -> new CustomerGenerator(scale, 1, 1, d, text);
            case "orders" -> new OrderGenerator(scale, 1, 1, d, text);
            case "lineitem" -> new LineItemGenerator(scale, 1, 1, d, text);
            default -> throw new IllegalArgumentException("'" + table + "' is not a TPC-H table; tables: " + TABLES);
        };
    }

    /**
     * The text comments are cut from. dbgen's pool is 300 MiB, which takes io.trino.tpch 10 to 25 s
     * of CPU to build here (most of what loading scale 0.01 would cost); 8 MiB of the same grammar
     * takes a fraction of a second. Every column but the comments is dbgen's; the comments are
     * dbgen's grammar but other substrings of it (queries 13 and 16 filter on comments and stay
     * deterministic; supplier's "Customer … Complaints" comments are placed as dbgen places them).
     */
    private static final class SmallTextPool {
        static final TextPool POOL = new TextPool(8 * 1024 * 1024, Distributions.getDefaultDistributions());
    }

    /**
     * The generator's rows as LOAD DATA input, one dbgen line each (fields separated by {@code |},
     * without dbgen's trailing one, which would read as an extra empty field), only those whose
     * leading key passes the filter. Pulls one row at a time: nothing of the table is held whole.
     */
    private static final class Lines extends InputStream {
        private final Iterator<? extends TpchEntity> rows;
        private final LongPredicate keep;
        byte[] line = new byte[0];
        int at;
        long key;
        long count;

        Lines(Iterator<? extends TpchEntity> rows, LongPredicate keep) {
            this.rows = rows;
            this.keep = keep;
        }

        /** Makes a line current (its bytes from {@code at} unread) unless the rows are spent. */
        boolean fill() {
            while (at == line.length) {
                if (!rows.hasNext()) {
                    return false;
                }
                String text = rows.next().toLine();
                int bar = text.indexOf('|');
                key = Long.parseLong(text, 0, bar, 10);
                if (!keep.test(key)) {
                    continue;
                }
                int end = text.endsWith("|") ? text.length() - 1 : text.length();
                line = (text.substring(0, end) + "\n").getBytes(StandardCharsets.UTF_8);
                at = 0;
                count++;
            }
            return true;
        }

        @Override
        public int read() {
            return fill() ? line[at++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            int n = 0;
            while (n < len && fill()) {
                int chunk = Math.min(len - n, line.length - at);
                System.arraycopy(line, at, b, off + n, chunk);
                at += chunk;
                n += chunk;
            }
            return n == 0 ? -1 : n;
        }
    }
}
