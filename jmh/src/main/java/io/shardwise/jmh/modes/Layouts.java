package io.shardwise.jmh.modes;

import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The sample data laid out for each target, on the shared test server, once per JVM: a forked run
 * (one trial per JVM) loads what its target needs; an in-process quick run shares the layouts
 * between trials instead of reloading them. Every database made here is dropped when the JVM ends.
 * <ul>
 *   <li>{@link #whole}: every sample table in one database (the direct baseline);
 *   <li>{@link #sharded}: Shardwise's layout, {@code prefix_0} and {@code prefix_1} as the sample
 *       configuration places rows;
 *   <li>{@link #modSharded}: {@code sbtest1} and {@code sbtest2} split over two databases by {@code id % 2},
 *       for the peer, whose algorithms cannot express Shardwise's hash.
 * </ul>
 */
final class Layouts {
    static final String BACKEND_FILE = "shardwise.bench.backendFile";
    private static final List<String> CREATED = new ArrayList<>();
    private static SampleTarget target;
    private static String whole;
    private static boolean sharded;
    private static List<String> mod;

    private Layouts() {}

    static synchronized SampleTarget target() {
        if (target == null) {
            MysqlServer server = TestBackends.shared();
            target = new SampleTarget(server.host(), server.port(), server.user(), server.password(),
                    TestBackends.uniqueSchemaName("bench"));
            Runtime.getRuntime().addShutdownHook(new Thread(Layouts::dropAll, "bench-layouts-cleanup"));
            describe(server);
        }
        return target;
    }

    /**
     * Tells the suite runner which server the run used (the report names it), through the file the
     * system property {@value #BACKEND_FILE} names: benchmarks run in forked JVMs, and starting a
     * backend in the runner's own JVM just to ask would cost a server start.
     */
    private static void describe(MysqlServer server) {
        String file = System.getProperty(BACKEND_FILE);
        if (file != null) {
            try {
                java.nio.file.Files.writeString(java.nio.file.Path.of(file), server.kind() + " " + server.version());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot write " + file, e);
            }
        }
    }

    static MysqlServer server() {
        return TestBackends.shared();
    }

    static synchronized String whole() {
        if (whole == null) {
            String name = target().databasePrefix() + "_whole";
            CREATED.add(name);
            SampleData.loadUnsharded(target, name);
            whole = name;
        }
        return whole;
    }

    /** Loads Shardwise's layout; the configuration that reads it is {@link SampleConfig#yaml}. */
    static synchronized SampleTarget sharded() {
        if (!sharded) {
            SampleTarget t = target();
            CREATED.add(t.databasePrefix() + "_0");
            CREATED.add(t.databasePrefix() + "_1");
            SampleData.loadSharded(SampleData.rule(t));
            sharded = true;
        }
        return target;
    }

    /** Two databases holding the rows of {@code sbtest1} and {@code sbtest2} with even and with odd ids. */
    static synchronized List<String> modSharded() {
        if (mod == null) {
            String source = whole();
            List<String> names = List.of(target.databasePrefix() + "_mod0", target.databasePrefix() + "_mod1");
            try (Connection c = server().connect(null); Statement s = c.createStatement()) {
                for (int i = 0; i < names.size(); i++) {
                    String db = names.get(i);
                    CREATED.add(db);
                    s.execute("DROP DATABASE IF EXISTS `" + db + "`");
                    s.execute("CREATE DATABASE `" + db + "`");
                    for (String table : List.of("sbtest1", "sbtest2")) { // sbtest2: the cross-shard join (FederationBenchmark)
                        s.execute("CREATE TABLE `" + db + "`." + table + " LIKE `" + source + "`." + table);
                        s.execute("INSERT INTO `" + db + "`." + table + " SELECT * FROM `" + source + "`." + table + " WHERE id % 2 = " + i);
                    }
                }
            } catch (SQLException e) {
                throw new IllegalStateException("cannot lay out sbtest1 and sbtest2 by id % 2 on " + target.host() + ":" + target.port(), e);
            }
            mod = names;
        }
        return mod;
    }

    private static synchronized void dropAll() {
        for (String db : CREATED) {
            try {
                server().dropSchema(db);
            } catch (RuntimeException e) {
                // the server may already be stopping with the JVM; its databases go with it
            }
        }
    }
}
