package io.shardwise.core.sample;

import io.shardwise.core.config.DataNode;
import io.shardwise.core.rule.ShardingRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sample data set shared by tests, the demo and the documentation: an online shop (users,
 * orders, order_items, countries, promotions, events) plus sysbench's {@code sbtest1..4} and the
 * HSCALE {@code small} table, laid out by {@code io/shardwise/sample/shop.yaml}.
 *
 * <p>Invariant: the rows are the same on every run and every JVM (seeded generators), and every row
 * carries explicit values for all columns, keys included, so loading needs no key generator and two
 * loads hold identical data. {@link #loadUnsharded} writes the same rows under logical names into one
 * database: the oracle that sharded query results are compared with.
 *
 * <p>Hazard: both loaders drop and recreate the tables they write. Point them only at databases that
 * belong to the sample.
 */
public final class SampleData {
    static final String RESOURCE = "/io/shardwise/sample/shop.yaml";

    private SampleData() {}

    /**
     * Rows written by a sharded load. Logical counts are the table's rows (a broadcast table counts
     * once); physical counts are keyed {@code backend.table} ({@code "ds0.orders_0"}), one entry per
     * physical table created, including any that received no row. Both keep table order.
     */
    public record LoadReport(Map<String, Long> rowsPerLogicalTable, Map<String, Long> rowsPerPhysicalTable) {
        public LoadReport {
            rowsPerLogicalTable = Collections.unmodifiableMap(new LinkedHashMap<>(rowsPerLogicalTable));
            rowsPerPhysicalTable = Collections.unmodifiableMap(new LinkedHashMap<>(rowsPerPhysicalTable));
        }
    }

    /** The text of the sample configuration ({@code io/shardwise/sample/shop.yaml}). */
    public static String configYaml() {
        return Resource.TEXT;
    }

    /**
     * The sample configuration with its {@code ${env:...}} references taken from {@code target}
     * rather than from the process environment, so tests and the demo point it at any server.
     * {@code SHARDWISE_APP_PASSWORD} keeps its default, {@code app}.
     */
    public static ShardingRule rule(SampleTarget target) {
        return rule(target, java.util.function.UnaryOperator.identity());
    }

    /** The sample configuration with {@code edit} applied to its YAML text first (a test adds a user, a key). */
    public static ShardingRule rule(SampleTarget target, java.util.function.UnaryOperator<String> edit) {
        Map<String, String> env = environment(target);
        return ShardingRule.load(edit.apply(configYaml()), "classpath:" + RESOURCE.substring(1), env::get);
    }

    /**
     * Writes every sample table where {@code rule} places it: creates the backend databases (through
     * the URLs' {@code createDatabaseIfNotExist}), drops and recreates each physical table, and
     * inserts each row into the node its key maps to (broadcast tables on every backend, single
     * tables on theirs). Re-runnable.
     *
     * @throws IllegalStateException naming the backend and its URL (never the password) when a
     *     backend cannot be reached or a statement fails
     */
    public static LoadReport loadSharded(ShardingRule rule) {
        List<SampleTable> tables = Dataset.TABLES;
        List<SampleLoader.NodeLoad> loads = SampleLoader.place(rule, tables);
        SampleLoader.loadSharded(rule, loads);
        Map<String, Long> logical = new LinkedHashMap<>();
        for (SampleTable table : tables) {
            logical.put(table.name(), (long) table.rows().size());
        }
        Map<String, Long> physical = new LinkedHashMap<>();
        for (SampleLoader.NodeLoad load : loads) {
            physical.put(load.node().toString(), (long) load.rows().size());
        }
        return new LoadReport(logical, physical);
    }

    /**
     * Writes the same tables and rows under their logical names into one database on
     * {@code target}'s server (creating the database if needed, replacing the tables): the
     * correctness oracle. {@code target.databasePrefix()} is not used.
     */
    public static void loadUnsharded(SampleTarget target, String database) {
        SampleTarget.requireDatabaseName(database, "database");
        String url = "jdbc:mysql://" + target.hostPort() + "/" + database
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true&createDatabaseIfNotExist=true";
        List<SampleLoader.NodeLoad> loads = new ArrayList<>();
        for (SampleTable table : Dataset.TABLES) {
            loads.add(new SampleLoader.NodeLoad(new DataNode(database, table.name()), table, table.rows()));
        }
        SampleLoader.write(new SampleLoader.Endpoint("unsharded database " + database, url, target.user(), target.password()),
                loads);
    }

    /** Generates the tables afresh (the loaders share one cached generation). */
    static List<SampleTable> generate() {
        List<SampleTable> tables = new ArrayList<>(ShopRows.tables());
        tables.addAll(BenchmarkRows.tables());
        return List.copyOf(tables);
    }

    /** The cached generation; rows are immutable, so sharing it is safe. */
    static List<SampleTable> tables() {
        return Dataset.TABLES;
    }

    static Map<String, String> environment(SampleTarget target) {
        return Map.of(
                "SHARDWISE_SAMPLE_HOST", target.urlHost(),
                "SHARDWISE_SAMPLE_PORT", Integer.toString(target.port()),
                "SHARDWISE_SAMPLE_DB", target.databasePrefix(),
                "SHARDWISE_SAMPLE_USER", target.user(),
                "SHARDWISE_SAMPLE_PASSWORD", target.password());
    }

    /** Lazy holder: generated on first use, once per JVM. */
    private static final class Dataset {
        static final List<SampleTable> TABLES = generate();
    }

    private static final class Resource {
        static final String TEXT = read();

        private static String read() {
            try (InputStream in = SampleData.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("sample configuration " + RESOURCE + " is missing from the classpath");
                }
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + RESOURCE, e);
            }
        }
    }
}
