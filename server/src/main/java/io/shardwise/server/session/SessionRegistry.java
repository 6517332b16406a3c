package io.shardwise.server.session;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The sessions of one server by connection id, for KILL and COM_STATISTICS. Thread-safe: sessions
 * register and leave from their own threads, and any session may kill another.
 *
 * <p>Hazard: {@link Entry#cancel} and {@link Entry#disconnect} run on the killer's thread; both are
 * safe from any thread (cancelling may block on a backend, so it is never called on an event loop).
 */
public final class SessionRegistry {
    /** One registered session: who owns it and how to stop it. */
    record Entry(String user, Runnable cancel, Runnable disconnect) {}

    /** The outcome of a KILL. */
    enum Kill { DONE, UNKNOWN, NOT_OWNER }

    private final Map<Long, Entry> sessions = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final LongAdder questions = new LongAdder();

    public SessionRegistry(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    public SessionRegistry() {
        this(System::nanoTime);
    }

    /** Registers a session; returns what removes it. */
    public Runnable register(long connectionId, String user, Runnable cancel, Runnable disconnect) {
        Entry entry = new Entry(user, cancel, disconnect);
        sessions.put(connectionId, entry);
        return () -> sessions.remove(connectionId, entry);
    }

    void countQuestion() {
        questions.increment();
    }

    /** KILL [QUERY] id by {@code user}: only one's own sessions (no PROCESS or SUPER privilege here). */
    Kill kill(long connectionId, String user, boolean queryOnly) {
        Entry entry = sessions.get(connectionId);
        if (entry == null) {
            return Kill.UNKNOWN;
        }
        if (!entry.user().equals(user)) {
            return Kill.NOT_OWNER;
        }
        entry.cancel().run();
        if (!queryOnly) {
            entry.disconnect().run();
        }
        return Kill.DONE;
    }

    /** MySQL's COM_STATISTICS line (mysqladmin status); counters this server does not keep are 0. */
    String statistics() {
        long uptime = Duration.ofNanos(nanoClock.getAsLong() - startNanos).toSeconds();
        long asked = questions.sum();
        return String.format(java.util.Locale.ROOT,
                "Uptime: %d  Threads: %d  Questions: %d  Slow queries: 0  Opens: 0  Open tables: 0  Queries per second avg: %.3f",
                uptime, sessions.size(), asked, uptime == 0 ? 0.0 : (double) asked / uptime);
    }
}
