package io.shardwise.server;

import io.shardwise.core.session.SessionHost;
import io.shardwise.core.session.SessionVariables;
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

    /**
     * What one session is doing, for SHOW PROCESSLIST: written by the session's own thread, read by any.
     * {@code command} is "Query" while a statement runs, else "Sleep"; {@code since} is when it changed.
     */
    public static final class Activity {
        final long id;
        final String user;
        final String host;
        volatile String schema;
        volatile String command = "Sleep";
        volatile String info;
        volatile long since;

        Activity(long id, String user, String host, long now) {
            this.id = id;
            this.user = user;
            this.host = host;
            this.since = now;
        }
    }

    private final Map<Long, Entry> sessions = new ConcurrentHashMap<>();
    private final Map<Long, Activity> activities = new ConcurrentHashMap<>();
    private final LongSupplier nanoClock;
    private final long startNanos;
    private final LongAdder questions = new LongAdder();
    /** What FLUSH HOSTS clears; set once by the server that owns both. */
    private volatile ConnectErrors connectErrors;

    public SessionRegistry(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    public SessionRegistry() {
        this(System::nanoTime);
    }

    /** The failed-connection counts FLUSH HOSTS clears. */
    void connectErrors(ConnectErrors errors) {
        connectErrors = errors;
    }

    /** Registers a session; returns what removes it. */
    public Runnable register(long connectionId, String user, Runnable cancel, Runnable disconnect) {
        Entry entry = new Entry(user, cancel, disconnect);
        sessions.put(connectionId, entry);
        return () -> {
            sessions.remove(connectionId, entry);
            activities.remove(connectionId);
        };
    }

    /** The activity record of a session that is opening; dropped with the session's registration. */
    public Activity track(long connectionId, String user, String host) {
        Activity activity = new Activity(connectionId, user, host, nanoClock.getAsLong());
        activities.put(connectionId, activity);
        return activity;
    }

    /** A statement started ({@code sql}) or ended (null) in a session. */
    public void activity(Activity activity, String sql, String schema) {
        activity.schema = schema;
        activity.info = sql;
        activity.command = sql == null ? "Sleep" : "Query";
        activity.since = nanoClock.getAsLong();
    }

    /** Seconds since {@code activity} last changed. */
    long seconds(Activity activity) {
        return Duration.ofNanos(nanoClock.getAsLong() - activity.since).toSeconds();
    }

    /** The registered sessions of {@code user} (without the PROCESS privilege MySQL shows one's own threads only), by id. */
    java.util.List<Activity> processes(String user) {
        return activities.values().stream().filter(a -> a.user.equals(user) && sessions.containsKey(a.id))
                .sorted(java.util.Comparator.comparingLong(a -> a.id)).toList();
    }

    public void countQuestion() {
        questions.increment();
    }

    /** KILL [QUERY] id by {@code user}: only one's own sessions (no PROCESS or SUPER privilege here). */
    public SessionHost.Kill kill(long connectionId, String user, boolean queryOnly) {
        Entry entry = sessions.get(connectionId);
        if (entry == null) {
            return SessionHost.Kill.UNKNOWN;
        }
        if (!entry.user().equals(user)) {
            return SessionHost.Kill.NOT_OWNER;
        }
        entry.cancel().run();
        if (!queryOnly) {
            entry.disconnect().run();
        }
        return SessionHost.Kill.DONE;
    }

    /** What the engine's session of one client asks of this server: its client, and the sessions it sees and may kill. */
    public SessionHost host(SessionVariables.Client client) {
        return new SessionHost() {
            @Override
            public SessionVariables.Client client() {
                return client;
            }

            @Override
            public java.util.List<Process> processes() {
                return SessionRegistry.this.processes(client.user()).stream()
                        .map(a -> new Process(a.id, a.user, a.host, a.schema, a.command, seconds(a), a.info)).toList();
            }

            @Override
            public Kill kill(long connectionId, boolean queryOnly) {
                return SessionRegistry.this.kill(connectionId, client.user(), queryOnly);
            }

            @Override
            public void flushHosts() {
                ConnectErrors errors = connectErrors;
                if (errors != null) {
                    errors.clear();
                }
            }
        };
    }

    /** MySQL's COM_STATISTICS line (mysqladmin status); counters this server does not keep are 0. */
    public String statistics() {
        long uptime = Duration.ofNanos(nanoClock.getAsLong() - startNanos).toSeconds();
        long asked = questions.sum();
        return String.format(java.util.Locale.ROOT,
                "Uptime: %d  Threads: %d  Questions: %d  Slow queries: 0  Opens: 0  Open tables: 0  Queries per second avg: %.3f",
                uptime, sessions.size(), asked, uptime == 0 ? 0.0 : (double) asked / uptime);
    }
}
