package io.shardwise.core.execute;

import static io.shardwise.core.execute.ExecutionSessionTest.unit;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.PoolConfig;
import io.shardwise.testkit.MysqlServer;
import io.shardwise.testkit.TestBackends;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Test fixture: logical backends ds0..dsN as fresh schemas on real servers, their pools, and plain
 * JDBC access to the same schemas for setting up and checking data behind the executor's back.
 */
final class Shards implements AutoCloseable {
    static final String LOGICAL_SCHEMA = "shop";
    static final PoolConfig SMALL_POOL =
            new PoolConfig(8, 0, Duration.ofSeconds(3), Duration.ofMinutes(1), Duration.ofMinutes(30));

    /** For tests' concurrent clients: the common fork-join pool may have a single worker on small machines. */
    static final java.util.concurrent.ExecutorService THREADS = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor();

    final List<MysqlServer> servers = new ArrayList<>();
    final List<String> schemas = new ArrayList<>();
    final BackendPools pools;

    /** {@code n} backends on the shared server. */
    Shards(int n, PoolConfig pool) {
        this(pool, nCopies(n));
    }

    /** One backend per listed server, in order, named ds0, ds1, ... */
    Shards(PoolConfig pool, MysqlServer... on) {
        this(pool, io.shardwise.core.config.TransactionConfig.DEFAULT, on);
    }

    /** As above, with transactions committing as {@code transaction} says. */
    Shards(PoolConfig pool, io.shardwise.core.config.TransactionConfig transaction, MysqlServer... on) {
        List<BackendConfig> configs = new ArrayList<>();
        for (int i = 0; i < on.length; i++) {
            String schema = TestBackends.uniqueSchemaName("exec_ds" + i);
            on[i].createSchema(schema);
            servers.add(on[i]);
            schemas.add(schema);
            configs.add(new BackendConfig("ds" + i, on[i].jdbcUrl(schema), on[i].user(), on[i].password(), pool));
        }
        pools = new BackendPools(configs, BackendMessages.NONE, transaction);
    }

    private static MysqlServer[] nCopies(int n) {
        MysqlServer[] a = new MysqlServer[n];
        Arrays.fill(a, TestBackends.shared());
        return a;
    }

    ExecutionSession session() {
        return session(true);
    }

    ExecutionSession session(boolean clientFoundRows) {
        return new ExecutionSession(pools, ExecutorOptions.DEFAULT, LOGICAL_SCHEMA, clientFoundRows);
    }

    ExecutionSession session(ExecutorOptions options) {
        return new ExecutionSession(pools, options, LOGICAL_SCHEMA, true);
    }

    /** Runs statements directly on backend {@code i}'s schema, bypassing the executor. */
    void sql(int i, String... statements) {
        try (Connection c = servers.get(i).connect(schemas.get(i)); Statement s = c.createStatement()) {
            for (String sql : statements) {
                s.execute(sql);
            }
        } catch (SQLException e) {
            throw new AssertionError("on ds" + i + ": " + e.getMessage(), e);
        }
    }

    /** A single-value query run directly on backend {@code i}. */
    String query(int i, String sql) {
        try (Connection c = servers.get(i).connect(schemas.get(i)); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError("on ds" + i + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        pools.close();
        for (int i = 0; i < schemas.size(); i++) {
            try {
                servers.get(i).dropSchema(schemas.get(i));
            } catch (IllegalStateException e) {
                // a dedicated server a test stopped or killed: its data goes with it
            }
        }
    }

    /** {@code INSERT INTO t (id) VALUES (id)} on ds{@code backend}, in {@code s} (the transaction tests' table t). */
    static void insert(ExecutionSession s, int backend, int id) {
        s.execute(List.of(unit("ds" + backend, "INSERT INTO t (id) VALUES (?)", id)));
    }

    /**
     * A transaction writing t on both backends, then rolled back: it is over, and {@code ids} (a backend's ids of t,
     * read outside the transaction) finds nothing on either.
     */
    void assertRollbackUndoesBothBackends(java.util.function.IntFunction<String> ids) {
        try (ExecutionSession s = session()) {
            s.begin();
            insert(s, 0, 1);
            insert(s, 1, 2);
            s.rollback();
            assertFalse(s.inTransaction());
        }
        assertEquals("", ids.apply(0));
        assertEquals("", ids.apply(1));
    }

    /**
     * A savepoint set before a backend joined also undoes that backend's work (ds1 joins after s1): {@code ids} (a
     * backend's ids of t, read outside the transaction) finds what the commit kept, 1 on ds0 and 4 on ds1.
     */
    void assertSavepointSetBeforeABackendJoinedUndoesItsWork(java.util.function.IntFunction<String> ids) {
        try (ExecutionSession s = session()) {
            s.begin();
            insert(s, 0, 1);
            s.savepoint("s1");
            insert(s, 0, 2);
            insert(s, 1, 3); // ds1 joins after s1
            s.rollbackToSavepoint("s1");
            insert(s, 1, 4);
            s.commit();
        }
        assertEquals("1", ids.apply(0));
        assertEquals("4", ids.apply(1));
    }

    /** Polls {@code condition} until it holds, failing with {@code what} after ten seconds. */
    static void await(java.util.function.BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("still not true after 10 s: " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    /** Every row of a result as strings (UTF-8), closing the cursor. */
    static List<List<String>> rows(UnitResult result) {
        List<List<String>> rows = new ArrayList<>();
        try (ResultCursor c = ((UnitResult.Rows) result).cursor()) {
            int width = c.columns().size();
            while (c.next()) {
                List<String> row = new ArrayList<>(width);
                for (int i = 0; i < width; i++) {
                    byte[] v = c.get(i);
                    row.add(v == null ? null : new String(v, StandardCharsets.UTF_8));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** The single value of a one-row, one-column result. */
    static String single(UnitResult result) {
        List<List<String>> rows = rows(result);
        if (rows.size() != 1 || rows.getFirst().size() != 1) {
            throw new AssertionError("expected one value, got " + rows);
        }
        return rows.getFirst().getFirst();
    }

    static UnitResult.Update update(UnitResult result) {
        return (UnitResult.Update) result;
    }
}
