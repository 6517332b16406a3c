package io.shardwise.jmh.modes;

import io.shardwise.core.sample.SampleTarget;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;

/**
 * Apache ShardingSphere-JDBC over {@link Layouts#modSharded}: {@code sbtest1} sharded over two
 * databases by {@code id % 2} (an INLINE algorithm, the nearest to Shardwise's hash that a manual
 * table rule takes: both send a key to one of two databases and a query without one to both), each database behind a HikariCP pool of
 * the benchmark's size. Built from YAML through {@code YamlShardingSphereDataSourceFactory}, called
 * reflectively because ShardingSphere lives in its own {@link PeerClassLoader}.
 *
 * <p>With {@code federation}, {@code sbtest2} is sharded the same way but not bound to {@code sbtest1}
 * (a join on {@code sbtest2.id = sbtest1.k} crosses databases), and the top-level {@code sqlFederation}
 * block switches on ShardingSphere's SQL federation, off by default and "experimental" in 5.5
 * ({@link FederationBenchmark}).
 */
final class ShardingSphereJdbc {
    /**
     * Without it ShardingSphere refuses a range on the sharding column ({@code id <= 200}) with an INLINE
     * algorithm, before federation is even tried, instead of reading every database.
     */
    private static final String ALLOW_RANGE = "        allow-range-query-with-inline-sharding: true";

    private ShardingSphereJdbc() {}

    /** The peer's data source; closing {@code loader} is the caller's, after closing the data source. */
    static DataSource open(URLClassLoader loader, int poolSize, boolean federation) throws Exception {
        SampleTarget target = Layouts.target();
        List<String> databases = Layouts.modSharded();
        Path yaml = Files.createTempFile("shardingsphere-bench", ".yaml");
        yaml.toFile().deleteOnExit();
        Files.writeString(yaml, yaml(target, databases, poolSize, federation));
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class<?> factory = loader.loadClass("org.apache.shardingsphere.driver.api.yaml.YamlShardingSphereDataSourceFactory");
            return (DataSource) factory.getMethod("createDataSource", File.class).invoke(null, yaml.toFile());
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    static String yaml(SampleTarget target, List<String> databases, int poolSize, boolean federation) throws IOException {
        StringBuilder y = new StringBuilder("databaseName: shop\ndataSources:\n");
        for (int i = 0; i < databases.size(); i++) {
            y.append("  ds_").append(i).append(":\n")
                    .append("    dataSourceClassName: com.zaxxer.hikari.HikariDataSource\n")
                    .append("    driverClassName: com.mysql.cj.jdbc.Driver\n")
                    .append("    jdbcUrl: \"").append(Layouts.server().jdbcUrl(databases.get(i))).append("\"\n")
                    .append("    username: \"").append(target.user()).append("\"\n")
                    .append("    password: \"").append(target.password()).append("\"\n")
                    .append("    maximumPoolSize: ").append(poolSize).append('\n')
                    .append("    minimumIdle: ").append(poolSize).append('\n');
        }
        y.append("rules:\n- !SHARDING\n  tables:\n");
        for (String table : federation ? List.of("sbtest1", "sbtest2") : List.of("sbtest1")) {
            y.append("""
                        %s:
                          actualDataNodes: ds_${0..%d}.%s
                          databaseStrategy:
                            standard:
                              shardingColumn: id
                              shardingAlgorithmName: sbtest_by_id
                    """.formatted(table, databases.size() - 1, table));
        }
        y.append("""
                  shardingAlgorithms:
                    sbtest_by_id:
                      type: INLINE
                      props:
                        algorithm-expression: ds_${id %% %d}
                %s
                props:
                  sql-show: false
                """.formatted(databases.size(), federation ? ALLOW_RANGE : ""));
        if (federation) {
            y.append("""
                    sqlFederation:
                      sqlFederationEnabled: true
                      allQueryUseSQLFederation: false
                      executionPlanCache:
                        initialCapacity: 2000
                        maximumSize: 65535
                    """);
        }
        return y.toString();
    }
}
