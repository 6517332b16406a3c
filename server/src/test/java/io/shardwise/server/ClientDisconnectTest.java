package io.shardwise.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that vanishes (its socket closed without COM_QUIT, as a crashed client or a cut network
 * leaves it) in the middle of a transaction or of a result: its backend statements are cancelled,
 * its transaction rolled back so the rows it locked are free at once, its backend connections go
 * back to the pools (the fixture checks after each test), and other clients see nothing.
 */
class ClientDisconnectTest {
    @RegisterExtension
    static final SampleServer sample = SampleServer.forClass("disconnect");

    @Test
    void aClientGoneMidTransactionIsRolledBackAndItsRowLocksAreFreeAtOnce() throws Exception {
        String sum = "SELECT COUNT(*), SUM(amount) FROM orders";
        String before;
        try (Connection whole = sample.direct()) {
            before = text(whole, sum);
        }
        try (Connection other = sample.connect("app", "")) {
            Connection gone = sample.connect("app", "");
            gone.setAutoCommit(false);
            try (Statement s = gone.createStatement()) {
                int n = s.executeUpdate("UPDATE orders SET amount = amount + 1000");
                assertTrue(n > 1, "the update touches rows on both shards: " + n);
            }
            abort(gone);
            try (Statement s = other.createStatement()) {
                // 1 s lock wait: the rows are either free or the test fails fast (1205) rather than after 50 s
                s.execute("SET innodb_lock_wait_timeout = 1");
                long t0 = System.nanoTime();
                awaitUpdate(s, "UPDATE orders SET amount = amount WHERE order_id > 0");
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(ms < 20_000, "the locks were freed " + ms + " ms after the client vanished");
                assertEquals(before, text(other, sum), "the vanished client's update was rolled back");
            }
        }
    }

    @Test
    void aClientGoneMidResultHasItsBackendStatementsCancelled() throws Exception {
        try (Connection other = sample.connect("app", "")) {
            Connection gone = sample.connect("app", "");
            try (Statement s = gone.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT order_id, SLEEP(0) FROM orders WHERE order_id > 0")) {
                // planned once: the same shape next time is a plan-cache hit, which the server relays packet by packet
                while (rs.next()) {
                    assertEquals(0, rs.getInt(2));
                }
            }
            ExecutorService runner = Executors.newVirtualThreadPerTaskExecutor();
            runner.submit(() -> {
                try (Statement s = gone.createStatement()) {
                    s.setFetchSize(Integer.MIN_VALUE);
                    try (ResultSet rs = s.executeQuery("SELECT order_id, SLEEP(60) FROM orders WHERE order_id > 0")) {
                        while (rs.next()) {
                            // never reached before the abort: the first row takes a minute
                        }
                    }
                }
                return null;
            });
            awaitSleeping(1); // the relay runs one shard after the other
            abort(gone);
            long t0 = System.nanoTime();
            awaitSleeping(0);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 20_000, "backend statements ended " + ms + " ms after the client vanished");
            try (Statement s = other.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                rs.next();
                assertTrue(rs.getLong(1) > 0);
            }
            runner.shutdownNow();
        }
    }

    /** Closes the client's socket without COM_QUIT. */
    private static void abort(Connection c) throws SQLException {
        c.abort(Runnable::run);
    }

    private static void awaitUpdate(Statement s, String update) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                s.executeUpdate(update);
                return;
            } catch (SQLException e) {
                if (e.getErrorCode() != 1205 || System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }

    /** Waits until the backend runs {@code n} or more (n > 0), or none (n = 0), of the statements that sleep. */
    private static void awaitSleeping(int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        try (Connection c = sample.backend.connect("information_schema"); Statement s = c.createStatement()) {
            while (true) {
                long running;
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.processlist"
                        + " WHERE info LIKE 'SELECT %SLEEP(60)%' AND command = 'Query' AND id <> CONNECTION_ID()")) {
                    rs.next();
                    running = rs.getLong(1);
                }
                if (n == 0 ? running == 0 : running >= n) {
                    return;
                }
                if (System.nanoTime() > deadline) {
                    StringBuilder list = new StringBuilder();
                    try (ResultSet rs = s.executeQuery("SELECT id, command, time, info FROM information_schema.processlist")) {
                        while (rs.next()) {
                            list.append("\n  ").append(rs.getString(1)).append(' ').append(rs.getString(2)).append(' ')
                                    .append(rs.getString(3)).append(' ').append(rs.getString(4));
                        }
                    }
                    fail(list + "\n" + "backend statements sleeping: " + running + ", awaited " + (n == 0 ? "none" : n + " or more"));
                }
                Thread.sleep(20);
            }
        }
    }

    private static String text(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1) + "/" + rs.getString(2);
        }
    }
}
