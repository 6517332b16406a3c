package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.shardwise.server.auth.NativePassword;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Merged reads whose units the server reads natively (autocommit merges on relay connections, a native
 * transaction's merges on its pinned connections) describe their columns as the JDBC path does (a second
 * server over the same engine with the relay off), byte for byte: the merger derives some columns from
 * the units' (SUM/AVG(DISTINCT x) from x's length and scale), so the units' columns must reach it as
 * Connector/J would have decoded them — once a native SUM(DISTINCT quantity) over an INT was described
 * 33 long where MySQL and the JDBC path say 32.
 */
class MergedColumnsServerTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("mergecols");
    private static ShardwiseServer plain;

    @BeforeAll
    static void startPlainServer() {
        plain = ShardwiseServer.start(sample.engine, sample.engine.rule().config().server().withRelay(false), 0);
    }

    @AfterAll
    static void stopPlainServer() {
        plain.close();
    }

    /** A point read that relays: a transaction it opens is native. */
    private static final String POINT = "SELECT k FROM sbtest1 WHERE id = 1";

    /** Merged aggregates over INT, BIGINT, INT UNSIGNED, DECIMAL, DOUBLE, utf8mb4 VARCHAR, CHAR,
     * VARBINARY, DATE and DATETIME arguments, and comparisons (INT of length 1). */
    private static final List<String> MERGES = List.of(
            "SELECT user_id % 10, COUNT(DISTINCT sku), SUM(DISTINCT quantity), COUNT(DISTINCT order_id), MIN(price) FROM order_items"
                    + " GROUP BY 1 ORDER BY 1",
            "SELECT SUM(quantity), SUM(DISTINCT quantity), AVG(quantity), AVG(DISTINCT quantity), MIN(quantity), MAX(quantity),"
                    + " COUNT(DISTINCT quantity) FROM order_items",
            "SELECT SUM(user_id), SUM(DISTINCT user_id), AVG(DISTINCT user_id), MIN(user_id), MAX(order_id) FROM order_items",
            "SELECT SUM(id), SUM(DISTINCT id), AVG(id), AVG(DISTINCT id), MIN(id), MAX(id), COUNT(DISTINCT id) FROM small",
            "SELECT SUM(price), SUM(DISTINCT price), AVG(price), AVG(DISTINCT price), MIN(price), MAX(price) FROM order_items",
            "SELECT user_id, SUM(DISTINCT amount), AVG(DISTINCT amount), MAX(amount) FROM orders GROUP BY user_id ORDER BY user_id LIMIT 5",
            // DOUBLE columns the merger keeps exact (a SUM or AVG of a DOUBLE goes to the federated tier: FloatingAggregatesTest)
            "SELECT MIN(quantity * 1e0), MAX(price + 0e0), MIN(price + 0e0), COUNT(DISTINCT price + 0e0) FROM order_items",
            "SELECT MIN(c), MAX(c), COUNT(DISTINCT pad) FROM sbtest1 WHERE id < 50",
            "SELECT MIN(sku), MAX(sku), COUNT(DISTINCT sku) FROM order_items",
            "SELECT MAX(CAST(sku AS BINARY)), MIN(quantity > 2), MAX(user_id < 5), COUNT(DISTINCT CAST(sku AS BINARY)) FROM order_items",
            "SELECT user_id, GROUP_CONCAT(sku ORDER BY item_id), GROUP_CONCAT(DISTINCT quantity ORDER BY quantity) FROM order_items"
                    + " WHERE user_id < 20 GROUP BY user_id ORDER BY user_id",
            "SELECT MIN(DATE(created_at)), MAX(DATE(created_at)), COUNT(DISTINCT DATE(created_at)), MIN(created_at), MAX(created_at)"
                    + " FROM orders",
            "SELECT status, COUNT(DISTINCT user_id), MAX(DATE(created_at)), SUM(DISTINCT amount) FROM orders GROUP BY status ORDER BY 1",
            "SELECT MIN(k), MAX(k), SUM(DISTINCT k), AVG(DISTINCT k) FROM sbtest1");

    /** Each merge twice: first as the session's thread plans and merges it, then (its shape cached) as the event loop does. */
    @Test
    void mergedColumnsInAutocommitAreDescribedAsOnTheJdbcPath() throws Exception {
        long before = sample.server.autocommitReads();
        long merged = sample.server.loopMergedStatements();
        List<String> actual = run(sample.server, false);
        assertEquals(2 * MERGES.size(), sample.server.autocommitReads() - before, "every merge read its units natively");
        long onLoop = sample.server.loopMergedStatements() - merged;
        assertTrue(onLoop >= MERGES.size() && onLoop <= 2 * MERGES.size(), "the cached ones merged on the event loop: " + onLoop);
        assertSame(run(plain, false), actual);
    }

    @Test
    void mergedColumnsInANativeTransactionAreDescribedAsOnTheJdbcPath() throws Exception {
        long before = sample.server.nativeStatements();
        List<String> actual = run(sample.server, true);
        assertTrue(sample.server.nativeStatements() - before >= MERGES.size(), "every merge ran in the native transaction");
        assertSame(run(plain, true), actual);
    }

    private static void assertSame(List<String> expected, List<String> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), "step " + i);
        }
        assertEquals(expected.size(), actual.size());
    }

    private static List<String> run(ShardwiseServer server, boolean inTransaction) throws Exception {
        List<String> out = new ArrayList<>();
        try (RawClient c = RawClient.connect(server.address().getPort(), "app", "app", "shop", NativePassword.PLUGIN)) {
            RelayServerTest.exchange(c, POINT); // planned into the cache: from now on it relays
            for (String sql : MERGES) {
                if (inTransaction) {
                    RelayServerTest.exchange(c, "BEGIN");
                    RelayServerTest.exchange(c, POINT);
                    if (server == sample.server) {
                        assertEquals(1, server.pinnedConnections(), "the transaction is native: " + sql);
                    }
                }
                for (int round = inTransaction ? 1 : 0; round < 2; round++) { // in autocommit: first planned, then cached
                    List<String> packets = RelayServerTest.exchange(c, sql);
                    assertTrue(packets.size() > 2 && !packets.get(0).contains(":ff"), sql + " -> " + packets);
                    out.add(sql + " -> " + packets);
                }
                if (inTransaction) {
                    RelayServerTest.exchange(c, "ROLLBACK");
                }
            }
        }
        return out;
    }
}
