package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXPLAIN through the server, by the mariadb command line and Connector/J (text and server-side
 * prepared): a one-shard statement reads as the same EXPLAIN on the unsharded copy of the data
 * (labels, types, the logical table name), a scatter as Shardwise's plan, EXPLAIN ANALYZE as 1235.
 */
class ExplainServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("explainsrv");

    /** The mariadb client in batch mode; its output and exit code. */
    private static String[] cli(int port, String user, String password, String database, String sql) throws Exception {
        String binary = CommandLineClients.require("mariadb", "mysql");
        Process p = new ProcessBuilder(binary, "--protocol=TCP", "-h127.0.0.1", "-P" + port, "-u" + user, "--password=" + password, // -p with an empty password would prompt
                "--skip-ssl", "--batch", database, "-e", sql).redirectErrorStream(true).start();
        boolean finished = p.waitFor(60, TimeUnit.SECONDS);
        if (!finished) {
            p.destroyForcibly();
        }
        assertTrue(finished, "the client finished");
        return new String[] {new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8), Integer.toString(p.exitValue())};
    }

    private static String[] viaServer(String sql) throws Exception {
        return cli(sample.server.address().getPort(), "app", "app", "shop", sql);
    }

    private static String[] direct(String sql) throws Exception {
        return cli(sample.backend.port(), sample.backend.user(), sample.backend.password(), sample.whole, sql);
    }

    /** Every line, with the {@code rows} estimate (column {@code rows}) blanked: a shard holds fewer rows than the whole table. */
    private static String withoutRows(String batch) {
        List<String> lines = List.of(batch.split("\n"));
        int rows = List.of(lines.get(0).split("\t", -1)).indexOf("rows");
        StringBuilder out = new StringBuilder();
        for (String line : lines) {
            String[] cells = line.split("\t", -1);
            if (rows >= 0 && rows < cells.length) {
                cells[rows] = "?";
            }
            out.append(String.join("\t", cells)).append('\n');
        }
        return out.toString();
    }

    @Test
    void theMariadbCommandLineShowsTheBackendsExplainOfAOneShardStatementAndShardwisesPlanOfAScatter() throws Exception {
        String one = "EXPLAIN SELECT o.order_id, i.sku FROM orders o JOIN order_items i USING (user_id, order_id) WHERE o.user_id = 3";
        String[] proxied = viaServer(one);
        assertEquals("0", proxied[1], proxied[0]);
        assertEquals(withoutRows(direct(one)[0]).replace(sample.whole + ".", "shop."), withoutRows(proxied[0]));

        String[] scatter = viaServer("EXPLAIN SELECT status, COUNT(*) FROM orders GROUP BY status");
        assertEquals("0", scatter[1], scatter[0]);
        String[] lines = scatter[0].split("\n");
        assertEquals("id\ttier\troute\tstep\tbackend\tsql\tparams\tdetail", lines[0]);
        assertEquals(6, lines.length, scatter[0]); // four nodes read, then the merge
        assertTrue(lines[1].startsWith("1\tmerger\tSCATTER\tread\tds0\tSELECT status, COUNT(*)"), lines[1]);
        assertTrue(lines[5].startsWith("2\tmerger\tSCATTER\tmerge\tNULL\tNULL\tNULL\tgroup by"), lines[5]);

        String[] json = viaServer("EXPLAIN FORMAT=JSON SELECT * FROM orders ORDER BY order_id");
        assertEquals("0", json[1], json[0]);
        assertTrue(json[0].startsWith("EXPLAIN\n{\\n  \"shardwise\": {\\n    \"tier\": \"merger\""), json[0]);

        String[] analyze = viaServer("EXPLAIN ANALYZE SELECT * FROM orders");
        assertNotEquals("0", analyze[1]);
        assertTrue(analyze[0].contains("ERROR 1235 (42000)") && analyze[0].contains("EXPLAIN ANALYZE"), analyze[0]);
    }

    private static List<String> table(ResultSet rs, int blanked) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> out = new ArrayList<>();
        StringBuilder labels = new StringBuilder();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            labels.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append('|');
        }
        out.add(labels.toString());
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                row.append(i == blanked ? "?" : rs.getString(i)).append('|');
            }
            out.add(row.toString());
        }
        return out;
    }

    @Test
    void connectorJReadsTheSameExplainAsFromOneDatabaseThroughTextAndPreparedStatements() throws Exception {
        String sql = "EXPLAIN SELECT * FROM orders WHERE user_id = ? AND status = ?";
        try (Connection proxied = sample.connect("app", "&useServerPrepStmts=true");
             Connection plain = java.sql.DriverManager.getConnection(sample.backend.jdbcUrl(sample.whole) + "&useServerPrepStmts=true",
                     sample.backend.user(), sample.backend.password())) {
            List<String> expected;
            try (PreparedStatement p = plain.prepareStatement(sql)) {
                p.setLong(1, 6);
                p.setString(2, "paid");
                try (ResultSet rs = p.executeQuery()) {
                    expected = table(rs, 9);
                }
            }
            try (PreparedStatement p = proxied.prepareStatement(sql)) {
                p.setLong(1, 6);
                p.setString(2, "paid");
                try (ResultSet rs = p.executeQuery()) {
                    assertEquals(expected, table(rs, 9));
                }
            }
            try (Statement s = proxied.createStatement(); Statement d = plain.createStatement()) {
                String text = "EXPLAIN SELECT * FROM orders WHERE user_id = 6 AND status = 'paid'";
                try (ResultSet p = s.executeQuery(text); ResultSet e = d.executeQuery(text)) {
                    assertEquals(table(e, 9), table(p, 9));
                }
                try (ResultSet rs = s.executeQuery("EXPLAIN DELETE FROM orders WHERE amount > 1000")) {
                    List<String> plan = table(rs, -1);
                    assertEquals("id:BIGINT UNSIGNED|tier:VARCHAR|route:VARCHAR|step:VARCHAR|backend:VARCHAR|sql:VARCHAR|params:VARCHAR|detail:VARCHAR|",
                            plan.get(0));
                    assertEquals(5, plan.size(), plan.toString());
                    assertTrue(plan.get(1).startsWith("1|write|SCATTER|write|ds0|DELETE FROM orders_0 WHERE amount > 1000|"), plan.get(1));
                }
                SQLException refused = assertThrows(SQLException.class, () -> s.executeQuery("EXPLAIN UPDATE IGNORE orders SET user_id = 1"));
                assertEquals(1235, refused.getErrorCode());
            }
            try (PreparedStatement p = proxied.prepareStatement("EXPLAIN SELECT * FROM orders WHERE amount > ? ORDER BY order_id")) {
                p.setBigDecimal(1, new java.math.BigDecimal("2.50"));
                try (ResultSet rs = p.executeQuery()) {
                    List<String> plan = table(rs, -1);
                    assertEquals(6, plan.size(), plan.toString());
                    assertTrue(plan.get(1).contains("|[2.50]|"), plan.get(1));
                }
            }
        }
    }
}
