package io.shardwise.core.execute;

import io.shardwise.core.config.TransactionConfig;
import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The engine's two-phase-commit coordinator over MySQL XA (transaction mode {@code xa}): names
 * global transactions, keeps the {@link DecisionLog}, and resolves in-doubt branches.
 *
 * <p>XIDs: gtrid {@code sw.<instance>.<start>.<n>} (start: this process's start time in base 36,
 * so ids never repeat across restarts), bqual the backend's name, format id {@link Xid#FORMAT_ID}.
 * Recovery only ever touches XIDs of that format whose gtrid starts with this instance's prefix
 * and whose bqual names the backend it scans: another instance's branches, or anyone else's, are
 * never resolved here.
 *
 * <p>Safety: a transaction is {@link #begin registered} before its first XA PREPARE and
 * {@link #end deregistered} only after its last XA COMMIT or ROLLBACK attempt; recovery skips
 * registered transactions, so it never resolves a branch its live coordinator is still deciding.
 * Every other prepared branch of this instance is committed when the log holds its decision and
 * rolled back otherwise (presumed abort: the decision is logged before the first commit).
 *
 * <p>Recovery runs at start and every {@code recoveryInterval} on a daemon thread, at once after a
 * commit that could not reach a backend ({@link #kick}), and on demand ({@link #recover}). Passes
 * never overlap. Thread-safe.
 */
final class XaCoordinator implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(XaCoordinator.class.getName());

    private final DecisionLog log;
    private final String prefix;
    private final String start = Long.toString(System.currentTimeMillis(), 36);
    private final AtomicLong next = new AtomicLong();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final ReentrantLock passLock = new ReentrantLock();
    private final TransactionConfig config;
    private ScheduledExecutorService recovery;
    private volatile boolean startPassLogged;

    private XaCoordinator(TransactionConfig config, DecisionLog log) {
        this.config = config;
        this.log = log;
        this.prefix = "sw." + config.instance() + ".";
    }

    static XaCoordinator open(TransactionConfig config) {
        try {
            return new XaCoordinator(config, DecisionLog.open(config.log()));
        } catch (IOException e) {
            throw new ShardwiseException(e, ErrorCode.XA_LOG_UNAVAILABLE, config.log(), e.getMessage());
        }
    }

    String instance() {
        return config.instance();
    }

    DecisionLog log() {
        return log;
    }

    /** A global transaction id never used before by this instance. */
    String newGtrid() {
        return prefix + start + "." + Long.toString(next.incrementAndGet(), 36);
    }

    /** The transaction is about to prepare: recovery must leave its branches alone until {@link #end}. */
    void begin(String gtrid) {
        inFlight.add(gtrid);
    }

    void end(String gtrid) {
        inFlight.remove(gtrid);
    }

    /** Starts recovery: a pass now and then one every recovery interval. */
    void start(BackendPools pools) {
        ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "shardwise-xa-recovery");
            t.setDaemon(true);
            return t;
        });
        recovery = s;
        long every = config.recoveryInterval().toMillis();
        s.scheduleWithFixedDelay(() -> recoverQuietly(pools), 0, every, TimeUnit.MILLISECONDS);
    }

    /** A branch could not be committed: resolve it as soon as its backend answers again. */
    void kick(BackendPools pools) {
        ScheduledExecutorService s = recovery;
        if (s != null && !s.isShutdown()) {
            try {
                s.schedule(() -> recoverQuietly(pools), 200, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closing
            }
        }
    }

    private void recoverQuietly(BackendPools pools) {
        try {
            RecoveryReport r = recover(pools);
            boolean first = !startPassLogged;
            if (first || r.committed() + r.rolledBack() > 0 || !r.failures().isEmpty()) {
                startPassLogged = true;
                LOG.log(r.failures().isEmpty() ? System.Logger.Level.INFO : System.Logger.Level.WARNING, "XA recovery of instance "
                        + config.instance() + (first ? " at start" : "") + ": " + r.committed() + " committed, " + r.rolledBack()
                        + " rolled back" + (r.failures().isEmpty() ? "" : ", unresolved: " + r.failures()));
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "XA recovery failed", e);
        }
    }

    /**
     * One recovery pass over every backend: XA RECOVER, then commit or roll back each prepared
     * branch of this instance that no live transaction owns. When every backend answered and every
     * branch was resolved, the log drops the decisions no branch needs any more: those logged
     * before the pass whose transactions were not live at its start.
     */
    RecoveryReport recover(BackendPools pools) {
        passLock.lock();
        try {
            Set<String> logged = log.decisions();
            Set<String> liveAtStart = Set.copyOf(inFlight);
            Set<String> unresolved = new HashSet<>();
            List<String> failures = new ArrayList<>();
            int committed = 0;
            int rolledBack = 0;
            for (String backend : pools.backendNames()) {
                try (Connection c = pools.openSide(backend); Statement s = c.createStatement()) {
                    for (Xid xid : ours(s, backend)) {
                        if (inFlight.contains(xid.gtrid())) {
                            unresolved.add(xid.gtrid());
                            continue;
                        }
                        boolean commit = log.isCommitted(xid.gtrid());
                        try {
                            s.execute((commit ? "XA COMMIT " : "XA ROLLBACK ") + xid.sql());
                            if (commit) {
                                committed++;
                            } else {
                                rolledBack++;
                            }
                        } catch (SQLException e) {
                            if (!ErrorCode.XAER_NOTA.is(e.getErrorCode())) { // NOTA: finished meanwhile
                                unresolved.add(xid.gtrid());
                                failures.add(backend + ": " + xid + ": " + e.getMessage());
                            }
                        }
                    }
                } catch (SQLException | RuntimeException e) {
                    failures.add(backend + ": " + e.getMessage());
                }
            }
            if (failures.isEmpty()) {
                try {
                    log.retain(g -> !logged.contains(g) || liveAtStart.contains(g) || inFlight.contains(g) || unresolved.contains(g));
                } catch (IOException e) {
                    failures.add("decision log " + log.path() + ": " + e.getMessage());
                }
            }
            return new RecoveryReport(committed, rolledBack, List.copyOf(failures));
        } finally {
            passLock.unlock();
        }
    }

    /** The prepared branches XA RECOVER lists on {@code backend} that belong to this instance and this backend. */
    private List<Xid> ours(Statement s, String backend) throws SQLException {
        List<Xid> xids = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                if (rs.getLong(1) != Xid.FORMAT_ID) {
                    continue;
                }
                int gl = rs.getInt(2);
                int bl = rs.getInt(3);
                byte[] data = rs.getBytes(4);
                if (data == null || data.length < gl + bl) {
                    continue;
                }
                String gtrid = new String(data, 0, gl, StandardCharsets.US_ASCII);
                String bqual = new String(Arrays.copyOfRange(data, gl, gl + bl), StandardCharsets.UTF_8);
                if (gtrid.startsWith(prefix) && bqual.equals(backend)) {
                    xids.add(new Xid(gtrid, bqual));
                }
            }
        }
        return xids;
    }

    @Override
    public void close() {
        ScheduledExecutorService s = recovery;
        if (s != null) {
            s.shutdownNow();
            try {
                s.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        log.close();
    }
}
