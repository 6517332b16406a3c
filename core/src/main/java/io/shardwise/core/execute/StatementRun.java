package io.shardwise.core.execute;

import io.shardwise.core.error.ErrorCode;
import io.shardwise.core.error.ShardwiseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The units of one statement while any of them still occupies a backend connection, from launch
 * until the last streaming cursor closes: the scope of cancel, of the statement timeout and of
 * "the first failing unit fails the statement".
 *
 * <p>Invariant: once cancelled, no unit of this run starts a new backend statement ({@link #enter}
 * refuses), and every statement already running gets a KILL QUERY.
 */
final class StatementRun {
    private final ReentrantLock lock = new ReentrantLock();
    private final Set<Lease> executing = new HashSet<>();
    private final Set<StatementRun> registry;
    private final Thread timer;
    private boolean cancelled;
    private boolean launched;
    private boolean finished;
    private ShardwiseException failure;
    /** The thread waiting for admission, interrupted by {@link #cancel}; null when none waits. */
    private Thread admissionWaiter;
    private Admission admission;
    private int heldSlots;
    /** Set by the timer before it cancels: the run's 1317 is then the statement timeout's 3024. */
    private volatile boolean timedOut;
    /** Set when a statement of this run outlived its KILL QUERY by {@link #ABORT_GRACE} and its connection was aborted. */
    private volatile boolean aborted;
    private boolean abortScheduled;
    /**
     * How long a killed statement may take to end before its connection is aborted: a KILL QUERY ends
     * a statement on a live backend in milliseconds, so only a backend or network that no longer
     * answers needs this.
     */
    static final Duration ABORT_GRACE = Duration.ofSeconds(5);

    StatementRun(Set<StatementRun> registry, Duration timeout) {
        this.registry = registry;
        registry.add(this);
        timer = timeout.isZero() ? null : Thread.ofVirtual().name("shardwise-statement-timeout").start(() -> {
            try {
                Thread.sleep(timeout);
            } catch (InterruptedException e) {
                return; // finished in time
            }
            timedOut = true;
            cancel();
        });
    }

    /** A unit is about to run a statement on {@code lease}; throws 1317 when the run was cancelled. */
    void enter(Lease lease) {
        lock.lock();
        try {
            if (cancelled) {
                throw Errors.interrupted();
            }
            executing.add(lease);
            lease.startExecuting();
        } finally {
            lock.unlock();
        }
    }

    /** The statement on {@code lease} is over (result read, update done, cursor closed, or failed). */
    void exit(Lease lease) {
        boolean finishNow;
        lock.lock();
        try {
            executing.remove(lease);
            finishNow = launched && executing.isEmpty() && !finished;
            finished |= finishNow;
        } finally {
            lock.unlock();
        }
        lease.stopExecuting(); // waits for a kill in flight: the lease may go back to the pool next
        if (finishNow) {
            finish();
        }
    }

    /** Every unit has produced its result or failed; the run lives on only while cursors stream. */
    void launched() {
        boolean finishNow;
        lock.lock();
        try {
            launched = true;
            finishNow = executing.isEmpty() && !finished;
            finished |= finishNow;
        } finally {
            lock.unlock();
        }
        if (finishNow) {
            finish();
        }
    }

    /**
     * Waits for {@code slots} of {@code admission} before any unit takes a connection. Cancel and the
     * statement timeout end the wait with 1317, as they end a running statement.
     *
     * @param untilFinished true: the run holds the slots and gives them back when it finishes (its
     *     last cursor closed); false: the caller owns them from now on (a transaction's)
     * @throws ShardwiseException 1317 when cancelled, 1205 when no slot came free in time
     */
    void admit(Admission admission, int slots, boolean untilFinished) {
        lock.lock();
        try {
            if (cancelled) {
                throw Errors.interrupted();
            }
            admissionWaiter = Thread.currentThread();
        } finally {
            lock.unlock();
        }
        boolean acquired = false;
        boolean interrupted = false;
        ShardwiseException timedOut = null;
        try {
            admission.acquire(slots);
            acquired = true;
        } catch (InterruptedException e) {
            interrupted = true;
        } catch (ShardwiseException e) {
            timedOut = e;
        }
        boolean wasCancelled;
        lock.lock();
        try {
            admissionWaiter = null;
            wasCancelled = cancelled;
            if (acquired && !wasCancelled && untilFinished) {
                this.admission = admission;
                heldSlots = slots;
            }
        } finally {
            lock.unlock();
        }
        if (wasCancelled) {
            Thread.interrupted(); // ours, from cancel(): the caller's thread must not keep it
            if (acquired) {
                admission.release(slots);
            }
            throw Errors.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt(); // someone else's: keep it for them
            throw Errors.interrupted();
        }
        if (timedOut != null) {
            throw timedOut;
        }
    }

    /** {@code e} as the client should see it: the 1317 of a run the statement timeout cancelled is 3024, as MySQL's max_execution_time. */
    ShardwiseException explain(ShardwiseException e) {
        if (aborted && e.errno() != ErrorCode.QUERY_INTERRUPTED.errno()) {
            // the connection error of an abort we did ourselves: the statement was interrupted
            ShardwiseException interrupted = Errors.interrupted();
            interrupted.addSuppressed(e);
            e = interrupted;
        }
        if (timedOut && e.errno() == ErrorCode.QUERY_INTERRUPTED.errno()) {
            ShardwiseException timeout = new ShardwiseException(ErrorCode.QUERY_TIMEOUT);
            timeout.addSuppressed(e);
            return timeout;
        }
        return e;
    }

    void checkNotCancelled() {
        lock.lock();
        try {
            if (cancelled) {
                throw Errors.interrupted();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Records a unit's failure; the first one fails the statement and cancels the siblings. */
    void fail(ShardwiseException e) {
        lock.lock();
        try {
            if (failure == null) {
                failure = e;
            } else if (failure != e) {
                failure.addSuppressed(e);
            }
        } finally {
            lock.unlock();
        }
        cancel();
    }

    ShardwiseException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }

    /** KILL QUERY on every statement of this run still running, in parallel; returns when all kills are done. */
    void cancel() {
        List<Lease> victims;
        boolean scheduleAbort;
        lock.lock();
        try {
            cancelled = true;
            if (admissionWaiter != null) {
                admissionWaiter.interrupt();
            }
            victims = new ArrayList<>(executing);
            scheduleAbort = !victims.isEmpty() && !abortScheduled;
            abortScheduled |= scheduleAbort;
        } finally {
            lock.unlock();
        }
        if (scheduleAbort) {
            abortStragglers(victims);
        }
        if (victims.size() == 1) {
            victims.getFirst().kill();
            return;
        }
        List<Thread> kills = new ArrayList<>(victims.size());
        for (Lease l : victims) {
            kills.add(Thread.ofVirtual().name("shardwise-kill-" + l.backend()).start(l::kill));
        }
        for (Thread t : kills) {
            joinUninterruptibly(t);
        }
    }

    /** After {@link #ABORT_GRACE}, aborts the connection of each victim still running the statement it was killed in. */
    private void abortStragglers(List<Lease> victims) {
        long[] executions = new long[victims.size()];
        for (int i = 0; i < executions.length; i++) {
            executions[i] = victims.get(i).execution();
        }
        Thread.ofVirtual().name("shardwise-kill-grace").start(() -> {
            try {
                Thread.sleep(ABORT_GRACE);
            } catch (InterruptedException e) {
                return;
            }
            for (int i = 0; i < executions.length; i++) {
                Lease lease = victims.get(i);
                boolean stillHere;
                lock.lock();
                try {
                    stillHere = executing.contains(lease);
                } finally {
                    lock.unlock();
                }
                if (stillHere && executions[i] >= 0 && lease.claimAbort(executions[i])) {
                    aborted = true; // before the abort: the failure it causes must be explained as an interruption
                    lease.abortConnection();
                }
            }
        });
    }

    private void finish() {
        registry.remove(this);
        Admission held;
        int slots;
        lock.lock();
        try {
            held = admission;
            slots = heldSlots;
            admission = null;
        } finally {
            lock.unlock();
        }
        if (held != null) {
            held.release(slots);
        }
        if (timer != null) {
            timer.interrupt();
        }
    }

    static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
