package io.shardwise.jmh.modes;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.shardwise.core.Engine;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.server.ShardwiseServer;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Opens the targets of {@link ModesBenchmark}: each a HikariCP pool of {@code poolSize} in front of
 * its driver, with whatever runs behind it (a Shardwise server and engine, ShardingSphere's data
 * source and class loader).
 *
 * <p>When the system property {@value #REUSE} is true (set by the suite runner for runs without
 * forks), an opened target stays open for the JVM's later trials and closes at exit: an in-process
 * smoke run then starts each target once instead of once per benchmark and thread count. Forked
 * runs open and close one target per JVM either way.
 */
final class Targets {
    static final String REUSE = "shardwise.bench.reuseTargets";
    private static final Map<String, Opened> OPEN = new HashMap<>();

    /**
     * @param contextLoader the context class loader calls into the target need (the peer's), or null
     */
    record Opened(HikariDataSource pool, List<AutoCloseable> behind, ClassLoader contextLoader) {
        void close() throws Exception {
            pool.close();
            for (AutoCloseable c : behind) {
                c.close();
            }
        }
    }

    private Targets() {}

    static synchronized Opened open(String target, int poolSize) throws Exception {
        if (!Boolean.getBoolean(REUSE)) {
            return create(target, poolSize);
        }
        Opened opened = OPEN.get(target);
        if (opened == null) {
            if (OPEN.isEmpty()) {
                Runtime.getRuntime().addShutdownHook(new Thread(Targets::closeAll, "bench-targets-close"));
            }
            opened = create(target, poolSize);
            OPEN.put(target, opened);
        }
        return opened;
    }

    /** Closes {@code opened} unless it is kept for later trials. */
    static synchronized void release(Opened opened) throws Exception {
        if (!OPEN.containsValue(opened)) {
            opened.close();
        }
    }

    private static synchronized void closeAll() {
        for (Opened o : OPEN.values()) {
            try {
                o.close();
            } catch (Exception e) {
                // the JVM is ending; a failed close has nothing left to disturb
            }
        }
    }

    private static Opened create(String target, int poolSize) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setPoolName("bench-" + target);
        config.setMaximumPoolSize(poolSize);
        config.setMinimumIdle(poolSize);
        SampleTarget sample = Layouts.target();
        List<AutoCloseable> behind = List.of();
        ClassLoader contextLoader = null;
        switch (target) {
            case "direct" -> {
                config.setJdbcUrl(Layouts.server().jdbcUrl(Layouts.whole()));
                config.setUsername(sample.user());
                config.setPassword(sample.password());
            }
            case "shardwise-jdbc" -> {
                Path file = Files.createTempFile("shardwise-bench", ".yaml");
                file.toFile().deleteOnExit();
                Files.writeString(file, SampleConfig.yaml(Layouts.sharded(), poolSize));
                config.setJdbcUrl("jdbc:shardwise:" + file);
            }
            case "shardwise-server" -> {
                Engine engine = Engine.start(ShardingRule.load(SampleConfig.yaml(Layouts.sharded(), poolSize), "bench.yaml", name -> null));
                ShardwiseServer server = ShardwiseServer.start(engine, "127.0.0.1", 0);
                behind = List.of(server, engine); // server first: it does not own the engine
                config.setJdbcUrl("jdbc:mysql://127.0.0.1:" + server.address().getPort()
                        + "/shop?sslMode=DISABLED&allowPublicKeyRetrieval=true&characterEncoding=UTF-8");
                config.setUsername("app");
                config.setPassword("app");
            }
            case "shardingsphere-jdbc", FederationBenchmark.SHARDINGSPHERE_FEDERATION -> {
                URLClassLoader loader = PeerClassLoader.shardingSphere();
                DataSource peer = ShardingSphereJdbc.open(loader, poolSize, !target.equals("shardingsphere-jdbc"));
                behind = List.of((AutoCloseable) peer, loader);
                contextLoader = loader;
                config.setDataSource(peer);
            }
            default -> throw new IllegalArgumentException("unknown target " + target);
        }
        // Hikari's own threads fill the pool and inherit the context loader of the thread that starts them
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        if (contextLoader != null) {
            thread.setContextClassLoader(contextLoader);
        }
        try {
            return new Opened(new HikariDataSource(config), behind, contextLoader);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }
}
