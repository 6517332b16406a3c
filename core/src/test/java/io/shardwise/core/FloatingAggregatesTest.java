package io.shardwise.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.shardwise.core.execute.Column;
import io.shardwise.core.execute.ResultCursor;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * SUM and AVG (DISTINCT or not) in FLOAT or DOUBLE across shards: MySQL adds the rows in the order it
 * reads them and prints all 17 digits, so a merge of the nodes' partial sums differs in the last ones
 * (and AVG(DISTINCT) of a DOUBLE was once printed to 4 decimals, Connector/J reporting its scale as 0).
 * The merger refuses them and the federated tier answers: digits, types and scales are MySQL's own.
 */
class FloatingAggregatesTest {
    @RegisterExtension
    static final SampleEngine SAMPLE = SampleEngine.withWhole("floatagg");

    private static final List<String> STATEMENTS = List.of(
            "SELECT AVG(amount / 7e0), SUM(amount / 7e0), COUNT(*) FROM orders",
            "SELECT AVG(DISTINCT amount / 7e0), SUM(DISTINCT amount / 7e0) FROM orders",
            "SELECT AVG(DISTINCT quantity * 1e0), SUM(DISTINCT quantity * 1e0), AVG(quantity * 1e0) FROM order_items",
            "SELECT status, AVG(amount * 1.1e0), SUM(DISTINCT amount / 3e0) FROM orders GROUP BY status ORDER BY status",
            "SELECT user_id % 3, SUM(amount / 3e0) AS s FROM orders GROUP BY 1 HAVING AVG(amount / 3e0) > 0 ORDER BY 1",
            "SELECT SUM(status), AVG(DISTINCT status) FROM orders",
            "SELECT AVG(amount / 7e0) FROM orders WHERE user_id < -100",
            // the merger refuses the variance family of a DOUBLE too: the same hand-over answers it
            "SELECT STDDEV(amount / 7e0), VAR_SAMP(quantity * 1e0) FROM orders JOIN order_items USING (order_id, user_id)",
            "SELECT status, VARIANCE(amount * 1e0) FROM orders GROUP BY status ORDER BY status");

    @Test
    void sumsAndAveragesInDoubleAreMySqlsOwn() throws Exception {
        for (String sql : STATEMENTS) {
            assertEquals(direct(sql), viaEngine(sql), sql);
        }
    }

    @Test
    void aPreparedDescriptionMatchesTheRun() throws Exception {
        for (String sql : STATEMENTS) {
            try (EngineSession s = SAMPLE.engine().openSession()) {
                assertEquals(direct(sql).get(0), describeLine(s.describe(sql)), sql);
            }
        }
    }

    /** The type name and scale of each column, then the rows as text. */
    private static List<String> direct(String sql) throws Exception {
        try (Connection c = SAMPLE.server().connect(SAMPLE.whole()); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            ResultSetMetaData md = rs.getMetaData();
            StringBuilder head = new StringBuilder();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                head.append(md.getColumnLabel(i)).append(':').append(md.getColumnTypeName(i)).append(':').append(md.getScale(i)).append('|');
            }
            List<String> out = new ArrayList<>();
            out.add(head.toString());
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    byte[] v = rs.getBytes(i); // the text the server sent (getString would re-print a DOUBLE)
                    row.append(v == null ? "null" : new String(v, java.nio.charset.StandardCharsets.UTF_8)).append('|');
                }
                out.add(row.toString());
            }
            return out;
        }
    }

    private static List<String> viaEngine(String sql) {
        try (EngineSession s = SAMPLE.engine().openSession();
                ResultCursor c = assertInstanceOf(StatementResult.Rows.class, s.execute(sql)).cursor()) {
            List<String> out = new ArrayList<>();
            out.add(describeLine(c.columns()));
            while (c.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < c.columns().size(); i++) {
                    byte[] v = c.get(i);
                    row.append(v == null ? "null" : new String(v, java.nio.charset.StandardCharsets.UTF_8)).append('|');
                }
                out.add(row.toString());
            }
            return out;
        }
    }

    private static String describeLine(List<Column> columns) {
        StringBuilder head = new StringBuilder();
        for (Column col : columns) {
            head.append(col.name()).append(':').append(typeName(col.mysqlType())).append(':').append(col.decimals()).append('|');
        }
        return head.toString();
    }

    /** Connector/J's type names for the types these statements return. */
    private static String typeName(int mysqlType) {
        return switch (mysqlType) {
            case 4 -> "FLOAT";
            case 5 -> "DOUBLE";
            case 8 -> "BIGINT";
            case 246 -> "DECIMAL";
            case 253 -> "VARCHAR";
            default -> "type " + mysqlType;
        };
    }
}
