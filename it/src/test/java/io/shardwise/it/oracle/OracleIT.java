package io.shardwise.it.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.StatementResult;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.sample.SampleData;
import io.shardwise.core.sample.SampleTarget;
import io.shardwise.it.oracle.OracleComparator.Verdict;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The differential oracle (STYLE 24): the sample data is loaded sharded and into one unsharded
 * database, every corpus statement runs through the Shardwise engine and directly on the unsharded
 * database, and the results must agree (see {@link OracleComparator}). Reads run first, on the data as
 * loaded; writes run last, each followed by a full read of the table it touched, so both copies stay
 * equal statement by statement.
 *
 * <p>The run ends with one summary line on stdout, {@code oracle: N statements, N identical, 0
 * different, 0 errors}, and fails with every difference when there is one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OracleIT {
    static final int RANDOM_STATEMENTS = 240;

    private MysqlServer server;
    private String prefix;
    private String whole;
    private Engine engine;
    private EngineSession session;
    private DirectSide direct;

    @BeforeAll
    void load() throws SQLException {
        server = TestBackends.shared();
        prefix = TestBackends.uniqueSchemaName("oracle");
        whole = prefix + "_whole";
        SampleTarget target = new SampleTarget(server.host(), server.port(), server.user(), server.password(), prefix);
        ShardingRule rule = SampleData.rule(target);
        SampleData.loadSharded(rule);
        SampleData.loadUnsharded(target, whole);
        engine = Engine.start(rule);
        session = engine.openSession();
        direct = new DirectSide(server.host(), server.port(), server.user(), server.password(), whole);
    }

    @AfterAll
    void drop() throws SQLException {
        try (AutoCloseable a = session; AutoCloseable b = engine; AutoCloseable c = direct) {
            // closed in reverse order
        } catch (Exception e) {
            throw new IllegalStateException("closing the oracle's sides failed", e);
        } finally {
            dropDatabases();
        }
    }

    @Test
    void shardwiseAgreesWithTheUnshardedDatabaseOnEveryCorpusStatement() {
        List<OracleCase> corpus = new ArrayList<>();
        corpus.addAll(HandCorpus.reads());
        corpus.addAll(HandCorpus.formerlyRefused());
        corpus.addAll(RandomCorpus.generate(RANDOM_STATEMENTS));
        corpus.addAll(HandCorpus.errors());
        corpus.addAll(HandCorpus.writes());
        assertTrue(corpus.size() >= 300, "the corpus has " + corpus.size() + " statements");

        OracleComparator comparator = new OracleComparator(whole, engine.rule().schema());
        EngineSide sharded = new EngineSide(session);
        List<String> differences = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        int identical = 0;
        for (OracleCase c : corpus) {
            Verdict v = comparator.compare(c, sharded.run(c), direct.run(c));
            switch (v) {
                case Verdict.Identical i -> identical++;
                case Verdict.Different d -> differences.add(d.report());
                case Verdict.Error e -> errors.add(e.report());
            }
        }
        int total = corpus.size() + 1;
        switch (generatedKeys(comparator, sharded)) {
            case Verdict.Identical i -> identical++;
            case Verdict.Different d -> differences.add(d.report());
            case Verdict.Error e -> errors.add(e.report());
        }
        Map<String, Integer> byCategory = new TreeMap<>(OracleComparator.countByCategory(corpus));
        byCategory.merge("generated-key", 1, Integer::sum);
        List<String> all = new ArrayList<>(differences);
        all.addAll(errors);
        for (String report : all) {
            System.out.println(report);
        }
        System.out.println("oracle corpus by category: " + byCategory);
        System.out.println("oracle: " + total + " statements, " + identical + " identical, " + differences.size()
                + " different, " + errors.size() + " errors");
        // STYLE 25: the corpus leaves nothing behind
        assertFalse(session.inTransaction(), "the oracle session is left in a transaction");
        assertEquals(0, engine.activeConnections(), "backend connections still borrowed after the corpus");
        if (!all.isEmpty()) {
            fail(differences.size() + " different, " + errors.size() + " errors of " + total + " statements:\n"
                    + String.join("\n", all));
        }
    }

    /**
     * An INSERT into orders that leaves order_id to the snowflake generator: Shardwise reports one
     * distinct key per row; the unsharded database receives the same rows with those keys, and the
     * whole table must then agree.
     */
    private Verdict generatedKeys(OracleComparator comparator, EngineSide sharded) {
        String columns = "INSERT INTO orders (user_id, status, amount, created_at) VALUES ";
        String[] rows = {"(21, 'gen', 1.00, '2025-03-03 00:00:00')", "(22, 'gen', 2.00, '2025-03-03 00:00:01')",
            "(-7, 'gen', NULL, '2025-03-03 00:00:02')"};
        OracleCase insert = new OracleCase("generated-key", columns + String.join(", ", rows), null, false, false);
        StatementResult.Update update;
        try {
            update = sharded.update(insert.sql());
        } catch (ShardwiseException | ClassCastException e) {
            return new Verdict.Different("[generated-key] " + insert + "\n    shardwise failed: " + e);
        }
        List<Object> keys = update.generatedKeys();
        if (keys.size() != rows.length || new HashSet<>(keys).size() != rows.length) {
            return new Verdict.Different("[generated-key] " + insert + "\n    expected " + rows.length
                    + " distinct generated keys, got " + keys + " (" + update + ")");
        }
        StringBuilder explicit = new StringBuilder("INSERT INTO orders (order_id, user_id, status, amount, created_at) VALUES ");
        for (int i = 0; i < rows.length; i++) {
            explicit.append(i == 0 ? "(" : ", (").append(keys.get(i)).append(", ").append(rows[i], 1, rows[i].length());
        }
        Outcome directInsert = direct.run(new OracleCase("generated-key", explicit.toString(), null, false, false));
        Verdict counts = comparator.compare(insert, new Outcome.Update(update.affectedRows(), 0), directInsert);
        if (!(counts instanceof Verdict.Identical)) {
            return counts;
        }
        OracleCase check = new OracleCase("generated-key", "SELECT * FROM orders ORDER BY order_id", null, false, false);
        return comparator.compare(check, sharded.run(check), direct.run(check));
    }

    @Test
    void statementsShardwiseRefusesFailWith1235() {
        List<String> wrong = new ArrayList<>();
        EngineSide sharded = new EngineSide(session);
        for (String sql : HandCorpus.UNSUPPORTED) {
            OracleCase c = new OracleCase("unsupported", sql, null, false, false);
            Outcome o = sharded.run(c);
            if (!(o instanceof Outcome.Failure f && f.errno() == 1235)) {
                // say whether the answer it gave instead is right: a refusal that runs per shard is the worst case
                String verdict = switch (new OracleComparator().compare(c, o, direct.run(c))) {
                    case Verdict.Identical i -> "and it agrees with the unsharded database";
                    case Verdict.Different d -> "and it is WRONG:\n" + d.report();
                    case Verdict.Error e -> e.report();
                };
                wrong.add(sql + "\n    expected ERROR 1235, got " + Outcome.describe(o) + " " + verdict);
            }
        }
        assertEquals(List.of(), wrong, "statements that must be refused with 1235");
    }

    @Test
    void aFreshSessionStillWorksAfterTheCorpus() {
        try (EngineSession fresh = engine.openSession()) {
            Outcome o = new EngineSide(fresh).run(new OracleCase("health", "SELECT COUNT(*) FROM small", null, false, false));
            assertTrue(o instanceof Outcome.Rows, Outcome.describe(o));
        }
    }

    private void dropDatabases() throws SQLException {
        if (server == null) {
            return;
        }
        String h = server.host().indexOf(':') >= 0 ? "[" + server.host() + "]" : server.host();
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + h + ":" + server.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", server.user(), server.password());
             Statement s = c.createStatement()) {
            for (String db : List.of(prefix + "_0", prefix + "_1", whole)) {
                s.execute("DROP DATABASE IF EXISTS `" + db + "`");
            }
        }
    }
}
