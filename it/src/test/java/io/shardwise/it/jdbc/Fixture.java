package io.shardwise.it.jdbc;

import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample data twice on the shared test server, once per JVM: sharded over {@code <prefix>_0}
 * and {@code <prefix>_1} for the Shardwise driver (through a configuration file with the
 * environment references filled in), and whole in {@code <prefix>_whole} for plain Connector/J.
 * Adds a {@code types} table (a single table on ds0) with a column of every MySQL type.
 */
public final class Fixture {
    static final String TYPES_DDL = "CREATE TABLE types (id INT NOT NULL PRIMARY KEY, t_tiny TINYINT, t_bool TINYINT(1),"
            + " t_utiny TINYINT UNSIGNED, t_small SMALLINT, t_usmall SMALLINT UNSIGNED, t_medium MEDIUMINT, t_int INT,"
            + " t_uint INT UNSIGNED, t_big BIGINT, t_ubig BIGINT UNSIGNED, t_float FLOAT, t_double DOUBLE, t_dec DECIMAL(12,4),"
            + " t_udec DECIMAL(8,2) UNSIGNED, t_date DATE, t_time TIME, t_time3 TIME(3), t_dt DATETIME, t_dt6 DATETIME(6),"
            + " t_ts TIMESTAMP NULL DEFAULT NULL, t_year YEAR, t_char CHAR(4), t_varchar VARCHAR(32), t_text TEXT,"
            + " t_tinytext TINYTEXT, t_binary BINARY(4), t_varbinary VARBINARY(16), t_blob BLOB, t_enum ENUM('a','b'),"
            + " t_set SET('x','y'), t_bit BIT(1), t_bit8 BIT(8), t_json JSON, t_numstr VARCHAR(32))"
            + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci";
    static final String[] TYPES_ROWS = {
        "INSERT INTO types VALUES (1, -5, 1, 200, -300, 60000, -8000000, -2000000000, 4000000000, -9000000000000000000,"
                + " 18000000000000000000, 1.5, -2.25, 12345678.1234, 999999.99, '2025-03-04', '12:34:56', '01:02:03.456',"
                + " '2025-03-04 05:06:07', '2025-03-04 05:06:07.123456', '2025-03-04 05:06:07', 2025, 'ab', 'héllo wörld',"
                + " 'long text', 'tiny', 'ab', x'00ff10', x'cafebabe', 'b', 'x,y', b'1', b'10100101', '{\"k\": 1}', '42')",
        "INSERT INTO types (id) VALUES (2)",
        "INSERT INTO types VALUES (3, 127, 0, 0, 32767, 0, 8388607, 2147483647, 0, 9223372036854775807,"
                + " 18446744073709551615, -0.5, 1e300, -0.0001, 0.5, '1999-12-31', '23:59:59', '00:00:00.001',"
                + " '1999-12-31 23:59:59', '2000-01-01 00:00:00.000001', '2038-01-01 00:00:00', 1999, '', '1.5',"
                + " '', '-1', 'abcd', x'', x'', 'a', '', b'0', b'0', 'null', 'abc')",
        "INSERT INTO types (id, t_tiny, t_bool, t_int, t_dec, t_double, t_varchar, t_numstr) VALUES"
                + " (4, -1, -1, -1, -1.5, -1.5, 'true', ' 7')",
    };

    private static final ReentrantLock LOCK = new ReentrantLock();
    private static Fixture instance;

    public final MysqlServer server;
    public final SampleTarget target;
    public final String whole;
    final Path config;
    final String url;

    private Fixture(MysqlServer server, SampleTarget target, String whole, Path config) {
        this.server = server;
        this.target = target;
        this.whole = whole;
        this.config = config;
        this.url = "jdbc:shardwise:" + config;
    }

    public static Fixture get() {
        LOCK.lock();
        try {
            if (instance == null) {
                instance = load();
            }
            return instance;
        } finally {
            LOCK.unlock();
        }
    }

    private static Fixture load() {
        MysqlServer server = TestBackends.shared();
        SampleTarget target = new SampleTarget(server.host(), server.port(), server.user(), server.password(),
                TestBackends.uniqueSchemaName("jdbc"));
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        String whole = target.databasePrefix() + "_whole";
        SampleData.loadUnsharded(target, whole);
        try {
            Path dir = Files.createTempDirectory("shardwise-jdbc-test");
            Path config = dir.resolve("shop.yaml");
            Files.writeString(config, substitute(SampleData.configYaml(), Map.of(
                    "SHARDWISE_SAMPLE_HOST", server.host(),
                    "SHARDWISE_SAMPLE_PORT", Integer.toString(server.port()),
                    "SHARDWISE_SAMPLE_DB", target.databasePrefix(),
                    "SHARDWISE_SAMPLE_USER", server.user(),
                    "SHARDWISE_SAMPLE_PASSWORD", server.password())));
            Fixture f = new Fixture(server, target, whole, config);
            for (String schema : new String[] {whole, target.databasePrefix() + "_0"}) {
                try (Connection c = server.connect(schema); Statement st = c.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS types");
                    st.execute(TYPES_DDL);
                    for (String row : TYPES_ROWS) {
                        st.execute(row);
                    }
                    st.execute("DROP TABLE IF EXISTS autoinc");
                    st.execute("CREATE TABLE autoinc (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, v VARCHAR(16))");
                }
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                server.dropSchema(target.databasePrefix() + "_0");
                server.dropSchema(target.databasePrefix() + "_1");
                server.dropSchema(whole);
            }));
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Fills {@code ${env:NAME:-default}} from the map, else the default. */
    public static String substitute(String yaml, Map<String, String> env) {
        Matcher m = Pattern.compile("\\$\\{env:([A-Za-z0-9_]+)(?::-([^}]*))?}").matcher(yaml);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = env.getOrDefault(m.group(1), m.group(2) == null ? "" : m.group(2));
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    public Connection direct() throws SQLException {
        return server.connect(whole);
    }

    public Connection direct(String extraProperties) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(whole) + "&" + extraProperties, server.user(), server.password());
    }

    /** The sample configuration file the driver URL names, with every reference filled in. */
    public Path configFile() {
        return config;
    }

    public Connection shardwise() throws SQLException {
        return DriverManager.getConnection(url);
    }
}
