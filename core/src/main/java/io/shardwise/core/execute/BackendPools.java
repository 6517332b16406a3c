package io.shardwise.core.execute;

import com.mysql.cj.jdbc.JdbcConnection;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.shardwise.core.config.BackendConfig;
import io.shardwise.core.config.TransactionConfig;
import io.shardwise.core.error.BackendException;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import io.shardwise.core.rule.ShardingRule;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The connection pools of every backend: a HikariCP pool per backend for clients that count matched
 * rows (CLIENT_FOUND_ROWS, Connector/J's default) and a second one, created only when a session
 * asks for it, for clients that count changed rows (the mysql CLI's default). The flag is fixed in
 * the handshake, so one physical connection cannot serve both.
 *
 * <p>Pools are created lazily, on the first connection a backend is asked for, and never fail at
 * creation: a backend that is down fails only the statements that need it, with
 * {@link ErrorCode#SHARD_UNAVAILABLE}: at once when it refuses connections (see {@link Pool#acquire}),
 * after the pool's {@code connectionTimeout} at most when it does not answer at all.
 *
 * <p>Transactions and multi-unit statements are admitted before they borrow ({@link #admission()}),
 * so the pools cannot deadlock however small {@code max} is.
 *
 * <p>Connections keep backend results faithful: client-side prepared statements
 * ({@code useServerPrepStmts=false}), so rows are always text protocol and {@code getBytes} is
 * MySQL's text; no {@code jdbcCompliantTruncation} (it would add STRICT_TRANS_TABLES to sql_mode
 * and turn warnings into exceptions); {@code useLocalSessionState}, so unchanged autocommit,
 * isolation and read-only cost no round trip; no per-packet time stamps and cached parses of
 * client-side prepared statements, which outside transactions also stay open on their connection
 * for the next unit of the same text ({@link BackendStatements}) (per-statement CPU, not round
 * trips); {@code sslMode} and every other URL property as
 * configured. Pool names and messages name the backend; passwords appear nowhere.
 *
 * <p>Thread-safe.
 */
public final class BackendPools implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BackendPools.class.getName());
    /** How long one wait inside HikariCP lasts before {@link Pool#acquire()} checks the backend. */
    static final long SLICE_MILLIS = 500;

    private final Map<String, Backend> backends = new LinkedHashMap<>();
    private final AppliedStates applied = new AppliedStates();
    private final BackendMessages messages;
    private final Admission admission;
    private final XaCoordinator xa;
    private volatile boolean closed;

    /** Pools whose errors keep the backends' own wording (no sharding rule to name things by). */
    public BackendPools(Collection<BackendConfig> configs) {
        this(configs, BackendMessages.NONE);
    }

    public BackendPools(Collection<BackendConfig> configs, BackendMessages messages) {
        this(configs, messages, TransactionConfig.DEFAULT);
    }

    /**
     * Pools whose transactions commit as {@code transaction} says; in xa mode this opens (and
     * locks) the decision log and starts recovery of in-doubt transactions in the background.
     */
    public BackendPools(Collection<BackendConfig> configs, BackendMessages messages, TransactionConfig transaction) {
        this.messages = messages;
        for (BackendConfig c : configs) {
            if (backends.put(c.name(), new Backend(c)) != null) {
                throw new IllegalArgumentException("backend " + c.name() + " is configured twice");
            }
        }
        admission = Admission.of(configs);
        xa = switch (transaction.mode()) {
            case LOCAL -> null;
            case XA -> XaCoordinator.open(transaction);
        };
        if (xa != null) {
            xa.start(this);
        }
    }

    /** The pools of a rule's backends; their errors name the rule's logical schema and tables. */
    public static BackendPools of(ShardingRule rule) {
        return new BackendPools(rule.config().backends().values(), BackendMessages.of(rule), rule.config().transaction());
    }

    /** The XA coordinator in transaction mode xa, null in local mode. */
    XaCoordinator xa() {
        return xa;
    }

    /**
     * One XA recovery pass now (see {@link XaCoordinator#recover}); {@link RecoveryReport#NONE} in
     * local mode. Recovery also runs by itself at start and every {@code recoveryInterval}.
     */
    public RecoveryReport recoverTransactions() {
        return xa == null ? RecoveryReport.NONE : xa.recover(this);
    }

    /** A connection of {@code backend} outside its pools (see {@link BackendConnections#openUnpooled}); the caller closes it. */
    Connection openSide(String backend) throws SQLException {
        return BackendConnections.openUnpooled(backend(backend).found.config);
    }

    /** How this engine's backend messages read in logical names. */
    public BackendMessages messages() {
        return messages;
    }

    /**
     * A backend's error as clients see it: its errno, SQLSTATE and text, with logical names for the
     * physical ones (see {@link BackendMessages}). The message does not name the backend, so it
     * reads as MySQL's; the log does, with the backend's own text, at DEBUG (WARNING for a lost
     * connection), and {@link BackendException#backend()} carries it. A connection the driver found
     * broken is no backend's error: the backend is unavailable (1105, HY000), as on the server's native path.
     */
    ShardwiseException error(String backend, SQLException e) {
        String logical = messages.logical(backend, e.getErrorCode(), e.getMessage());
        boolean lost = Errors.connectionLost(e);
        if (lost) {
            Backend b = backends.get(backend);
            if (b != null) {
                b.found.suspect();
                b.changed.suspect();
            }
        }
        System.Logger.Level level = lost ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG;
        if (LOG.isLoggable(level)) {
            LOG.log(level, "backend " + backend + " failed: " + e.getErrorCode() + " (" + e.getSQLState() + ") " + e.getMessage());
        }
        if (lost && e.getErrorCode() == 0) {
            // the driver found the connection broken (no server sent an error): 1105/HY000 "Shard … is unavailable", as the
            // server's native path and the relay say it; never the driver's 08S01, which a client takes for its own connection
            return new ShardwiseException(e, ErrorCode.SHARD_UNAVAILABLE, backend, lostReason(e.getMessage()));
        }
        return new BackendException(backend, e, logical);
    }

    /**
     * What broke, in one line: Connector/J's "Communications link failure" and the like run over several
     * lines of advice; what a caller added after them (a commit's outcome) is kept.
     */
    static String lostReason(String message) {
        if (message == null || message.isBlank()) {
            return "the connection was lost";
        }
        return "the connection was lost (" + message.strip().replaceAll("\\s+", " ") + ")";
    }

    /** Who may hold several of these pools' connections at once; one per set of pools, so per engine. */
    Admission admission() {
        return admission;
    }

    /**
     * Admission slots held now: one per open transaction that has touched a backend, and a
     * multi-unit statement's until its last cursor closes; zero whenever every session is idle.
     */
    public int admittedSlots() {
        return admission.held();
    }

    public Set<String> backendNames() {
        return Collections.unmodifiableSet(backends.keySet());
    }

    /** Connections checked out of every pool now; zero whenever no statement or transaction is open. */
    public int activeConnections() {
        int n = 0;
        for (Backend b : backends.values()) {
            n += b.found.active() + b.changed.active();
        }
        return n;
    }

    public int activeConnections(String backend) {
        Backend b = backend(backend);
        return b.found.active() + b.changed.active();
    }

    /** Closes every pool; connections still checked out are closed by HikariCP as they come back. */
    @Override
    public void close() {
        closed = true;
        if (xa != null) {
            xa.close();
        }
        for (Backend b : backends.values()) {
            b.found.close();
            b.changed.close();
        }
    }

    /** A connection of {@code backend} for a client with that CLIENT_FOUND_ROWS choice. */
    Lease borrow(String backend, boolean clientFoundRows) {
        Backend b = backend(backend);
        Pool pool = clientFoundRows ? b.found : b.changed;
        Connection c;
        try {
            c = pool.acquire();
        } catch (SQLException e) {
            pool.suspect();
            throw unavailable(backend, e);
        }
        try {
            JdbcConnection physical = c.unwrap(JdbcConnection.class);
            Lease lease = new Lease(pool, c, physical, applied.of(physical));
            pool.captureBaseline(c);
            return lease;
        } catch (SQLException e) {
            closeQuietly(c);
            throw error(backend, e);
        }
    }

    /**
     * KILL QUERY {@code connectionId} on {@code backend} over an unpooled connection (for a
     * connection not of these pools: the server's relay); an id that no longer runs anything is fine.
     */
    public void killQuery(String backend, long connectionId) {
        backend(backend).found.killQuery(connectionId);
    }

    private Backend backend(String name) {
        Backend b = backends.get(name);
        if (b == null) {
            throw new ShardwiseException(ErrorCode.BUG, "execution unit names backend '" + name + "'; configured: "
                    + String.join(", ", backends.keySet()));
        }
        return b;
    }

    /**
     * A pool that could not hand out a connection in time. A backend that answered with an error of
     * its own (access denied, unknown database) reports that error; otherwise it is unavailable.
     */
    private ShardwiseException unavailable(String backend, SQLException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof SQLException s && s.getErrorCode() != 0 && s.getSQLState() != null
                    && !s.getSQLState().startsWith("08")) {
                return error(backend, s);
            }
        }
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        String reason = root == e ? e.getMessage() : e.getMessage() + ": " + root.getMessage();
        return new ShardwiseException(e, ErrorCode.SHARD_UNAVAILABLE, backend, reason);
    }

    static void closeQuietly(AutoCloseable c) {
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // releasing: the original outcome is what the caller reports
            }
        }
    }

    private final class Backend {
        final Pool found;
        final Pool changed;

        Backend(BackendConfig config) {
            found = new Pool(config, true);
            changed = new Pool(config, false);
        }
    }

    /** One lazily created HikariCP pool, plus what a fresh connection of it carries. */
    final class Pool {
        private final BackendConfig config;
        private final boolean foundRows;
        private final ReentrantLock lock = new ReentrantLock();
        private volatile HikariDataSource dataSource;
        private volatile Baseline baseline;
        /**
         * Whether the backend may be down: true until a connection has been seen to open, again
         * after a wait for a connection failed or a connection was lost. HikariCP would make a
         * statement wait the whole {@code connectionTimeout} for a backend that refuses connections.
         */
        private volatile boolean suspect = true;

        Pool(BackendConfig config, boolean foundRows) {
            this.config = config;
            this.foundRows = foundRows;
        }

        String backend() {
            return config.name();
        }

        BackendPools pools() {
            return BackendPools.this;
        }

        Baseline baseline() {
            return baseline;
        }

        HikariDataSource dataSource() {
            HikariDataSource ds = dataSource;
            if (ds != null) {
                return ds;
            }
            lock.lock();
            try {
                if (closed) {
                    throw new ShardwiseException(ErrorCode.SHARD_UNAVAILABLE, config.name(), "the executor is closed");
                }
                if (dataSource == null) {
                    dataSource = new HikariDataSource(hikariConfig());
                }
                return dataSource;
            } finally {
                lock.unlock();
            }
        }

        private HikariConfig hikariConfig() {
            HikariConfig h = new HikariConfig();
            h.setPoolName("shardwise-" + config.name() + (foundRows ? "" : "-changed-rows"));
            Properties p = BackendConnections.driverProperties(config, foundRows);
            p.setProperty("user", config.user());
            p.setProperty("password", config.password());
            // a DataSource of our own, not setJdbcUrl: with a URL HikariCP applies its connection timeout
            // through DriverManager.setLoginTimeout, JVM-wide, which would cut every other connect in the
            // application's JVM (the JDBC face runs inside it) to a second or so
            h.setDataSource(new BackendDataSource(config.url(), p));
            h.setMaximumPoolSize(config.pool().max());
            // the changed-rows pool serves only the sessions that asked for it: keep nothing idle
            h.setMinimumIdle(foundRows ? config.pool().minIdle() : 0);
            // a slice of the timeout: acquire() waits the rest, probing the backend between slices
            h.setConnectionTimeout(Math.min(SLICE_MILLIS, Math.max(250, config.pool().connectionTimeout().toMillis())));
            h.setIdleTimeout(config.pool().idleTimeout().toMillis());
            h.setMaxLifetime(config.pool().maxLifetime().toMillis());
            h.setInitializationFailTimeout(-1);
            h.setAutoCommit(true);
            return h;
        }

        void suspect() {
            suspect = true;
        }

        /**
         * While the backend is suspect, one connection outside the pool tells at once whether it
         * answers (a refused connection fails in a millisecond; an unreachable host after
         * {@code connectionTimeout}, as the pool would), so a statement that needs a down backend
         * fails at once and one that comes after it is back needs no restart. Throws the failure.
         */
        void checkReachable() throws SQLException {
            if (!suspect) {
                return;
            }
            try (Connection probe = BackendConnections.openUnpooled(config)) {
                suspect = false;
            }
        }

        /**
         * A connection within {@code connectionTimeout}, waiting in slices of {@link #SLICE_MILLIS}:
         * after a slice in which the pool could not open the connections it lacks, the backend is
         * probed, so one that went down while the pool held (now dead) idle connections fails the
         * statement within a slice instead of the whole timeout. A pool merely busy (every
         * connection open and checked out) is never probed: that is load, not a fault.
         *
         * <p>A connection the backend has closed while it sat in the pool (a restart, {@code wait_timeout}) is
         * evicted and another taken ({@link PeekableSocketFactory#closedByPeer}, no round trip): nothing has been
         * sent on it, so the statement that would have failed with 1105 runs on a live connection instead. The
         * backend is probed first, so one that is down still fails at once.
         */
        Connection acquire() throws SQLException {
            checkReachable();
            HikariDataSource ds = dataSource();
            long deadline = System.nanoTime() + Math.max(250, config.pool().connectionTimeout().toMillis()) * 1_000_000L;
            while (true) {
                try {
                    Connection c = ds.getConnection();
                    if (!PeekableSocketFactory.closedByPeer(c.unwrap(JdbcConnection.class))) {
                        return c;
                    }
                    ds.evictConnection(c);
                    suspect = true;
                    checkReachable();
                } catch (SQLTransientConnectionException e) {
                    if (System.nanoTime() - deadline >= 0 || ds.isClosed()) {
                        throw e;
                    }
                    if (ds.getHikariPoolMXBean().getTotalConnections() < config.pool().max()) {
                        suspect = true;
                        checkReachable();
                    }
                }
            }
        }

        /** Reads once per pool what a fresh connection's charset variables are, to restore them later. */
        void captureBaseline(Connection c) throws SQLException {
            if (baseline != null) {
                return;
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
                    "SELECT @@session.character_set_results, @@session.character_set_connection,"
                            + " @@session.collation_connection")) {
                rs.next();
                baseline = new Baseline(rs.getString(1), rs.getString(2), rs.getString(3));
            }
        }

        void evict(Connection c) {
            HikariDataSource ds = dataSource;
            if (ds != null) {
                ds.evictConnection(c);
            }
        }

        /**
         * KILL QUERY on a separate, unpooled connection (as Connector/J's own cancel does): the pool
         * may be exhausted by the very statements being cancelled. Returns once the server has
         * processed the kill.
         */
        void killQuery(long connectionId) {
            try (Connection c = BackendConnections.openUnpooled(config); Statement s = c.createStatement()) {
                s.execute("KILL QUERY " + connectionId);
            } catch (SQLException e) {
                // the query ended by itself, or the backend is gone: either way nothing runs any more
                if (!ErrorCode.UNKNOWN_THREAD.is(e.getErrorCode())) {
                    System.getLogger(BackendPools.class.getName()).log(System.Logger.Level.DEBUG,
                            "KILL QUERY on backend " + config.name() + " failed: " + e.getMessage());
                }
            }
        }

        int active() {
            HikariDataSource ds = dataSource;
            return ds == null || ds.isClosed() ? 0 : ds.getHikariPoolMXBean().getActiveConnections();
        }

        void close() {
            lock.lock();
            try {
                if (dataSource != null) {
                    dataSource.close();
                }
            } finally {
                lock.unlock();
            }
        }
    }

    /** What the driver sets on a fresh connection (Connector/J picks the collation, results are NULL otherwise). */
    record Baseline(String results, String connection, String collation) {
        String resultsAssignment() {
            return SessionState.RESULTS + " = " + (results == null ? "NULL" : "'" + results + "'");
        }

        String connectionAssignment() {
            return SessionState.CONNECTION + " = '" + connection + "', collation_connection = '" + collation + "'";
        }
    }
}
