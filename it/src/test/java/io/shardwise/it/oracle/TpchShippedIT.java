package io.shardwise.it.oracle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.core.Engine;
import io.shardwise.core.EngineSession;
import io.shardwise.core.config.DataNode;
import io.shardwise.core.route.ExecutionUnit;
import io.shardwise.core.route.RouteKind;
import io.shardwise.core.route.RoutePlan;
import io.shardwise.core.rule.ShardingRule;
import io.shardwise.core.rule.TableRule;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import io.shardwise.testkit.tpch.Tpch;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the federated tier ships for each TPC-H query (issue 13's pushdown figure): the rows and cells
 * its remote scans ship when it runs (the engine's shipped counters), against the
 * rows of every remote node of every copied table (what a copy of whole tables ships). Prints one
 * {@code tpch-shipped} line per query and the totals; asserts only that nothing ships more than a whole
 * copy. Scale {@code -Dtpch.scale} (default 0.01).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchShippedIT {
    private MysqlServer server;
    private String prefix;
    private ShardingRule rule;
    private Engine engine;

    @BeforeAll
    void load() throws Exception {
        server = TestBackends.shared();
        prefix = TestBackends.uniqueSchemaName("tpchship");
        String yaml = Tpch.configYaml(server.host(), server.port(), server.user(), server.password(), prefix);
        rule = ShardingRule.load(yaml, "classpath:io/shardwise/testkit/tpch/tpch.yaml", name -> null);
        TpchLayout.load(rule, server.jdbcUrl(prefix + "_whole") + "&createDatabaseIfNotExist=true", server.user(), server.password(),
                Double.parseDouble(System.getProperty("tpch.scale", "0.01")));
        engine = Engine.start(rule);
    }

    @AfterAll
    void drop() {
        if (engine != null) {
            engine.close();
        }
        for (String db : List.of(prefix + "_0", prefix + "_1", prefix + "_whole")) {
            server.dropSchema(db);
        }
    }

    @Test
    void pushdownShipsNoMoreThanWholeCopies() throws Exception {
        long wholeRows = 0;
        long wholeCells = 0;
        long rows = 0;
        long cells = 0;
        try (EngineSession s = engine.openSession()) {
            for (int q = 1; q <= Tpch.QUERIES; q++) {
                String sql = Tpch.query(q);
                RoutePlan plan = s.preview(sql, List.of());
                if (plan.kind() != RouteKind.FEDERATED) {
                    System.out.println("tpch-shipped " + Tpch.queryName(q) + ": " + plan.kind());
                    continue;
                }
                String coordinator = plan.units().getLast().backend();
                Set<String> copied = new LinkedHashSet<>();
                long[] now = {0, 0};
                for (ExecutionUnit u : plan.units()) {
                    if (u.sql().startsWith("DROP TEMPORARY TABLE IF EXISTS `")) {
                        copied.add(u.sql().substring("DROP TEMPORARY TABLE IF EXISTS `".length(), u.sql().length() - 1)
                                .replaceFirst("^shardwise_fed_", ""));
                    }
                }
                // what running it ships: a join-key reduction's IN batches exist only once its sources are read
                long[] start = engine.federatedShipped();
                try (io.shardwise.core.execute.ResultCursor c = ((io.shardwise.core.StatementResult.Rows) s.execute(sql, List.of())).cursor()) {
                    while (c.next()) {
                        // drain
                    }
                }
                long[] end = engine.federatedShipped();
                now[0] = end[0] - start[0];
                now[1] = end[1] - start[1];
                long[] before = {0, 0};
                for (String table : copied) {
                    TableRule r = rule.table(table);
                    for (DataNode n : r.nodes()) {
                        if (!n.backend().equals(coordinator)) {
                            long[] c = count(n.backend(), "SELECT * FROM `" + n.table() + "`", List.of());
                            before[0] += c[0];
                            before[1] += c[1];
                        }
                    }
                }
                System.out.printf(Locale.ROOT, "tpch-shipped %s: rows %d -> %d, cells %d -> %d (copies of %s on %s)%n", Tpch.queryName(q),
                        before[0], now[0], before[1], now[1], copied, coordinator);
                assertTrue(now[0] <= before[0] && now[1] <= before[1], Tpch.queryName(q));
                wholeRows += before[0];
                wholeCells += before[1];
                rows += now[0];
                cells += now[1];
            }
        }
        System.out.printf(Locale.ROOT, "tpch-shipped total: rows %d -> %d, cells %d -> %d%n", wholeRows, rows, wholeCells, cells);
    }

    /** Rows and cells a scan reads on its backend's database. */
    private long[] count(String backend, String scan, List<Object> params) throws Exception {
        String db = prefix + "_" + backend.substring(2);
        try (Connection c = server.connect(db);
             PreparedStatement st = c.prepareStatement("SELECT COUNT(*) FROM (" + scan + ") x")) {
            for (int i = 0; i < params.size(); i++) {
                st.setObject(i + 1, params.get(i));
            }
            long n;
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                n = rs.getLong(1);
            }
            int width;
            try (PreparedStatement w = c.prepareStatement(scan + " LIMIT 0")) {
                for (int i = 0; i < params.size(); i++) {
                    w.setObject(i + 1, params.get(i));
                }
                try (ResultSet rs = w.executeQuery()) {
                    width = rs.getMetaData().getColumnCount();
                }
            }
            return new long[] {n, n * width};
        }
    }
}
