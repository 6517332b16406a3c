package io.shardwise.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.it.oracle.OracleComparator.Verdict;
import io.shardwise.server.ShardwiseServer;
import io.shardwise.testkit.Await;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import io.shardwise.testkit.tpch.Tpch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * TPC-H exact (issue 13): the 22 queries over TPC-H data at scale {@value #SCALE}, generated in
 * process, run on one unsharded database (the oracle) and through every face of Shardwise over the
 * sharded layout of {@code io/shardwise/testkit/tpch/tpch.yaml} (see {@link TpchLayout}); answers
 * compare as the oracle suite compares them ({@link OracleComparator}: labels, MySQL types, cells, in
 * order since every query sorts).
 *
 * <p>Prints one line per face, {@code tpch[engine]: 22 queries, N identical, N different, N errors}
 * (then driver, server, relay), and {@code tpch: …} where a query counts identical only when every
 * face answered it identically. A query Shardwise refuses (1235, or any other error where the oracle
 * answers) is an error, listed with its message. It fails on any different answer (a wrong answer
 * always fails the build), and when a query of {@link #ANSWERED} is not identical on every face: that
 * set is a ratchet, grown as the federated tier answers more and never shrunk.
 * {@code -Dtpch.faces=engine} runs only the faces named.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchIT {
    static final double SCALE = 0.01;

    /**
     * The queries every face must answer identically today. Add a query when it starts to pass (the
     * run prints which to add); removing one is a regression.
     */
    static final Set<Integer> ANSWERED = Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22);

    enum Face { ENGINE, DRIVER, SERVER, RELAY }

    private MysqlServer server;
    private String prefix;
    private String whole;
    private String yaml;
    private ShardingRule rule;
    private final List<AutoCloseable> closing = new ArrayList<>();
    private final List<Engine> engines = new ArrayList<>();
    private ConnectorJSide direct;
    private ConnectorJSide directJdbcTypes;

    @BeforeAll
    void load() throws Exception {
        server = TestBackends.shared();
        prefix = TestBackends.uniqueSchemaName("tpch");
        whole = prefix + "_whole";
        yaml = Tpch.configYaml(server.host(), server.port(), server.user(), server.password(), prefix);
        rule = ShardingRule.load(yaml, "classpath:io/shardwise/testkit/tpch/tpch.yaml", name -> null);
        TpchLayout.Loaded loaded = TpchLayout.load(rule, server.jdbcUrl(whole) + "&createDatabaseIfNotExist=true",
                server.user(), server.password(), SCALE);
        System.out.println("tpch: scale " + SCALE + ", " + loaded.rows() + " rows generated and loaded twice (sharded and"
                + " unsharded) in " + loaded.millis() + " ms");
        direct = ConnectorJSide.connect(server.host(), server.port(), server.user(), server.password(), whole, false, false);
        directJdbcTypes = ConnectorJSide.connect(server.host(), server.port(), server.user(), server.password(), whole, false, true);
    }

    @AfterAll
    void drop() throws Exception {
        try {
            for (AutoCloseable c : closing.reversed()) {
                c.close();
            }
            if (direct != null) {
                direct.close();
                directJdbcTypes.close();
            }
        } finally {
            if (server != null) {
                for (String db : List.of(prefix + "_0", prefix + "_1", whole)) {
                    server.dropSchema(db);
                }
            }
        }
    }

    /** One face's answers: per query, its verdict's report (null when identical) and whether it was an error. */
    private record FaceRun(Face face, String[] reports, boolean[] errors) {
        boolean identical(int q) {
            return reports[q - 1] == null;
        }

        boolean error(int q) {
            return reports[q - 1] != null && errors[q - 1];
        }

        boolean different(int q) {
            return reports[q - 1] != null && !errors[q - 1];
        }

        String line() {
            return TpchIT.line("tpch[" + face.name().toLowerCase(Locale.ROOT) + "]", this::identical, this::different, this::error);
        }
    }

    @Test
    void everyFaceAnswersTheTpchQueriesAsOneDatabaseDoes() throws Exception {
        List<Face> faces = faces();
        List<Side> sides = new ArrayList<>();
        for (Face face : faces) {
            sides.add(open(face));
        }
        List<FaceRun> runs = new ArrayList<>();
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            // the oracle answers each query once per way of reading types (protocol codes; the driver's java.sql.Types)
            Future<List<Outcome>> protocolTypes = pool.submit(() -> expected(direct));
            Future<List<Outcome>> jdbcTypes = faces.contains(Face.DRIVER) ? pool.submit(() -> expected(directJdbcTypes)) : null;
            List<Future<FaceRun>> running = new ArrayList<>();
            for (Face face : faces) {
                Side side = sides.get(faces.indexOf(face));
                Future<List<Outcome>> reference = face == Face.DRIVER ? jdbcTypes : protocolTypes;
                running.add(pool.submit(() -> run(face, side, reference.get())));
            }
            for (Future<FaceRun> f : running) {
                // a query that never ends (a runaway federated plan) fails the run instead of hanging the build
                runs.add(f.get(10, TimeUnit.MINUTES));
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> reports = new ArrayList<>();
        for (FaceRun r : runs) {
            for (int q = 1; q <= Tpch.QUERIES; q++) {
                if (!r.identical(q)) {
                    reports.add("tpch[" + r.face().name().toLowerCase(Locale.ROOT) + "] " + (r.error(q) ? "error " : "DIFFERENT ")
                            + Tpch.queryName(q) + ": " + r.reports()[q - 1]);
                }
            }
        }
        reports.forEach(System.out::println);
        System.out.println("tpch: the queries ran on every face and the oracle in " + (System.nanoTime() - start) / 1_000_000 + " ms");
        Set<Integer> answered = new TreeSet<>();
        for (int q = 1; q <= Tpch.QUERIES; q++) {
            final int query = q;
            if (runs.stream().allMatch(r -> r.identical(query))) {
                answered.add(q);
            }
        }
        runs.forEach(r -> System.out.println(r.line()));
        System.out.println(line("tpch", answered::contains, q -> runs.stream().anyMatch(r -> r.different(q)),
                q -> !answered.contains(q) && runs.stream().noneMatch(r -> r.different(q))));
        System.out.println("tpch: answered on every face " + names(answered) + "; ratchet " + names(ANSWERED));
        for (Engine e : engines) {
            Await.until("the TPC-H engines return every backend connection", () -> e.activeConnections() == 0);
        }

        List<String> different = reports.stream().filter(r -> r.contains(" DIFFERENT ")).toList();
        if (!different.isEmpty()) {
            fail("wrong answers:\n" + String.join("\n", different));
        }
        Set<Integer> lost = new TreeSet<>(ANSWERED);
        lost.removeAll(answered);
        assertEquals(Set.of(), lost, "TPC-H queries of the ratchet no longer answered identically on every face:\n"
                + String.join("\n", reports));
        Set<Integer> gained = new TreeSet<>(answered);
        gained.removeAll(ANSWERED);
        if (!gained.isEmpty()) {
            System.out.println("tpch: now answered, add to TpchIT.ANSWERED: " + gained);
        }
    }

    /** The oracle's outcome of each query, in query order; says which took the unsharded database a second or more. */
    private static List<Outcome> expected(ConnectorJSide reference) {
        List<Outcome> outcomes = new ArrayList<>();
        for (int q = 1; q <= Tpch.QUERIES; q++) {
            long start = System.nanoTime();
            outcomes.add(reference.run(new OracleCase("tpch", Tpch.query(q), null, false, false)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            if (ms >= 1000) {
                System.out.println("tpch: " + Tpch.queryName(q) + " took the unsharded database " + ms + " ms");
            }
        }
        return outcomes;
    }

    /**
     * Every face, or those {@code -Dtpch.faces=engine,driver} names (a quicker loop while working on the
     * planner; the ratchet then holds for those faces).
     */
    private static List<Face> faces() {
        String named = System.getProperty("tpch.faces", "").strip();
        if (named.isEmpty()) {
            return List.of(Face.values());
        }
        List<Face> faces = new ArrayList<>();
        for (String name : named.split(",")) {
            faces.add(Face.valueOf(name.strip().toUpperCase(Locale.ROOT)));
        }
        return List.copyOf(faces);
    }

    private FaceRun run(Face face, Side side, List<Outcome> reference) {
        OracleComparator comparator = new OracleComparator(whole, rule.schema());
        String[] reports = new String[Tpch.QUERIES];
        boolean[] errors = new boolean[Tpch.QUERIES];
        for (int q = 1; q <= Tpch.QUERIES; q++) {
            OracleCase c = new OracleCase("tpch", Tpch.query(q), null, false, false);
            if (face == Face.RELAY) {
                warm(c);
            }
            Outcome sharded = side.run(c);
            Outcome expected = reference.get(q - 1);
            if (sharded instanceof Outcome.Failure f && !(expected instanceof Outcome.Failure)) {
                // a refusal (1235) or a failure where one database answers: not an answer, never a wrong one
                reports[q - 1] = "ERROR " + f.errno() + " (" + f.sqlState() + "): " + f.message();
                errors[q - 1] = true;
                continue;
            }
            switch (comparator.compare(c, sharded, expected)) {
                case Verdict.Identical i -> { }
                case Verdict.Different d -> reports[q - 1] = d.report();
                case Verdict.Error e -> {
                    reports[q - 1] = e.report();
                    errors[q - 1] = true;
                }
            }
        }
        return new FaceRun(face, reports, errors);
    }

    private EngineSession relayPlanner;

    /** The relay relays only cached plans: plan the query first, as the oracle does. */
    private void warm(OracleCase c) {
        try {
            relayPlanner.preview(c.sql(), List.of());
        } catch (RuntimeException e) {
            // a statement the engine refuses runs unrelayed and fails there, where it is reported
        }
    }

    private Side open(Face face) throws Exception {
        Side side = switch (face) {
            case ENGINE -> {
                Engine engine = engine();
                EngineSession session = engine.openSession();
                closing.add(session);
                yield new EngineSide(session);
            }
            case DRIVER -> {
                Path config = Files.createTempDirectory("shardwise-tpch").resolve("tpch.yaml");
                Files.writeString(config, yaml);
                yield new DriverSide("jdbc:shardwise:" + config);
            }
            case SERVER, RELAY -> {
                Engine engine = engine();
                if (face == Face.RELAY) {
                    relayPlanner = engine.openSession();
                    closing.add(relayPlanner);
                }
                ShardwiseServer s = ShardwiseServer.start(engine, rule.config().server().withRelay(face == Face.RELAY), 0);
                closing.add(s);
                yield ConnectorJSide.connect(rule.config().server().bind(), s.address().getPort(), "app", "app", rule.schema(),
                        false, false);
            }
        };
        closing.add(side);
        return side;
    }

    private Engine engine() {
        Engine engine = Engine.start(rule);
        closing.add(engine);
        engines.add(engine);
        return engine;
    }

    private static String line(String label, IntPredicate identical, IntPredicate different,
                               IntPredicate error) {
        int same = 0;
        int diff = 0;
        int err = 0;
        for (int q = 1; q <= Tpch.QUERIES; q++) {
            same += identical.test(q) ? 1 : 0;
            diff += different.test(q) ? 1 : 0;
            err += error.test(q) ? 1 : 0;
        }
        return label + ": " + Tpch.QUERIES + " queries, " + same + " identical, " + diff + " different, " + err + " errors";
    }

    private static String names(Set<Integer> queries) {
        return queries.stream().sorted().map(Tpch::queryName).toList().toString();
    }
}
